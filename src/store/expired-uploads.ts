// Abandoned resumable uploads leave the disk on a timer: their bytes and their records.

import { sweepExpiredUploads } from './upload-records.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import type { Store } from './open-store.ts'

/** How often the partial uploads are looked at; an upload lives a day by default, so a few minutes late is nothing. */
export const UPLOAD_SWEEP_EVERY_MS = 10 * 60_000

/**
 * Sweeps once now (a pod that stopped for a week removes what expired meanwhile, and the files a crash left
 * without a record), then every `everyMs`; the timer never keeps the process alive. Returns `stop`, which
 * resolves once no sweep is under way.
 */
export function sweepExpiredUploadsRegularly(
  store: Store,
  o: {
    now: () => number
    everyMs?: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  return sweepRegularly(() => sweepExpiredUploads(store, o.now()), { ...o, everyMs: o.everyMs ?? UPLOAD_SWEEP_EVERY_MS })
}
