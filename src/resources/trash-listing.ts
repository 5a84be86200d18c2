// What the trash holds (store/trash.ts: what the owner's Delete put aside), for whoever controls the pod, and the
// trash's limits the pages name; deleting from it for good, one item or all of it, for the same.

import { deleteTrashed, readTrash, trashedBytes, type TrashItem } from '../store/trash.ts'
import { wholeTreeLocks } from '../store/resource-locks.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'

export { TRASH_KEEP_MS, TRASH_MAX_ITEMS } from '../store/trash.ts'
export type { TrashItem } from '../store/trash.ts'

/** An item of the trash with the bytes it holds: what deleting it for good frees. */
export interface TrashedItem extends TrashItem {
  readonly bytes: number
}

/**
 * Control of the pod's root: the trash holds what was deleted from anywhere in the pod, ACL documents too, and
 * whoever controls the root could give themselves every other mode anyway. The owner keeps that Control whatever
 * the ACLs say (acl-writes.ts), so the owner always sees the trash.
 */
export const controlOfRoot = (deps: ResourcesDeps, who: Acting) => decide(deps, who, '/', [{ url: `${deps.cfg.baseUrl}/`, modes: ['control'] }])

export function makeTrashListing(deps: ResourcesDeps) {
  return async function trashed(who: Acting): Promise<TrashedItem[]> {
    await controlOfRoot(deps, who)
    return Promise.all((await readTrash(deps.store)).map(async item => ({ ...item, bytes: await trashedBytes(deps.store, item.id) })))
  }
}

/**
 * "Delete for good" and "Empty trash", decided as the listing is. Under the whole tree's lock, as a restore: an item
 * is never restored and dropped at once (its blobs released under a restored file).
 */
export function makeTrashDeletes(deps: ResourcesDeps) {
  return {
    /** Deletes one item of the trash for good; 404 for an id the trash does not hold. Answers it and the bytes freed. */
    deleteTrashed: (who: Acting, id: string) =>
      deps.withResourceLocks(wholeTreeLocks, async () => {
        await controlOfRoot(deps, who)
        return deleteTrashed(deps.store, id)
      }),
    /**
     * Empties the trash of what was deleted at or before `upTo` (epoch ms: the newest item the owner was shown,
     * so what is deleted meanwhile stays). Answers how many items went and the bytes freed.
     */
    emptyTrash: (who: Acting, upTo: number) =>
      deps.withResourceLocks(wholeTreeLocks, async () => {
        await controlOfRoot(deps, who)
        let items = 0
        let bytes = 0
        for (const item of await readTrash(deps.store)) {
          if (item.deletedAt > upTo) continue
          bytes += (await deleteTrashed(deps.store, item.id)).bytes
          items++
        }
        return { items, bytes }
      }),
  }
}
