// Named graphs that are not pod resources (access grants): written and removed together with the
// record that lists them, in one synced batch.

import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { inSublevel, type Store } from './open-store.ts'
import { keyOf, NEVER, type RecordKind } from './records.ts'
import { graphChangeOps, readGraphKeys } from './quad-ops.ts'

/** The quads of one named graph, graph names kept. */
export async function readNamedGraph(store: Store, graphIri: string): Promise<Quad[]> {
  return (await store.quads.get({ graph: DataFactory.namedNode(graphIri) })).items as Quad[]
}

/** Stores `quads` (already in their graph) and the record `kind`/`key` → `value` atomically and durably. */
export async function putGraphWithRecord<V>(store: Store, quads: readonly Quad[], kind: RecordKind, key: string, value: V): Promise<void> {
  await store.commit([
    ...graphChangeOps(store.quads, [], quads),
    { type: 'put', key: keyOf(kind, key), value: { v: value, exp: NEVER }, ...inSublevel(store.records) },
  ])
}

/** Removes the named graph and its record atomically and durably. */
export async function deleteGraphWithRecord(store: Store, graphIri: string, kind: RecordKind, key: string): Promise<void> {
  const keys = await readGraphKeys(store.quads, DataFactory.namedNode(graphIri))
  await store.commit([...graphChangeOps(store.quads, keys, []), { type: 'del', key: keyOf(kind, key), ...inSublevel(store.records) }])
}
