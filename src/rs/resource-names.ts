// Name rules of the pod: no `/a` beside `/a/`, minted names for POST, reserved and ACL paths.

import { HttpError } from '../http/errors.ts'
import type { Store } from '../store/open-store.ts'
import { getMeta } from '../store/resources.ts'
import { ancestorPaths, governedPathOf, isAclPath, twinPath } from '../store/paths.ts'
import { isReservedPath } from './target.ts'

/** Refuses a create or replace whose name clashes; returns the containers it would create. */
export async function checkNamesFree(store: Store, path: string): Promise<string[]> {
  if (isReservedPath(path)) {
    throw new HttpError(405, 'reserved_path', `${path.split('/', 2).join('/')} is reserved for the pod's own endpoints and cannot be written`,
      { headers: { allow: 'GET, HEAD, OPTIONS' } })
  }
  if (isAclPath(path) && isAclPath(governedPathOf(path))) throw new HttpError(400, 'invalid_path', 'an ACL resource cannot have an ACL of its own')
  // Solid Protocol §3.1: /a and /a/ can never both exist.
  if (await getMeta(store, twinPath(path))) throw clash(path, twinPath(path))
  const missing: string[] = []
  for (const ancestor of ancestorPaths(path)) {
    if (await getMeta(store, ancestor)) continue
    if (await getMeta(store, twinPath(ancestor))) throw clash(ancestor, twinPath(ancestor))
    missing.push(ancestor)
  }
  return missing
}

const clash = (wanted: string, existing: string) =>
  new HttpError(409, 'name_conflict', `${wanted} cannot exist because ${existing} already does (a document and a container may not share a name)`)

/** Turns a Slug hint into one safe path segment; unsafe or empty hints get a random name. */
export function nameFromSlug(slug: string | null): string {
  let name = ''
  try { name = decodeURIComponent(slug ?? '') } catch { name = slug ?? '' }
  name = name.normalize('NFC').replace(/[^\p{L}\p{N}._~-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 120)
  if (!name || /^\.+$/.test(name) || name.endsWith('.acl')) return crypto.randomUUID()
  return name
}
