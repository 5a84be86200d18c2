// Named graphs that are not pod resources (access grants): written and removed together with the
// record that lists them, in one synced batch.

import type { Quad } from '@rdfjs/types'
import { DataFactory } from 'n3'
import type { Store } from './open-store.ts'
import { keyOf, NEVER, type RecordKind } from './records.ts'
import { forceSyncWrite } from './synced-batch.ts'

type Batch = Parameters<NonNullable<Parameters<Store['quads']['multiPatch']>[2]>['preWrite'] & {}>[0]

/** The quads of one named graph, graph names kept. */
export async function readNamedGraph(store: Store, graphIri: string): Promise<Quad[]> {
  return (await store.quads.get({ graph: DataFactory.namedNode(graphIri) })).items as Quad[]
}

/** Stores `quads` (already in their graph) and the record `kind`/`key` → `value` atomically and durably. */
export async function putGraphWithRecord<V>(store: Store, quads: readonly Quad[], kind: RecordKind, key: string, value: V): Promise<void> {
  await store.quads.multiPut(quads as never, {
    preWrite: async (batch: Batch) => {
      batch.put(keyOf(kind, key), { v: value, exp: NEVER }, { sublevel: store.records as never })
      forceSyncWrite(batch)
    },
  } as never)
}

/** Removes the named graph and its record atomically and durably. */
export async function deleteGraphWithRecord(store: Store, graphIri: string, kind: RecordKind, key: string): Promise<void> {
  const quads = await readNamedGraph(store, graphIri)
  await store.quads.multiDel(quads as never, {
    preWrite: async (batch: Batch) => {
      batch.del(keyOf(kind, key), { sublevel: store.records as never })
      forceSyncWrite(batch)
    },
  } as never)
}
