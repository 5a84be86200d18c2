// Items older than 30 days leave the trash on a timer.

import type { Store } from './open-store.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import { purgeTrash, TRASH_KEEP_MS } from './trash.ts'

/** Hourly: an item goes within an hour of its 30 days. */
export const TRASH_SWEEP_EVERY_MS = 60 * 60_000

/** Sweeps once now, then every `everyMs`; returns `stop`, which resolves once no sweep is under way. */
export function sweepTrashRegularly(
  store: Store,
  o: {
    now: () => number
    everyMs?: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  return sweepRegularly(() => purgeTrash(store, o.now() - TRASH_KEEP_MS), { ...o, everyMs: o.everyMs ?? TRASH_SWEEP_EVERY_MS })
}
