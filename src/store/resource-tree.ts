// A resource and everything stored below it, read through the membership index: what a move or a folder delete takes.

import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import { aclOf } from './acl-names.ts'
import { getMeta } from './resources.ts'

/** One stored resource of a tree: a member (`listedIn` its folder), the root, or an ACL (which no folder lists). */
export interface TreeEntry {
  readonly path: string
  readonly meta: ResourceMeta
  readonly listedIn?: string
}

/** The resource, everything below it (through the membership index) and each one's ACL, parents first. */
export async function readTree(store: Store, root: string, rootMeta: ResourceMeta): Promise<TreeEntry[]> {
  const out: TreeEntry[] = []
  const visit = async (path: string, meta: ResourceMeta, listedIn?: string) => {
    out.push({ path, meta, ...(listedIn !== undefined ? { listedIn } : {}) })
    const aclMeta = await getMeta(store, aclOf(path))
    if (aclMeta) out.push({ path: aclOf(path), meta: aclMeta })
    if (meta.kind !== 'container') return
    const prefix = `${path}\0`
    const children: string[] = []
    for await (const key of store.contains.keys({ gt: prefix, lt: `${prefix}\uffff` })) children.push(key.slice(prefix.length))
    for (const child of children) {
      const m = await getMeta(store, child)
      if (m) await visit(child, m, path)
    }
  }
  await visit(root, rootMeta)
  return out
}
