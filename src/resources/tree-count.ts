// How many items a folder holds at any depth: the number the owner confirms before a folder goes (trash,
// delete for good, resources.ts), told only to whoever may read every folder it counts.

import { countOfTree } from '../store/delete-tree.ts'
import { readTree } from '../store/resource-tree.ts'
import type { Acting, ResourcesDeps } from './acting.ts'
import type { Readable } from './read-resource.ts'
import { requireContainerPath } from './resource-names.ts'
import { readingNeeds, requireAll } from './tree-access.ts'

type Read = (who: Acting, path: string) => Promise<Readable>

/**
 * Read on the folder (a 404 only to a reader), then on every folder below it: the count says what listing each
 * of them would, so it needs what those listings need. ACL documents go with their resource and are not counted.
 */
export function makeTreeCount(deps: Pick<ResourcesDeps, 'store' | 'cfg' | 'access'>, read: Read) {
  const d = { baseUrl: deps.cfg.baseUrl, access: deps.access }
  return async function treeCount(who: Acting, path: string): Promise<number> {
    requireContainerPath(path)
    const { meta } = await read(who, path)
    const tree = await readTree(deps.store, path, meta)
    const folders = tree.filter(e => e.meta.kind === 'container' && e.path !== path).map(e => e.path)
    if (folders.length > 0) await requireAll(d, who.principal, path, readingNeeds(d.baseUrl, folders), who.origin)
    return countOfTree(tree)
  }
}
