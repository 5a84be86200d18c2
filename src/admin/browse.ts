// GET /.admin/api/browse: a container's members one page at a time (a cursor, not an offset), with what the dashboard shows.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { PageCursor } from '../resources/member-listing.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPathOf } from '../store/target.ts'
import { aclOf, isAcl } from '../store/acl-names.ts'
import { ownerActing } from './owner-acting.ts'
import { metaAsOwner } from './owner-read.ts'
import { BY_NAME, SORT_UP_TO, sortMembers, sortOfQuery, type FilesSort } from './files-sort.ts'
import type { Acting } from '../resources/acting.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'resources'>

export const PAGE_SIZE = 100
const MAX_PAGE_SIZE = 500
/**
 * Members are counted up to this many and no further: a count is a key scan, and past this the dashboard
 * says "more than". Pages themselves cost their own size whatever the container holds.
 */
export const COUNT_UP_TO = 10_000

/** A stored path from the query (store/target.ts). */
export const podPath = podPathOf

function count(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > max) throw new HttpError(400, 'invalid_query', `${name} must be a whole number from 0 to ${max}`)
  return n
}

/** `after` or `before`: a member of `container` the previous page ended or began with (it may be gone since). */
function cursorOf(query: Record<string, unknown>, container: string): PageCursor {
  if (query.after !== undefined && query.before !== undefined) throw new HttpError(400, 'invalid_query', 'give after or before, not both')
  const [name, raw] = query.after !== undefined ? ['after', query.after] : ['before', query.before]
  if (raw === undefined || raw === '') return { from: 'first' }
  const path = typeof raw === 'string' && raw.startsWith('/') ? raw : ''
  if (parentPath(path) !== container) throw new HttpError(400, 'invalid_query', `${name} must be the path of a member of ${container}, as next or prev gave it`)
  return name === 'after' ? { after: path } : { before: path }
}

/**
 * A page of the container as the owner reads it (resources.list: Read on it first). The query is checked before
 * the container is read: a malformed query is refused whatever the pod holds.
 */
export async function browseContainer(deps: AdminDeps, query: Record<string, unknown>, remembered: FilesSort = BY_NAME) {
  const path = podPath(query.path ?? '/')
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a container: container paths end with "/"`)
  const cursor = cursorOf(query, path)
  const limit = count(query.limit, 'limit', PAGE_SIZE, MAX_PAGE_SIZE) || PAGE_SIZE
  const asked = sortOfQuery(query) ?? remembered
  const page = await sortedPage(deps, ownerActing(deps.cfg.baseUrl), path, cursor, limit, asked)
  const first = page.items[0]
  const last = page.items[page.items.length - 1]
  return {
    path,
    url: deps.cfg.baseUrl + path,
    limit,
    /** The order asked for, and the order given: by name when the folder is too large to sort otherwise (SORT_UP_TO). */
    sort: { key: page.sort.key, order: page.sort.desc ? 'desc' : 'asc' },
    sortRefused: page.sort !== asked,
    /** Members in all, exact up to COUNT_UP_TO; `countIsExact` false means there are more. */
    count: page.count,
    countIsExact: page.countIsExact,
    /** Cursors for the neighbouring pages in the order shown (`after=next`, `before=prev`), null at either end. */
    next: page.hasNext && last ? last.path : null,
    prev: page.hasPrev && first ? first.path : null,
    /** The container has an ACL document of its own (reading it needs Control, which the owner has unless an ACL took it). */
    hasAcl: (await metaAsOwner(deps, aclOf(path)).catch(refusedAsNone)) !== undefined,
    items: page.items
      .filter(c => !isAcl(c.path))
      .map(({ path: p, meta: m }) => ({
        path: p,
        url: deps.cfg.baseUrl + p,
        kind: m.kind,
        contentType: m.contentType,
        size: m.size,
        modified: new Date(m.modified).toISOString(),
      })),
  }
}

type Listed = Awaited<ReturnType<AdminDeps['resources']['list']>>

/**
 * One page in the order asked. By name: the index's own order, a page at a time (backwards for Z to A, the cursors
 * swapped). Otherwise the folder is read whole and sorted, when it holds at most SORT_UP_TO members; a cursor is
 * the member the page before ended with, found again in the sorted folder (one gone since: the first page).
 */
async function sortedPage(deps: AdminDeps, who: Acting, path: string, cursor: PageCursor, limit: number, sort: FilesSort) {
  const list = (c: PageCursor, n: number) => deps.resources.list(who, path, { cursor: c, limit: n, countUpTo: COUNT_UP_TO })
  if (sort.key !== 'name') {
    const whole = await list({ from: 'first' }, SORT_UP_TO)
    if (!whole.hasNext) {
      const sorted = sortMembers(whole.items, sort)
      const at = (p: string) => sorted.findIndex(m => m.path === p)
      const found = 'after' in cursor ? at(cursor.after) : 'before' in cursor ? at(cursor.before) : -1
      const start = found < 0 ? 0 : 'after' in cursor ? found + 1 : Math.max(0, found - limit)
      const end = found >= 0 && 'before' in cursor ? found : start + limit
      return { ...whole, items: sorted.slice(start, end), hasPrev: start > 0, hasNext: end < sorted.length, sort }
    }
    return { ...(await byName(list, cursor, limit, false)), sort: BY_NAME }
  }
  return { ...(await byName(list, cursor, limit, sort.desc)), sort }
}

async function byName(list: (c: PageCursor, n: number) => Promise<Listed>, cursor: PageCursor, limit: number, desc: boolean): Promise<Listed> {
  if (!desc) return list(cursor, limit)
  const page = await list('after' in cursor ? { before: cursor.after } : 'before' in cursor ? { after: cursor.before } : { from: 'last' }, limit)
  return { ...page, items: page.items.slice().reverse(), hasPrev: page.hasNext, hasNext: page.hasPrev }
}

/** An ACL the owner may not read is one the listing cannot tell of: the listing itself is not refused for it. */
const refusedAsNone = (err: unknown): undefined => {
  if (err instanceof HttpError && (err.status === 401 || err.status === 403)) return undefined
  throw err
}
