// GET /.admin/api/browse: a container's members one page at a time, with what the dashboard shows.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { readChildrenPage } from '../store/children-page.ts'
import { getMeta } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { isAcl } from '../store/acl-names.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>

export const PAGE_SIZE = 100
const MAX_PAGE_SIZE = 500

/** A stored path from the query: absolute, no dot segments, no empty segments but the last. */
export function podPath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.split('/').slice(1, -1).some((s) => s === '' || s === '.' || s === '..')) {
    throw new HttpError(400, 'invalid_path', 'path must be a pod path starting with "/", like /notes/ or /notes/todo.ttl')
  }
  return raw
}

function count(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > max) throw new HttpError(400, 'invalid_query', `${name} must be a whole number from 0 to ${max}`)
  return n
}

export async function browseContainer(deps: AdminDeps, query: Record<string, unknown>) {
  const path = podPath(query.path ?? '/')
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a container: container paths end with "/"`)
  const meta = await getMeta(deps.store, path)
  if (!meta) throw new HttpError(404, 'not_found', `there is no container ${path}`)
  const offset = count(query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER)
  const limit = count(query.limit, 'limit', PAGE_SIZE, MAX_PAGE_SIZE) || PAGE_SIZE
  const { items, total } = await readChildrenPage(deps.store, path, offset, limit)
  return {
    path, url: deps.cfg.baseUrl + path, total, offset, limit,
    hasAcl: (await getMeta(deps.store, `${path}.acl`)) !== undefined,
    items: items.filter((c) => !isAcl(c.path)).map(({ path: p, meta: m }) => ({
      path: p, url: deps.cfg.baseUrl + p, kind: m.kind, contentType: m.contentType, size: m.size, modified: new Date(m.modified).toISOString(),
    })),
  }
}
