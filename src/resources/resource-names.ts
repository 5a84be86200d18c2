// Name rules of the pod: no `/a` beside `/a/`, minted names for POST, reserved and ACL paths.

import { HttpError } from '../http/errors.ts'
import type { Store } from '../store/open-store.ts'
import { getMeta } from '../store/resources.ts'
import { ancestorPaths, isContainerPath, twinPath } from '../store/paths.ts'
import { ACL_SUFFIX, isAclOfAcl } from '../store/acl-names.ts'
import { encodeSegment } from '../store/target.ts'
import { isReservedPath } from '../http/pod-paths.ts'

/** 405 for a write to a path the pod's own endpoints own (the pod's URL space (http/pod-paths.ts)). */
export const reservedPathError = (path: string) =>
  new HttpError(405, 'reserved_path', `${path.split('/', 2).join('/')} is reserved for the pod's own endpoints and cannot be written`, {
    headers: { allow: 'GET, HEAD, OPTIONS' },
  })

/**
 * Names no resource may have, whoever asks (so checked before authorization: nothing about the
 * store is revealed): reserved endpoints, an ACL of an ACL, and a container named like an ACL,
 * which would take the name of the ACL document of its twin (`/a.acl/` blocks `/a.acl`).
 */
export function checkWritablePath(path: string) {
  if (isReservedPath(path)) throw reservedPathError(path)
  if (isAclOfAcl(path)) throw new HttpError(400, 'invalid_path', 'an ACL resource cannot have an ACL of its own')
  const containers = path.split('/').slice(1, -1)
  if (containers.some(name => name.endsWith(ACL_SUFFIX))) {
    throw new HttpError(400, 'invalid_path', `a container name may not end in ${ACL_SUFFIX}: that name belongs to an ACL document`)
  }
}

/** The ancestors a create would make, for authorization (a clash is only reported after access was granted). */
export async function missingAncestors(store: Store, path: string): Promise<string[]> {
  const missing: string[] = []
  for (const ancestor of ancestorPaths(path)) if (!(await getMeta(store, ancestor))) missing.push(ancestor)
  return missing
}

/** Refuses a create or replace whose name clashes (409); returns the containers it would create. */
export async function checkNamesFree(store: Store, path: string): Promise<string[]> {
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

/**
 * Turns a Slug hint into one safe path segment, percent-encoded the way resolveTarget stores
 * paths (so the minted name is the one a GET of its Location finds); unsafe or empty hints get
 * a random name.
 */
export function nameFromSlug(slug: string | null): string {
  let name = ''
  try {
    name = decodeURIComponent(slug ?? '')
  } catch {
    name = slug ?? ''
  }
  name = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._~-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
  if (!name || /^\.+$/.test(name) || name.endsWith(ACL_SUFFIX)) return crypto.randomUUID()
  return encodeSegment(name)
}

/** 400 for an operation on a container's members (a listing, a tree's count) named at a path that is not a container's. */
export function requireContainerPath(path: string): void {
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a container: container paths end with "/"`)
}
