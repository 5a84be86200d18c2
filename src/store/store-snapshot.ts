// A read-only view of the whole database at one instant (LevelDB snapshot), for exports of a running pod.

import { Quadstore } from 'quadstore'
import { DataFactory } from '../lib/n3.ts'
import { QUAD_INDEXES, type Store } from './open-store.ts'

export interface StoreSnapshot {
  /** Pass as `{ snapshot }` to sublevel reads (`get`, `iterator`, `keys`). */
  readonly snapshot: unknown
  /** quadstore reading the snapshot: `match()` sees the quads as they were when it was taken. */
  readonly quads: Quadstore
  close(): Promise<void>
}

/**
 * Everything read through the returned view is the database as it was when this was called,
 * whatever is written meanwhile: quads, metadata, bodies and records all agree with each other.
 * quadstore cannot pass a snapshot to its reads, so a second quadstore instance is given a
 * backend whose iterators all read from the snapshot; it can only read (its `batch` refuses).
 */
export function openSnapshot(store: Store): StoreSnapshot {
  const { db } = store
  const snapshot = db.snapshot()
  const backend = {
    get status() {
      return db.status
    },
    open: async () => {},
    close: async () => {},
    batch: () => {
      throw new Error('a store snapshot is read-only')
    },
    iterator: (options: object) => db.iterator({ ...options, snapshot }),
    approximateSize: () => Promise.resolve(0),
  }
  const quads = new Quadstore({ backend: backend as never, dataFactory: DataFactory as never, indexes: QUAD_INDEXES as never })
  return { snapshot, quads, close: () => snapshot.close() }
}
