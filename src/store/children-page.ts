// One page of a container's members: keys are counted, metadata is read for the page only, so a
// container of 10,000 children costs one key scan and `limit` metadata reads.

import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import { getMeta } from './resources.ts'

export interface ChildrenPage {
  readonly items: readonly { path: string; meta: ResourceMeta }[]
  /** Members in all (the container membership index). */
  readonly total: number
}

export async function readChildrenPage(store: Store, path: string, offset: number, limit: number): Promise<ChildrenPage> {
  const prefix = `${path}\0`
  const wanted: string[] = []
  let total = 0
  for await (const key of store.contains.keys({ gt: prefix, lt: `${prefix}\uffff` })) {
    if (total >= offset && wanted.length < limit) wanted.push(key.slice(prefix.length))
    total++
  }
  const metas = await Promise.all(wanted.map((child) => getMeta(store, child)))
  const items = wanted.flatMap((child, i) => (metas[i] ? [{ path: child, meta: metas[i] }] : []))
  return { items, total }
}
