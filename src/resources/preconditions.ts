// RFC 9110 §13 preconditions of a write (If-Match, If-None-Match), as the face read them from its request, with the
// WebDAV locks it submits (its If header, RFC 4918 §10.4): a write to a locked resource without its token is refused
// 423 whichever face makes it, once access is decided (lock-table.ts `admit`).

import { HttpError } from '../http/errors.ts'
import type { SubmittedLocks } from './lock-table.ts'
import { namesState, type ResourceMeta } from '../store/resource-meta.ts'

/** The conditional-request facts of a write; null where the request sent none. */
export interface Preconditions extends SubmittedLocks {
  readonly ifMatch: string | null
  readonly ifNoneMatch: string | null
}

export const NO_PRECONDITIONS: Preconditions = { ifMatch: null, ifNoneMatch: null }

export const parseTags = (header: string): string[] =>
  header
    .split(',')
    .map(t => t.trim())
    .filter(Boolean)

/** RFC 9110 §8.8.3.2 weak comparison: the W/ prefix is ignored. */
export const weakly = (tags: string[]) => tags.map(t => t.replace(/^W\//, ''))

/** A write's If-Match names the state, whichever representation the client saw. */
const sameState = namesState

/** If-Match / If-None-Match on PUT, POST, PATCH, DELETE: 412 when they fail. */
export function checkPreconditions(p: Preconditions, meta: ResourceMeta | undefined) {
  if (p.ifMatch !== null) {
    // RFC 9110 §13.1.1: If-Match uses the strong comparison; tags are compared as sent, so a weak W/ tag never matches.
    const tags = parseTags(p.ifMatch)
    const ok = meta !== undefined && (tags.includes('*') || tags.some(t => sameState(t, meta)))
    if (!ok)
      throw new HttpError(
        412,
        'precondition_failed',
        meta
          ? 'If-Match does not match the current ETag: the resource changed since you read it; fetch it again'
          : 'If-Match was sent but the resource does not exist',
      )
  }
  if (p.ifNoneMatch !== null && meta !== undefined) {
    const tags = weakly(parseTags(p.ifNoneMatch))
    if (tags.includes('*')) throw new HttpError(412, 'precondition_failed', 'If-None-Match: * was sent and the resource already exists')
    if (tags.some(t => sameState(t, meta))) throw new HttpError(412, 'precondition_failed', 'If-None-Match matches the current ETag')
  }
}
