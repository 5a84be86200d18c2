// Retention of versions: every one for an hour, one an hour for a day, one a day until `--keep-versions-days`; a sweep thins the rest.

import type { Store } from './open-store.ts'
import { sweepRegularly } from '../lib/sweep-regularly.ts'
import { dropVersions, isCreationTimeKey, pathOfVersionKey, spanOf, type VersionSpan } from './versions.ts'
import { padTime } from './version-record.ts'
import { inSublevel } from './sublevel.ts'
import { capVersions, type CapResult } from './version-cap.ts'

const HOUR_MS = 60 * 60_000
const DAY_MS = 24 * HOUR_MS
/** Hourly, as the trash: an hour's versions are thinned within the next hour. */
export const VERSION_SWEEP_EVERY_MS = HOUR_MS
/** Versions removed per synced batch: a sweep of a year of changes never holds one huge batch in front of requests. */
export const VERSION_SWEEP_BATCH = 500

/**
 * The versions of one resource (oldest first) that retention drops at `now`, as Nextcloud thins its versions.
 * Age is counted from `until`, when the change that ended the state was made: a document unchanged for a year
 * and overwritten a minute ago keeps its year-old state, because that change is the one to undo. Buckets are
 * whole hours and days since the epoch, so a bucket's keeper (its latest version) stays the keeper from one
 * sweep to the next.
 */
export function versionsToDrop(spans: readonly VersionSpan[], now: number, keepDays: number): string[] {
  if (keepDays <= 0) return spans.map(s => s.key)
  const drop: string[] = []
  const keeperOf = new Map<string, VersionSpan>()
  for (const s of spans) {
    const age = now - s.until
    if (age <= HOUR_MS) continue
    if (age > keepDays * DAY_MS) {
      drop.push(s.key)
      continue
    }
    const bucket = age <= DAY_MS ? `h${Math.floor(s.until / HOUR_MS)}` : `d${Math.floor(s.until / DAY_MS)}`
    const keeper = keeperOf.get(bucket)
    if (keeper === undefined) keeperOf.set(bucket, s)
    else if (s.until >= keeper.until) {
      drop.push(keeper.key)
      keeperOf.set(bucket, s)
    } else drop.push(s.key)
  }
  return drop
}

/**
 * Removes what retention drops, across the pod, `batchSize` versions per synced batch; then the files only they
 * held. Reads keys only, one resource's at a time. Versions are no resources: no lock, no change to tell (a
 * memento read racing the sweep finds it gone, 404). Answers how many versions went.
 */
export async function thinVersions(store: Store, now: number, keepDays: number, batchSize = VERSION_SWEEP_BATCH): Promise<number> {
  let removed = 0
  let pending: string[] = []
  const flush = async () => {
    if (pending.length === 0) return
    const keys = pending
    pending = []
    await dropVersions(store, keys)
    removed += keys.length
  }
  let path: string | undefined
  let spans: VersionSpan[] = []
  const decide = async () => {
    pending.push(...versionsToDrop(spans, now, keepDays))
    spans = []
    while (pending.length >= batchSize) {
      const rest = pending.splice(batchSize)
      await flush()
      pending = rest
    }
  }
  for await (const key of store.versions.keys()) {
    const p = pathOfVersionKey(key)
    if (p !== path) {
      await decide()
      path = p
    }
    spans.push(spanOf(key))
  }
  await decide()
  await flush()
  return removed
}

/**
 * Removes the records of creations older than `keepDays` (the activity's "created" rows: they go when the versions of
 * their time would). The time index is ordered by time, so only what expired is read. Answers how many went.
 */
export async function expireCreations(store: Store, now: number, keepDays: number, batchSize = VERSION_SWEEP_BATCH): Promise<number> {
  let removed = 0
  for (;;) {
    const expired: string[] = []
    for await (const key of store.versionTimes.keys({ lt: padTime(now - Math.max(0, keepDays) * DAY_MS) })) {
      if (isCreationTimeKey(key)) expired.push(key)
      if (expired.length === batchSize) break
    }
    if (expired.length === 0) return removed
    await store.commit(expired.map(key => ({ type: 'del' as const, key, ...inSublevel(store.versionTimes) })))
    removed += expired.length
  }
}

/**
 * Sweeps once now, then every `everyMs`: thins by age, then holds versions and the trash to `share.percent` of
 * `share.fsBytes()` (the data directory's filesystem size, asked at each sweep; a test gives its own), and compacts
 * the database when it removed anything. Returns `stop`, which resolves once no sweep is under way.
 */
export function sweepVersionsRegularly(
  store: Store,
  o: {
    now: () => number
    keepDays: number
    everyMs?: number
    share?: { readonly percent: number; readonly fsBytes: () => number }
    onSwept?: (count: number) => void
    onCapped?: (result: CapResult) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  const sweep = async () => {
    const thinned = await thinVersions(store, o.now(), o.keepDays)
    const expired = await expireCreations(store, o.now(), o.keepDays)
    const share = o.share && o.share.percent > 0 ? Math.floor((o.share.fsBytes() * o.share.percent) / 100) : 0
    let capped = 0
    if (share > 0) {
      const result = await capVersions(store, o.now(), share)
      capped = result.versions + result.trashItems
      if (capped > 0) o.onCapped?.(result)
    }
    // With versions on, writes do not compact the database (open-store.ts): what the sweep removed is merged away here.
    if (thinned + expired + capped > 0) await store.compact()
    return thinned
  }
  return sweepRegularly(sweep, { ...o, everyMs: o.everyMs ?? VERSION_SWEEP_EVERY_MS })
}
