// RFC 9110 §13 preconditions of a write (If-Match, If-None-Match), and the WebDAV If header (RFC 4918 §10.4) parsed
// once, as the request sent them; the operations layer judges them after access (resources/preconditions.ts,
// resources/lock-table.ts `admit`), so a locked resource is never told to whoever may not write it.

import type { Preconditions } from '../resources/preconditions.ts'
import { submittedLocksOf } from '../resources/if-header.ts'

export { submittedLocksOf }

/** A write's If-Match / If-None-Match and If header, for the operations layer. */
export const preconditionsOf = (headers: Headers): Preconditions => ({
  ifMatch: headers.get('if-match'),
  ifNoneMatch: headers.get('if-none-match'),
  ...submittedLocksOf(headers),
})
