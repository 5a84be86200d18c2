// An object store's orphans (objects a crash left between storing them and committing the record that names them)
// are looked for while the pod serves, not only at start: the pod may run for months. The local directory is swept
// at start only (its sweep has no grace period to keep it off a write in flight).

import type { Store } from './open-store.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import { sweepBlobs } from './migrate-blobs.ts'

/** Sweeps every `everyMs` (the store's grace period) while the store is remote; returns `stop`. */
export function sweepObjectsRegularly(
  store: Store,
  o: {
    everyMs: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  if (!store.blobs.remote) return async () => undefined
  return sweepRegularly(() => sweepBlobs(store.blobs, store.blobRefs, store.versionBlobs), o)
}
