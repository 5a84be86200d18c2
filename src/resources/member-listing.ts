// A page of a container's members for a reader, with how many it holds: what the owner's Files page shows. The
// resource server's own listing (read-container.ts) reads the same membership index, a chunk or a page at a time.

import { countMembers, readMemberPage, type MemberPage, type PageCursor } from '../store/container-members.ts'
import type { Acting, ResourcesDeps } from './acting.ts'
import type { Readable } from './read-resource.ts'
import { requireContainerPath } from './resource-names.ts'

export type { PageCursor } from '../store/container-members.ts'

export interface ListingRequest {
  /** Where the page starts: either end, or just past a member path (which need not exist any more). */
  readonly cursor: PageCursor
  /** Members on the page, at most. */
  readonly limit: number
  /** Members are counted up to this many and no further: a count is a key scan, a page costs only its own size. */
  readonly countUpTo: number
}

export interface MemberListing extends MemberPage {
  /** Members in all, exact up to `countUpTo`; `countIsExact` false means there are more. */
  readonly count: number
  readonly countIsExact: boolean
}

type Read = (who: Acting, path: string) => Promise<Readable>

/**
 * Read on the container first, as a GET of it needs (a 404 only to a reader, read-resource.ts); then the page
 * and the count, each from one database snapshot. The members' metadata comes with their keys (one `getMany`
 * a page): nothing is asked per member.
 */
export function makeListMembers(deps: Pick<ResourcesDeps, 'store'>, read: Read) {
  return async function list(who: Acting, path: string, page: ListingRequest): Promise<MemberListing> {
    requireContainerPath(path)
    await read(who, path)
    const [members, counted] = await Promise.all([readMemberPage(deps.store, path, page.cursor, page.limit), countMembers(deps.store, path, page.countUpTo)])
    return { ...members, count: counted.count, countIsExact: counted.exact }
  }
}
