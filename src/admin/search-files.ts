// Search by name across the pod, for the owner: the Files page's search box leads here, and its script asks the API.
// The name index (store/name-index.ts) answers through the operations layer; paths are shown as people read them.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { localTime } from '../http/local-time.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { parentPath } from '../store/paths.ts'
import { ownerActing } from './owner-acting.ts'
import { renderOwnerPage } from './owner-page.ts'
import { filesPage } from './files-page.ts'
import { searchForm } from './search-form.ts'
import { countOf } from '../lib/count-words.ts'
import { SEPARATOR } from '../lib/separator.ts'

type SearchDeps = Pick<Deps, 'cfg' | 'resources'>

/** Results a page shows, and the most the API gives at once. */
export const SEARCH_RESULTS = 50
const MAX_SEARCH_RESULTS = 200

const queryOf = (raw: unknown): string => (typeof raw === 'string' ? raw : '')

function limitOf(raw: unknown): number {
  if (raw === undefined || raw === '') return SEARCH_RESULTS
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > MAX_SEARCH_RESULTS)
    throw new HttpError(400, 'invalid_query', `limit must be a whole number from 1 to ${MAX_SEARCH_RESULTS}`)
  return n
}

/** Where a result leads: a folder's Files page, a document's or file's own page. */
export const openHref = (path: string, kind: string) => (kind === 'container' ? filesPage(path) : `${ADMIN_PATHS.view}?path=${encodeURIComponent(path)}`)

/** GET /.admin/api/search?q=&limit=: what the page shows, as JSON (the paths as stored and as read). */
export async function searchFiles(deps: SearchDeps, query: Record<string, unknown>) {
  const q = queryOf(query.q)
  const limit = limitOf(query.limit)
  const found = await deps.resources.findByName(ownerActing(deps.cfg.baseUrl), q, limit)
  return {
    query: q,
    more: found.more,
    items: found.items.map(({ path, meta }) => ({
      path,
      name: readableName(path),
      readablePath: readablePath(path),
      url: deps.cfg.baseUrl + path,
      href: openHref(path, meta.kind),
      kind: meta.kind,
      contentType: meta.contentType,
      size: meta.size,
      modified: new Date(meta.modified).toISOString(),
    })),
  }
}

/** GET /.admin/files/search?q=: the results as a page, each with the folder it is in. An empty box shows the box alone. */
export async function showSearchPage(deps: SearchDeps & Parameters<typeof renderOwnerPage>[0], cookieHeader: string | null, query: Record<string, unknown>) {
  const q = queryOf(query.q)
  const found = q.trim() === '' ? undefined : await searchFiles(deps, { q })
  const rows = (found?.items ?? []).map(it => {
    const folder = parentPath(it.path) ?? '/'
    return html`<li><a href="${it.href}">${it.name}${it.kind === 'container' ? '/' : ''}</a> <span class="muted">in <a href="${filesPage(folder)}">${readablePath(folder)}</a>${it.kind === 'container' ? '' : html`${SEPARATOR}${formatBytes(it.size)}`}${SEPARATOR}${localTime(Date.parse(it.modified))}</span></li>`
  })
  const summary =
    found === undefined
      ? ''
      : found.items.length === 0
        ? html`<p class="muted">Nothing is named like “${q}”.</p>`
        : html`<p class="muted">${found.more ? 'The first ' : ''}${countOf(found.items.length, 'result')}${found.more ? ': add a word to narrow the search' : ''}</p>`
  return renderOwnerPage(deps, cookieHeader, {
    heading: found ? `Search: ${q}` : 'Search',
    section: ADMIN_PATHS.files,
    body: () => html`${searchForm(q)}${summary}${rows.length ? html`<ul class="search-results">${rows}</ul>` : ''}`,
  })
}
