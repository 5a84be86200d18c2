// RFC 9110 §13 preconditions on ETags and Last-Modified.

import { HttpError } from '../http/errors.ts'
import { namesState, type ResourceMeta } from '../store/resource-meta.ts'

function parseTags(header: string): string[] {
  return header.split(',').map(t => t.trim()).filter(Boolean)
}

/** RFC 9110 §8.8.3.2 weak comparison: the W/ prefix is ignored. */
const weakly = (tags: string[]) => tags.map(t => t.replace(/^W\//, ''))

/** A write's If-Match names the state, whichever representation the client saw. */
const sameState = namesState

/** If-Match / If-None-Match on PUT, POST, PATCH, DELETE: 412 when they fail. */
export function checkWritePreconditions(headers: Headers, meta: ResourceMeta | undefined) {
  const ifMatch = headers.get('if-match')
  if (ifMatch !== null) {
    // RFC 9110 §13.1.1: If-Match uses the strong comparison; tags are compared as sent, so a weak W/ tag never matches.
    const tags = parseTags(ifMatch)
    const ok = meta !== undefined && (tags.includes('*') || tags.some(t => sameState(t, meta)))
    if (!ok) throw new HttpError(412, 'precondition_failed', meta
      ? 'If-Match does not match the current ETag: the resource changed since you read it; fetch it again'
      : 'If-Match was sent but the resource does not exist')
  }
  const ifNoneMatch = headers.get('if-none-match')
  if (ifNoneMatch !== null && meta !== undefined) {
    const tags = weakly(parseTags(ifNoneMatch))
    if (tags.includes('*')) throw new HttpError(412, 'precondition_failed', 'If-None-Match: * was sent and the resource already exists')
    if (tags.some(t => sameState(t, meta))) throw new HttpError(412, 'precondition_failed', 'If-None-Match matches the current ETag')
  }
}

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
