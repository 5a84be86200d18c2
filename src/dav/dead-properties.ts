// Dead properties (RFC 4918 §4.2): what a client stores on a resource with PROPPATCH (Finder's tags, an
// application's notes), kept as one record per resource, each property as the XML element the client sent. A
// resource's record goes in the very batch that deletes it (the store's change-feed journal), so no later
// resource of that name inherits it, whichever face deleted it; the dav role carries records along its own COPY and MOVE.

import type { Store } from '../store/open-store.ts'
import type { WriteOp } from '../store/group-commit.ts'
import { inSublevel } from '../store/sublevel.ts'
import { deleteRecord, keyOf, NEVER, putRecord } from '../store/records.ts'

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
  /** Starts dropping each deleted resource's set with its deletion; returns the way to stop. */
  followDeletes(): () => void
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
    followDeletes() {
      return store.changes.journal(changes => {
        const ops: WriteOp[] = []
        for (const c of changes) if (c.type === 'Delete') ops.push({ type: 'del', key: keyOf(KIND, c.object), ...inSublevel(store.records) })
        return ops
      })
    },
  }
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
