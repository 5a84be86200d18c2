// Dead properties (RFC 4918 §4.2): what a client stores on a resource with PROPPATCH (Finder's tags, an
// application's notes), kept as one record per resource, each property as the XML element the client sent. They
// are the resource's, whichever face changes it: a record goes in the very batch that deletes (or trashes) its
// resource (the change-feed journal the operations layer starts), so no later resource of that name inherits it,
// and in the very batch that moves it, to the new name (move-resource.ts). The dav role carries them along its COPY.

import type { Store } from './open-store.ts'
import type { WriteOp } from './group-commit.ts'
import { inSublevel } from './sublevel.ts'
import { deleteRecord, keyOf, NEVER, putRecord } from './records.ts'

const KIND = 'dav-props'

/** Clark name (`{namespace}local`) → the property's element, serialized with the namespaces it uses. */
export type PropertySet = Readonly<Record<string, string>>

/** Properties of one resource at most, and bytes of their XML: a record is read whole with every PROPFIND of it. */
export const MAX_PROPERTIES = 200
export const MAX_PROPERTY_BYTES = 64 * 1024

export interface DeadProperties {
  get(path: string): Promise<PropertySet>
  /** In the order of `paths`: one database round for a chunk of a listing. */
  getMany(paths: readonly string[]): Promise<PropertySet[]>
  /** Replaces the resource's set; an empty set removes the record. */
  set(path: string, properties: PropertySet): Promise<void>
}

const EMPTY: PropertySet = Object.freeze({})

export function makeDeadProperties(store: Store): DeadProperties {
  return {
    async get(path) {
      const rec = await store.records.get(keyOf(KIND, path))
      return (rec?.v as PropertySet | undefined) ?? EMPTY
    },
    async getMany(paths) {
      if (paths.length === 0) return []
      const recs = await store.records.getMany(paths.map(p => keyOf(KIND, p)))
      return recs.map(rec => (rec?.v as PropertySet | undefined) ?? EMPTY)
    },
    async set(path, properties) {
      if (Object.keys(properties).length === 0) await deleteRecord(store, KIND, path)
      else await putRecord(store, KIND, path, properties, NEVER)
    },
  }
}

/** Starts dropping each deleted resource's set in its deletion's batch (a move's old names too); returns the way to stop. */
export const followDeletes = (store: Store): (() => void) =>
  store.changes.journal(changes => {
    const ops: WriteOp[] = []
    for (const c of changes) if (c.type === 'Delete') ops.push({ type: 'del', key: keyOf(KIND, c.object), ...inSublevel(store.records) })
    return ops
  })

/** The sets of moved resources written at their new names, for the move's own batch (the old ones go with its Deletes). */
export async function movedPropertyOps(store: Store, moved: readonly { from: string; to: string }[]): Promise<WriteOp[]> {
  if (moved.length === 0) return []
  const recs = await store.records.getMany(moved.map(m => keyOf(KIND, m.from)))
  return moved.flatMap((m, i) =>
    recs[i] === undefined ? [] : [{ type: 'put' as const, key: keyOf(KIND, m.to), value: recs[i], ...inSublevel(store.records) }],
  )
}

/** Every set kept for `path` and, when it is a folder, for everything below it: what a COPY or MOVE carries along. */
export async function readPropertyTree(store: Store, path: string): Promise<{ path: string; properties: PropertySet }[]> {
  const prefix = keyOf(KIND, path)
  const out: { path: string; properties: PropertySet }[] = []
  for await (const [key, rec] of store.records.iterator({ gte: prefix, lt: `${prefix}\uffff` })) {
    const p = key.slice(prefix.length - path.length)
    if (p === path || path.endsWith('/')) out.push({ path: p, properties: rec.v as PropertySet })
  }
  return out
}
