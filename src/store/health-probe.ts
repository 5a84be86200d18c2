// Whether the database takes a synced write now: the health check's question.

import type { Store } from './open-store.ts'

/** A `system` key of this data directory only: export and import leave it out (export-pod.ts DIRECTORY_KEYS). */
export const HEALTH_PROBE_KEY = 'health-probe'

/** Resolves when a synced write landed; rejects when the database is closed, its disk full or read-only. */
export async function probeWritable(store: Store, at: number): Promise<void> {
  if (store.db.status !== 'open') throw new Error(`the database is ${store.db.status}`)
  await store.system.put(HEALTH_PROBE_KEY, at, { sync: true })
}
