// An object store's orphans (objects a crash left between storing them and committing the record that names them)
// are looked for while the pod serves, not only at start: the pod may run for months. The sweep runs whatever the
// store is at start, since a live `solopod blobs move` may put the bytes in a bucket (or take them out) later, and
// each run sweeps only the stores that are buckets then: a local directory's sweep has no grace period, so it would
// remove a file a write in flight has stored but not yet committed; the local directory is swept at start only.

import type { Store } from './open-store.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import { namedBlobs } from './migrate-blobs.ts'

/** Sweeps every `everyMs` (a bucket's grace period) the buckets among the pod's stores; returns `stop`. */
export function sweepObjectsRegularly(
  store: Store,
  o: {
    everyMs: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  return sweepRegularly(() => store.blobs.sweepRemote(namedBlobs(store.blobRefs, store.versionBlobs)), o)
}
