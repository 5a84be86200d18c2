// RFC 9110 §13 preconditions on ETags and Last-Modified: read from the request; a write's are checked by the layer (resources/preconditions.ts).

import { parseTags, weakly, type Preconditions } from '../resources/preconditions.ts'

/** A write's If-Match / If-None-Match, for the operations layer. */
export const preconditionsOf = (headers: Headers): Preconditions => ({ ifMatch: headers.get('if-match'), ifNoneMatch: headers.get('if-none-match') })

/** GET/HEAD: true when the client's copy is current (answer 304). */
export function isNotModified(headers: Headers, etag: string, modified: number): boolean {
  const ifNoneMatch = headers.get('if-none-match')
  if (ifNoneMatch !== null) {
    const tags = weakly(parseTags(ifNoneMatch))
    return tags.includes('*') || tags.includes(etag)
  }
  const since = headers.get('if-modified-since')
  if (since === null) return false
  const t = Date.parse(since)
  return !Number.isNaN(t) && Math.floor(modified / 1000) * 1000 <= t
}
