// Deleting a folder with everything in it, for the owner: the count the confirmation names, then the delete itself.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { isContainerPath } from '../store/paths.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'

type FolderDeps = Pick<Deps, 'cfg' | 'resources'>

function folderPath(raw: unknown): string {
  const path = podPath(raw)
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a folder: folder paths end with "/"`)
  return path
}

/** How many items (at any depth) deleting the folder would delete with it: the number the confirmation names (resources.treeCount, as the owner). */
export async function countFolder(deps: FolderDeps, raw: unknown): Promise<{ path: string; count: number }> {
  const path = folderPath(raw)
  return { path, count: await deps.resources.treeCount(ownerActing(deps.cfg.baseUrl), path) }
}

/**
 * Deletes the folder and everything in it, as the signed-in owner (resources/). `count` is the number the owner confirmed: if the folder holds
 * another number now (something was added meanwhile), nothing is deleted and the owner is asked again.
 */
export async function deleteFolder(deps: FolderDeps, raw: unknown, countRaw: unknown): Promise<{ deleted: number }> {
  const path = folderPath(raw)
  const expectedCount = Number(countRaw)
  if (typeof countRaw !== 'string' || countRaw === '' || !Number.isInteger(expectedCount) || expectedCount < 0) {
    throw new HttpError(400, 'invalid_query', 'count must be the number of items the owner confirmed (GET …/tree/count)')
  }
  await deps.resources.deleteTree(ownerActing(deps.cfg.baseUrl), path, expectedCount)
  return { deleted: expectedCount }
}
