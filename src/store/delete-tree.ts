// Deleting a folder with everything in it: deepest first, in bounded synced batches, each leaving a whole pod.

import { HttpError } from '../http/errors.ts'
import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { ResourceChange } from './change-feed.ts'
import { ancestorPaths, parentPath } from './paths.ts'
import { isAcl } from './acl-names.ts'
import { graphChangeOps } from './quad-ops.ts'
import { withListingChanged } from './resource-meta.ts'
import { readTree, type TreeEntry } from './resource-tree.ts'
import { change, del, getMeta, memberKey, putMeta, readKeys, touchContainers, type Batch } from './resources.ts'
import { blobIds, commitChanges, type MetaWrites } from './commit-changes.ts'
import { versionOps, type ChangeAuthor } from './versions.ts'

/**
 * Resources per batch. A folder may hold hundreds of thousands of items: one batch would hold all their
 * keys in memory at once and keep every other write waiting behind one huge sync. Deleting children before
 * their folder makes each batch's end a state the pod could have reached by single DELETEs (a folder that
 * lost some members), so a crash between batches leaves no orphan, only a smaller folder.
 */
export const DELETE_BATCH = 500

export interface DeleteTreeOptions extends DeleteChecks {
  /** Resources per batch (DELETE_BATCH). */
  readonly batchSize?: number
}

/** Members below a folder, at any depth (ACL documents not counted: they go with their resource). */
export const countOfTree = (tree: readonly TreeEntry[]) => tree.filter(e => e.listedIn !== undefined).length

export interface DeleteChecks {
  /** Who deletes, recorded with the versions the delete keeps. */
  readonly by?: ChangeAuthor
  /** Why a path may never be deleted (the owner's WebID document, /keys/), or undefined when it may. */
  readonly protectedReason?: (path: string) => string | undefined
  /** The number of members the owner was told would be deleted; a different count refuses (409). */
  readonly expectedCount?: number
}

/** What deleting `path` takes — it, everything below it, their ACLs — once the delete's checks passed (a refusal changes nothing). */
export async function readTreeToDelete(store: Store, path: string, opts: DeleteChecks): Promise<{ meta: ResourceMeta; tree: TreeEntry[]; count: number }> {
  if (path === '/') throw new HttpError(405, 'root_protected', 'the root of the pod cannot be deleted')
  // An ACL alone is access, not content: its removal has its own checks (the RS's DELETE, the share page).
  if (isAcl(path)) throw new HttpError(400, 'invalid_path', 'an ACL goes with its resource; change access on its share page')
  const meta = await getMeta(store, path)
  if (!meta) throw new HttpError(404, 'not_found', `there is nothing at ${path}`)
  const tree = await readTree(store, path, meta)
  for (const e of tree) {
    const reason = opts.protectedReason?.(e.path)
    if (reason !== undefined) throw new HttpError(409, 'protected_resource', reason)
  }
  const count = countOfTree(tree)
  if (opts.expectedCount !== undefined && opts.expectedCount !== count) {
    throw new HttpError(409, 'confirmation_required', `${path} holds ${count} items now, not ${opts.expectedCount}: confirm again`)
  }
  return { meta, tree, count }
}

/** Everything below `path` (a folder) and the folder itself, with their ACLs; the caller holds its delete locks. Answers the paths deleted. */
export async function deleteTree(store: Store, baseUrl: string, path: string, now: number, opts: DeleteTreeOptions = {}): Promise<string[]> {
  const { tree } = await readTreeToDelete(store, path, opts)
  // Reversed pre-order: every item comes after everything below it.
  const order = tree.slice().reverse()
  const size = opts.batchSize ?? DELETE_BATCH
  for (let i = 0; i < order.length; i += size) {
    await deleteBatch(store, baseUrl, order.slice(i, i + size), path, now, opts.by)
  }
  return order.map(e => e.path)
}

async function deleteBatch(
  store: Store,
  baseUrl: string,
  entries: readonly TreeEntry[],
  top: string,
  now: number,
  by: ChangeAuthor | undefined,
): Promise<void> {
  const writes: MetaWrites = new Map()
  const batch: Batch = []
  const gone = new Set(entries.map(e => e.path))
  const changes: ResourceChange[] = []
  const losing = new Set<string>()
  for (const e of entries) {
    const keys = await readKeys(store, baseUrl, e.path)
    batch.push(...graphChangeOps(store.quads, keys, []), ...versionOps(store, baseUrl, e.path, e.meta, keys, 'delete', now, by))
    putMeta(batch, store, writes, e.path, null)
    if (e.meta.blob !== undefined) batch.push(del(store.blobRefs, e.meta.blob))
    changes.push(change(e.path, 'Delete', e.path, writes, now))
    const listedIn = e.path === top ? parentPath(top) : e.listedIn
    if (listedIn !== undefined) {
      batch.push(del(store.contains, memberKey(listedIn, e.path)))
      if (!gone.has(listedIn)) losing.add(listedIn)
    }
  }
  // A folder that stays (until a later batch, or the top's own folder) lost members: its listing, ETag
  // and Last-Modified change as for a DELETE (RFC 9110 §8.8.3, Solid Protocol §5.1).
  for (const folder of losing) {
    if (folder === parentPath(top)) {
      const known = new Map<string, ResourceMeta>()
      for (const a of ancestorPaths(top).slice(-2)) {
        const m = await getMeta(store, a)
        if (m) known.set(a, m)
      }
      touchContainers(batch, store, writes, top, true, known, now)
    } else {
      const m = await getMeta(store, folder)
      if (m) putMeta(batch, store, writes, folder, withListingChanged(m, now))
    }
  }
  for (const e of entries) {
    const listedIn = e.path === top ? parentPath(top) : e.listedIn
    if (listedIn !== undefined) changes.push(change(listedIn, 'Remove', e.path, writes, now))
  }
  await commitChanges(store, { batch, writes, changes }, { released: blobIds(entries.map(e => e.meta)) })
}
