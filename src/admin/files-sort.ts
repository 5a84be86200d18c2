// The Files page's order: by name, date, size or type, either way, remembered in a cookie. Name order is the
// membership index's own (pages cost their size, whatever the folder holds); the others sort the folder in memory,
// so they are offered for folders of up to SORT_UP_TO items, and a larger folder is shown by name, saying so.

import { HttpError } from '../http/errors.ts'
import { cookieName, parseCookies, serializeCookie } from '../http/cookies.ts'
import type { Member } from '../store/container-members.ts'

export const SORT_KEYS = ['name', 'modified', 'size', 'type'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export interface FilesSort {
  readonly key: SortKey
  readonly desc: boolean
}
export const BY_NAME: FilesSort = { key: 'name', desc: false }

/** Folders sorted other than by name are read whole: at most this many members (the count the page gives exactly). */
export const SORT_UP_TO = 10_000
const COOKIE = 'files-sort'
const YEAR_S = 365 * 24 * 3600

const isKey = (v: unknown): v is SortKey => typeof v === 'string' && (SORT_KEYS as readonly string[]).includes(v)

/** `sort` and `order` of a query; neither: undefined (the remembered choice applies). A wrong value is 400 `invalid_query`. */
export function sortOfQuery(query: Record<string, unknown>): FilesSort | undefined {
  const { sort, order } = query
  if ((sort === undefined || sort === '') && (order === undefined || order === '')) return undefined
  if (sort !== undefined && sort !== '' && !isKey(sort)) throw new HttpError(400, 'invalid_query', `sort must be one of ${SORT_KEYS.join(', ')}`)
  if (order !== undefined && order !== '' && order !== 'asc' && order !== 'desc') throw new HttpError(400, 'invalid_query', 'order must be asc or desc')
  return { key: isKey(sort) ? sort : 'name', desc: order === 'desc' }
}

const secureOf = (baseUrl: string) => baseUrl.startsWith('https:')

/** The order the owner chose last (the cookie), or by name. A cookie the pod did not write counts as none. */
export function rememberedSort(baseUrl: string, cookieHeader: string | null): FilesSort {
  const raw = parseCookies(cookieHeader).get(cookieName(COOKIE, secureOf(baseUrl)))
  const [key, order] = (raw ?? '').split('.')
  return isKey(key) && (order === 'asc' || order === 'desc') ? { key, desc: order === 'desc' } : BY_NAME
}

/** The Set-Cookie that remembers `sort` for a year: an HttpOnly cookie, as every cookie of the pod. */
export const rememberSort = (baseUrl: string, sort: FilesSort) =>
  serializeCookie(cookieName(COOKIE, secureOf(baseUrl)), `${sort.key}.${sort.desc ? 'desc' : 'asc'}`, {
    maxAge: YEAR_S,
    sameSite: 'Lax',
    secure: secureOf(baseUrl),
  })

export const sortQuery = (sort: FilesSort) => `sort=${sort.key}&order=${sort.desc ? 'desc' : 'asc'}`

const names = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
/** A folder's type sorts as "folder", before every content type. */
const typeOf = (m: Member) => (m.meta.kind === 'container' ? '' : m.meta.contentType)
const COMPARE: Record<Exclude<SortKey, 'name'>, (a: Member, b: Member) => number> = {
  modified: (a, b) => a.meta.modified - b.meta.modified,
  size: (a, b) => (a.meta.kind === 'container' ? -1 : a.meta.size) - (b.meta.kind === 'container' ? -1 : b.meta.size),
  type: (a, b) => names.compare(typeOf(a), typeOf(b)),
}

/** Members in the order `sort` names (ties by path, so the order is total and a cursor path finds its place again). */
export function sortMembers(members: readonly Member[], sort: FilesSort): Member[] {
  const by = sort.key === 'name' ? () => 0 : COMPARE[sort.key]
  const byPath = (a: Member, b: Member) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  const sorted = members.slice().sort((a, b) => by(a, b) || byPath(a, b))
  return sort.desc ? sorted.reverse() : sorted
}
