// What the trash holds (store/trash.ts: what the owner's Delete put aside), for whoever controls the pod, and the
// trash's limits the pages name.

import { readTrash, type TrashItem } from '../store/trash.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'

export { TRASH_KEEP_MS, TRASH_MAX_ITEMS } from '../store/trash.ts'
export type { TrashItem } from '../store/trash.ts'

/**
 * Control of the pod's root: the trash holds what was deleted from anywhere in the pod, ACL documents too, and
 * whoever controls the root could give themselves every other mode anyway. The owner keeps that Control whatever
 * the ACLs say (acl-writes.ts), so the owner always sees the trash.
 */
export function makeTrashListing(deps: ResourcesDeps) {
  return async function trashed(who: Acting): Promise<TrashItem[]> {
    await decide(deps, who, '/', [{ url: `${deps.cfg.baseUrl}/`, modes: ['control'] }])
    return readTrash(deps.store)
  }
}
