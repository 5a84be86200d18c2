// RFC 9110 §13 preconditions of a write (If-Match, If-None-Match), and the WebDAV lock tokens its If header submits
// (RFC 4918 §10.4, judged first by honour-locks.ts), as the request sent them; the layer checks them
// (resources/preconditions.ts, resources/lock-table.ts).

import type { Preconditions } from '../resources/preconditions.ts'
import { parseIfHeader, submittedTokens } from '../resources/if-header.ts'

/** The lock tokens of the request's If header; none without one. */
export const lockTokensOf = (headers: Headers): string[] => {
  const header = headers.get('if')
  return header === null ? [] : [...submittedTokens(parseIfHeader(header))]
}

/** A write's If-Match / If-None-Match and lock tokens, for the operations layer. */
export const preconditionsOf = (headers: Headers): Preconditions => ({
  ifMatch: headers.get('if-match'),
  ifNoneMatch: headers.get('if-none-match'),
  lockTokens: lockTokensOf(headers),
})
