// Pages of a container listing: the `page` and `limit` query parameters, their opaque tokens and Link relations.

import { HttpError } from '../http/errors.ts'
import type { MemberPage, PageCursor } from '../store/container-members.ts'

/**
 * W3C LWS Protocol (Editor's Draft), "Pagination": pages are reached through Link relations first, last,
 * next and prev (RFC 8288) whose URIs are opaque to the client. A plain GET of a container still answers
 * every member (Solid apps expect it); `?page=first` (or `?limit=N` alone) asks for the first page.
 * A token is `first`, `last`, or `after.`/`before.` and a member's name in base64url: a cursor, never
 * an offset, so a page does not shift when members are added or removed before it.
 */
export interface PageRequest {
  readonly cursor: PageCursor
  /** Members per page (the client's hint, or the default). */
  readonly limit: number
  /** Whether the client named the limit, so the links carry it on. */
  readonly limitGiven: boolean
}

export const DEFAULT_PAGE_LIMIT = 1000
export const MAX_PAGE_LIMIT = 10_000

const badPage = (why: string) =>
  new HttpError(
    400,
    'invalid_page',
    `${why}: use the page links the pod sends (Link rel="first", "next", "prev", "last"), or page=first with an optional limit from 1 to ${MAX_PAGE_LIMIT}`,
  )

/** A member's name as it is stored: one canonical path segment (store/target.ts), a container's with its slash. */
const MEMBER_NAME = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+\/?$/
const BASE64URL = /^[A-Za-z0-9_-]+$/

const encodeName = (name: string) => Buffer.from(name, 'utf8').toString('base64url')

function decodeName(token: string): string {
  if (!BASE64URL.test(token)) throw badPage('the page token is not one the pod made')
  const name = Buffer.from(token, 'base64url').toString('utf8')
  if (!MEMBER_NAME.test(name) || name.length > 2048) throw badPage('the page token is not one the pod made')
  return name
}

/** The page a request asks for, or undefined for the whole listing. Other query parameters are not ours. */
export function pageRequestOf(requestUrl: string, containerPath: string): PageRequest | undefined {
  const q = requestUrl.indexOf('?')
  if (q < 0) return undefined
  const params = new URLSearchParams(requestUrl.slice(q + 1).split('#', 1)[0])
  const pages = params.getAll('page')
  const limits = params.getAll('limit')
  if (pages.length === 0 && limits.length === 0) return undefined
  if (pages.length > 1 || limits.length > 1) throw badPage('page and limit may each be given once')
  let limit = DEFAULT_PAGE_LIMIT
  if (limits.length === 1) {
    const raw = limits[0]!
    limit = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN
    if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) throw badPage(`limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`)
  }
  return { cursor: cursorOf(pages[0] ?? 'first', containerPath), limit, limitGiven: limits.length === 1 }
}

function cursorOf(token: string, containerPath: string): PageCursor {
  if (token === 'first' || token === 'last') return { from: token }
  const dot = token.indexOf('.')
  const kind = token.slice(0, dot)
  if (dot < 0 || (kind !== 'after' && kind !== 'before')) throw badPage('page must be first, last or a token from a page link')
  const path = containerPath + decodeName(token.slice(dot + 1))
  return kind === 'after' ? { after: path } : { before: path }
}

function tokenOf(cursor: PageCursor, containerPath: string): string {
  if ('from' in cursor) return cursor.from
  return 'after' in cursor ? `after.${encodeName(cursor.after.slice(containerPath.length))}` : `before.${encodeName(cursor.before.slice(containerPath.length))}`
}

/**
 * A strong validator of its own per page (RFC 9110 §8.8.3): the container's, for this representation,
 * with the page's token and limit, so no page shares an ETag with the whole listing or with another page.
 */
export function pageEtag(listingEtag: string, req: PageRequest, containerPath: string): string {
  const page = Bun.hash(`${tokenOf(req.cursor, containerPath)}&${req.limit}`).toString(36)
  return `${listingEtag.slice(0, -1)}.p${page}"`
}

/**
 * RFC 8288 Link values for the page read: first and last always; next when members follow the last
 * item, prev when members precede the first. An empty page past either end points back at that end.
 */
export function pageLinks(url: string, containerPath: string, req: PageRequest, page: MemberPage): string[] {
  const href = (cursor: PageCursor) => `<${url}?page=${tokenOf(cursor, containerPath)}${req.limitGiven ? `&limit=${req.limit}` : ''}>`
  const first = page.items[0]
  const last = page.items[page.items.length - 1]
  const links = [`${href({ from: 'first' })}; rel="first"`, `${href({ from: 'last' })}; rel="last"`]
  if (page.hasNext) links.push(`${href(last ? { after: last.path } : { from: 'first' })}; rel="next"`)
  if (page.hasPrev) links.push(`${href(first ? { before: first.path } : { from: 'last' })}; rel="prev"`)
  return links
}
