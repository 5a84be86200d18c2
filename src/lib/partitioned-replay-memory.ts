// Single-use values kept per client (DPoP jtis per proof key): one client's rate can fill only its own share.

import { sweepWhileAlive } from './sweep-while-alive.ts'
import { replayKey } from './replay-memory.ts'
import { KeyHorizons, type KeysFull } from './key-horizons.ts'
import { OrderedNumberMap } from './ordered-number-map.ts'

export type { KeysFull } from './key-horizons.ts'

/**
 * What `remember` found: a new value (now remembered), one still remembered, one at or below its
 * key's horizon, or a new key of the group (issuer) holding the most dropped keys when none fit.
 */
export type PartitionVerdict = 'fresh' | 'replayed' | { readonly horizon: number } | KeysFull

export interface PartitionLimits {
  /** Entries one partition keeps at most: past it, its own oldest entries go and its horizon rises. */
  readonly perPartition: number
  /** Entries of all partitions together at most: past it, the fullest partition gives up its oldest. */
  readonly total: number
  /** Partitions at most: past it, the least recently used one goes, leaving its horizon to `dropped`. */
  readonly partitions: number
  /** Dropped keys' horizons at most (lib/key-horizons.ts); default 4 × partitions (~240 bytes each, measured: 32,768 ≈ 8 MB). */
  readonly dropped?: number
  /** How often expired entries and empty partitions go, busy or idle (default 30 s). */
  readonly sweepEveryMs?: number
}

interface Partition {
  /** replayKey(partition key), the group (issuer) it counts for */
  readonly hk: number
  readonly group: string
  /** value key → until (epoch ms), oldest first (insertion order) */
  readonly entries: OrderedNumberMap
  /** Every value this partition forgot before its `until` had `until` ≤ horizon: such values are refused. */
  horizon: number
  /** The latest `until` it ever held: its horizon once the whole partition goes. */
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
 * requester unless it is the fullest. The partition bound drops the least recently used partition
 * whole, and its newest `until` stays that key's own horizon while it is in the future (lib/key-horizons.ts):
 * never a pod-wide floor, which a stranger churning keys (or future-dating one) could raise above every
 * new client's first value. Keys are grouped (DPoP: the token's issuer; HttpSig: the key's host) so
 * that when even the dropped horizons are full, only the group holding most of them is slowed.
 */
export class PartitionedReplayMemory {
  readonly #limits: Required<Omit<PartitionLimits, 'dropped'>>
  readonly #dropped: KeyHorizons
  /** Least recently used first. */
  readonly #partitions = new Map<string, Partition>()
  #size = 0
  /** The largest partition seen since the last sweep: the total bound's victim (re-found when it shrinks below another). */
  #fullest: Partition | undefined
  #nextSweep = 0

  constructor(limits: PartitionLimits) {
    for (const k of ['perPartition', 'total', 'partitions'] as const) if (!(limits[k] > 0)) throw new Error(`PartitionedReplayMemory needs a positive ${k}`)
    this.#limits = { sweepEveryMs: 30_000, ...limits }
    this.#dropped = new KeyHorizons(limits.dropped ?? 4 * limits.partitions)
    sweepWhileAlive(this, (m, now) => m.#sweep(now), this.#limits.sweepEveryMs)
  }

  /** Entries held by all partitions. */
  get size() {
    return this.#size
  }

  get partitionCount() {
    return this.#partitions.size
  }

  /** Dropped keys whose horizons are still kept. */
  get droppedCount() {
    return this.#dropped.size
  }

  /**
   * `until` and `now` are epoch milliseconds; `until` is when the value would be refused anyway.
   * `group` is who vouches for the key (an issuer): only it is slowed when dropped keys fill up.
   */
  remember(partitionKey: string, key: number, until: number, now: number, group = ''): PartitionVerdict {
    if (now >= this.#nextSweep) this.#sweep(now)
    let p = this.#partitions.get(partitionKey)
    const seen = p?.entries.get(key)
    if (seen !== undefined && seen > now) return 'replayed'
    const hk = p?.hk ?? replayKey(partitionKey)
    const horizon = p?.horizon ?? this.#dropped.startOf(group, hk, now)
    if (until <= horizon) return { horizon }
    if (p)
      this.#partitions.delete(partitionKey) // re-inserted below: most recently used last
    else {
      const refused = this.#dropped.enter(group, hk, now, this.#partitions.size >= this.#limits.partitions)
      if (refused) return refused
      p = { hk, group, entries: new OrderedNumberMap(), horizon, newest: 0 }
    }
    this.#partitions.set(partitionKey, p)
    if (seen !== undefined) {
      p.entries.delete(key)
      this.#size--
    }
    p.entries.set(key, until)
    this.#size++
    if (until > p.newest) p.newest = until
    if (p.entries.size > this.#limits.perPartition) this.#evictOldest(p)
    if (!this.#fullest || p.entries.size > this.#fullest.entries.size) this.#fullest = p
    if (this.#size > this.#limits.total) this.#evictOldest(this.#findFullest())
    if (this.#partitions.size > this.#limits.partitions) this.#dropLeastRecent(now)
    return 'fresh'
  }

  /** What `remember` would answer for a value of a known partition (or one key), remembering nothing. */
  peek(partitionKey: string, key: number, until: number, now: number): 'fresh' | 'replayed' | { readonly horizon: number } {
    const p = this.#partitions.get(partitionKey)
    const seen = p?.entries.get(key)
    if (seen !== undefined && seen > now) return 'replayed'
    const horizon = p?.horizon ?? 0
    return until <= horizon ? { horizon } : 'fresh'
  }

  /** Gives back the entry of a value whose request failed after `remember` (and its key's room, if that was all it held). */
  forget(partitionKey: string, key: number, now: number): void {
    const p = this.#partitions.get(partitionKey)
    if (!p?.entries.delete(key)) return
    this.#size--
    if (p.entries.size === 0 && p.horizon <= now) this.#remove(partitionKey, p, now)
  }

  #evictOldest(p: Partition) {
    const until = p.entries.shift()
    if (until === undefined) return
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

  #dropLeastRecent(now: number) {
    const [key, p] = this.#partitions.entries().next().value!
    this.#partitions.delete(key)
    this.#size -= p.entries.size
    this.#dropped.drop(p.group, p.hk, Math.max(p.horizon, p.newest), now)
    if (this.#fullest === p) this.#fullest = undefined
  }

  #remove(partitionKey: string, p: Partition, now: number) {
    this.#partitions.delete(partitionKey)
    this.#dropped.gone(p.group, now)
    if (this.#fullest === p) this.#fullest = undefined
  }

  #sweep(now: number) {
    let fullest: Partition | undefined
    for (const [pk, p] of this.#partitions) {
      this.#size -= p.entries.removeUpTo(now)
      // an empty partition whose horizon has passed refuses nothing the acceptance window does not
      if (p.entries.size === 0 && p.horizon <= now) {
        this.#partitions.delete(pk)
        this.#dropped.gone(p.group, now)
      } else if (!fullest || p.entries.size > fullest.entries.size) fullest = p
    }
    this.#fullest = fullest
    this.#dropped.sweep(now)
    this.#nextSweep = now + this.#limits.sweepEveryMs
  }
}
