// Single-use values kept per client (DPoP jtis per proof key): one client's rate can fill only its own share.

import { sweepWhileAlive } from './sweep-while-alive.ts'

/** What `remember` found: a new value (now remembered), one still remembered, or one at or below the partition's horizon. */
export type PartitionVerdict = 'fresh' | 'replayed' | { readonly horizon: number }

export interface PartitionLimits {
  /** Entries one partition keeps at most: past it, its own oldest entries go and its horizon rises. */
  readonly perPartition: number
  /** Entries of all partitions together at most: past it, the fullest partition gives up its oldest. */
  readonly total: number
  /** Partitions at most: past it, the least recently used one goes and its newest `until` becomes the floor. */
  readonly partitions: number
  /** How often expired entries and empty partitions go, busy or idle (default 30 s). */
  readonly sweepEveryMs?: number
}

interface Partition {
  /** value key → until (epoch ms), oldest first (insertion order) */
  readonly entries: Map<number, number>
  /** Every value this partition forgot before its `until` had `until` ≤ horizon: such values are refused. */
  horizon: number
  /** The latest `until` it ever held: what the floor rises to when the whole partition goes. */
  newest: number
}

/**
 * A replay memory split by client key. Each value is remembered until its `until` unless its
 * partition needs room; then the partition forgets its oldest entry and raises its *horizon* to
 * that entry's `until`, and from then on refuses every value with `until` ≤ horizon. Nothing
 * forgotten can be accepted again (the horizon covers it), and a client that makes each value just
 * before use (a DPoP proof's iat is "now") keeps `until` above its horizon unless it makes more than
 * `perPartition` values within one `until` step (one second of iat): only that client is refused.
 *
 * The total bound takes from the fullest partition (the client holding most), never from the
 * requester unless it is the fullest; the partition bound drops the least recently used partition
 * whole and raises a pod-wide *floor* to its newest `until`: a new partition starts with the floor as
 * its horizon, so the dropped client's values stay refused too. The floor refuses another client's
 * value only when that value is older than the dropped partition's last one — `partitions` keys each
 * used more recently than it, i.e. that many distinct keys within about a second.
 */
export class PartitionedReplayMemory {
  readonly #limits: Required<PartitionLimits>
  /** Least recently used first. */
  readonly #partitions = new Map<string, Partition>()
  #size = 0
  #floor = 0
  /** The largest partition seen since the last sweep: the total bound's victim (re-found when it shrinks below another). */
  #fullest: Partition | undefined
  #nextSweep = 0

  constructor(limits: PartitionLimits) {
    for (const k of ['perPartition', 'total', 'partitions'] as const) if (!(limits[k] > 0)) throw new Error(`PartitionedReplayMemory needs a positive ${k}`)
    this.#limits = { sweepEveryMs: 30_000, ...limits }
    sweepWhileAlive(this, (m, now) => m.#sweep(now), this.#limits.sweepEveryMs)
  }

  /** Entries held by all partitions. */
  get size() { return this.#size }

  get partitionCount() { return this.#partitions.size }

  /** `until` and `now` are epoch milliseconds; `until` is when the value would be refused anyway. */
  remember(partitionKey: string, key: number, until: number, now: number): PartitionVerdict {
    if (now >= this.#nextSweep) this.#sweep(now)
    let p = this.#partitions.get(partitionKey)
    const seen = p?.entries.get(key)
    if (seen !== undefined && seen > now) return 'replayed'
    const horizon = p?.horizon ?? this.#floor
    if (until <= horizon) return { horizon }
    if (p) this.#partitions.delete(partitionKey) // re-inserted below: most recently used last
    else p = { entries: new Map(), horizon, newest: 0 }
    this.#partitions.set(partitionKey, p)
    if (seen !== undefined) { p.entries.delete(key); this.#size-- }
    p.entries.set(key, until)
    this.#size++
    if (until > p.newest) p.newest = until
    if (p.entries.size > this.#limits.perPartition) this.#evictOldest(p)
    if (!this.#fullest || p.entries.size > this.#fullest.entries.size) this.#fullest = p
    if (this.#size > this.#limits.total) this.#evictOldest(this.#findFullest())
    if (this.#partitions.size > this.#limits.partitions) this.#dropLeastRecent()
    return 'fresh'
  }

  /** Gives back the entry of a value whose request failed after `remember`. */
  forget(partitionKey: string, key: number): void {
    const p = this.#partitions.get(partitionKey)
    if (p?.entries.delete(key)) this.#size--
  }

  #evictOldest(p: Partition) {
    const first = p.entries.entries().next()
    if (first.done) return
    const [key, until] = first.value
    p.entries.delete(key)
    this.#size--
    if (until > p.horizon) p.horizon = until
  }

  #findFullest(): Partition {
    // #fullest is always a live partition (dropping or sweeping one resets it); re-found when emptied
    let best = this.#fullest !== undefined && this.#fullest.entries.size > 0 ? this.#fullest : undefined
    if (!best) for (const p of this.#partitions.values()) if (!best || p.entries.size > best.entries.size) best = p
    this.#fullest = best
    return best!
  }

  #dropLeastRecent() {
    const [key, p] = this.#partitions.entries().next().value!
    this.#partitions.delete(key)
    this.#size -= p.entries.size
    this.#floor = Math.max(this.#floor, p.horizon, p.newest)
    if (this.#fullest === p) this.#fullest = undefined
  }

  #sweep(now: number) {
    let fullest: Partition | undefined
    for (const [pk, p] of this.#partitions) {
      for (const [key, until] of p.entries) if (until <= now) { p.entries.delete(key); this.#size-- }
      // an empty partition whose horizon has passed refuses nothing the acceptance window does not
      if (p.entries.size === 0 && p.horizon <= now) this.#partitions.delete(pk)
      else if (!fullest || p.entries.size > fullest.entries.size) fullest = p
    }
    this.#fullest = fullest
    this.#nextSweep = now + this.#limits.sweepEveryMs
  }
}
