// Expired records (login codes, interactions, sessions, app registrations…) leave the disk on a timer.

import { sweepExpiredRecords } from './records.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import type { Store } from './open-store.ts'

/** How often the records are scanned; the families are small (sessions, clients, codes), a scan takes milliseconds. */
export const SWEEP_EVERY_MS = 60 * 60_000
/**
 * Only records expired at least this long ago go. A writer that puts a new record under the key of an
 * expired one (a second revocation of one session) could otherwise race the scan and lose its write.
 */
export const SWEEP_GRACE_MS = 60 * 60_000

/**
 * Every record is read with its expiry checked, so an expired one is never used; but nothing else
 * deletes it, and a pod that signs people in for months would keep every code and interaction it
 * ever made (so the data directory stays proportional to the live data). Sweeps once now, then
 * every `everyMs`; the timer never keeps the process alive. Returns `stop`, which resolves once no
 * sweep is under way.
 */
export function sweepExpiredRecordsRegularly(
  store: Store,
  o: {
    now?: () => number
    everyMs?: number
    graceMs?: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  } = {},
): () => Promise<void> {
  const now = o.now ?? Date.now
  const grace = o.graceMs ?? SWEEP_GRACE_MS
  return sweepRegularly(() => sweepExpiredRecords(store, now() - grace), { ...o, everyMs: o.everyMs ?? SWEEP_EVERY_MS })
}
