// RFC 9110 §13.1.2 and §13.1.3 on a read: whether the client's copy is still current.

import { parseTags, weakly } from './preconditions.ts'

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
