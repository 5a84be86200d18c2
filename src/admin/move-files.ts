// Rename and move for the owner (the dashboard's Rename and Move to… pages and the owner API): one atomic move.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'

type MoveDeps = Pick<Deps, 'cfg' | 'resources'>

/**
 * A path as stored (percent-encoded, as the listing gives it) or as typed: `#` and `?` are part of a name
 * here, never a fragment or a query, so they are encoded before the path is made canonical.
 */
export const typedPath = (raw: unknown): string => podPath(typeof raw === 'string' ? raw.replace(/[#?]/g, c => encodeURIComponent(c)) : raw)

/** Moves `from` to `to` (both pod paths) as the signed-in owner, through the operations layer; the answer is the new path. */
export async function moveFiles(deps: MoveDeps, fromRaw: unknown, toRaw: unknown): Promise<{ path: string }> {
  const from = typedPath(fromRaw)
  const to = typedPath(toRaw)
  await deps.resources.move(ownerActing(deps.cfg.baseUrl), from, to)
  return { path: to }
}

/** The JSON body of `POST /.admin/api/move`: `{ "from": "/a/b.ttl", "to": "/c/b.ttl" }`. */
export function moveBody(body: unknown): { from: unknown; to: unknown } {
  const b = body as { from?: unknown; to?: unknown } | null
  if (typeof b !== 'object' || b === null || typeof b.from !== 'string' || typeof b.to !== 'string') {
    throw new HttpError(400, 'invalid_request', 'expected a JSON body {"from": "/old/path", "to": "/new/path"}')
  }
  return { from: b.from, to: b.to }
}
