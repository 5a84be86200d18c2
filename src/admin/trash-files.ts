// The dashboard's Delete into the trash, the trash's listing and Restore, for the owner.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { TRASH_KEEP_MS, type TrashItem } from '../resources/trash-listing.ts'
import { isContainerPath } from '../store/paths.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'

type TrashDeps = Pick<Deps, 'cfg' | 'resources'>

/** An item as the dashboard lists it: when it leaves the trash for good. */
export interface TrashView extends TrashItem {
  readonly purgeAt: number
  /** What deleting it for good frees (the listing says; a new item's answer does not). */
  readonly bytes?: number
}

const view = (item: TrashItem & { bytes?: number }): TrashView => ({ ...item, purgeAt: item.deletedAt + TRASH_KEEP_MS })

/**
 * `POST /.admin/api/trash` `{path, count}`: `count` (a folder's, from `tree/count`) is what the owner was
 * told would go; a document needs none.
 */
export async function moveToTrash(deps: TrashDeps, body: unknown): Promise<TrashView> {
  const b = body as { path?: unknown; count?: unknown } | null
  if (typeof b !== 'object' || b === null || typeof b.path !== 'string')
    throw new HttpError(400, 'invalid_request', 'expected a JSON body {"path": "/a/b.ttl"} (a folder with "count")')
  const path = podPath(b.path)
  if (isContainerPath(path) && (typeof b.count !== 'number' || !Number.isInteger(b.count) || b.count < 0)) {
    throw new HttpError(400, 'invalid_request', 'a folder needs "count": the number of items the owner confirmed (GET …/tree/count)')
  }
  const { item } = await deps.resources.trash(ownerActing(deps.cfg.baseUrl), path, typeof b.count === 'number' ? b.count : undefined)
  return view(item)
}

/** What the trash holds as the owner sees it (resources.trashed), the most recently deleted first. */
export const listTrash = async (deps: TrashDeps): Promise<TrashView[]> => (await deps.resources.trashed(ownerActing(deps.cfg.baseUrl))).map(view)

/** Restores one item where it was, as the signed-in owner (resources/: a restore holds the whole tree, it may recreate any number of names). */
export async function restoreTrashed(deps: TrashDeps, id: string): Promise<{ path: string }> {
  const { item } = await deps.resources.restore(ownerActing(deps.cfg.baseUrl), id)
  return { path: item.path }
}

/** Deletes one item of the trash for good, as the signed-in owner; answers its path and the bytes freed. */
export async function deleteTrashedForGood(deps: TrashDeps, id: string): Promise<{ path: string; bytes: number }> {
  const { item, bytes } = await deps.resources.deleteTrashed(ownerActing(deps.cfg.baseUrl), id)
  return { path: item.path, bytes }
}

/** Empties the trash of what was deleted at or before `upTo` (the newest item the owner was shown). */
export const emptyTrash = (deps: TrashDeps, upTo: number) => deps.resources.emptyTrash(ownerActing(deps.cfg.baseUrl), upTo)
