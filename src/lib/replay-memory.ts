// Single-use values (DPoP jtis, HttpSig nonces, spent UMA tickets), each remembered until it could no longer be accepted anyway.

import { sweepWhileAlive } from './sweep-while-alive.ts'

/** What `remember` found: a new value (now remembered), one already seen, or no room for it. */
export type ReplayVerdict = 'fresh' | 'replayed' | 'full'

/**
 * The key of a value in a ReplayMemory: 48 bits of a SHA-256 of its parts, kept as a number. A
 * number is stored in the map entry itself, so an entry costs no string on the heap: after
 * `bun run bench` the string keys of 130,000 live entries held about 14 MB. Two
 * values share a key with odds of 1 in 2^48 per live entry, and the only effect is that the later
 * one is refused as a replay, never that a replay is accepted.
 */
export function replayKey(...parts: readonly string[]): number {
  // Each part then a newline, as one string hashed at once (Bun's one-shot SHA-256: a DPoP request makes one key)
  const digest = Bun.SHA256.hash(`${parts.join('\n')}\n`) as Uint8Array
  return digest[0]! * 2 ** 40 + digest[1]! * 2 ** 32 + digest[2]! * 2 ** 24 + digest[3]! * 2 ** 16 + digest[4]! * 2 ** 8 + digest[5]!
}

/**
 * Sized by time, never by eviction: an entry stays until its `until`, because forgetting a live one
 * would let that value be used again. When every slot holds a live entry, new values get 'full' (the
 * caller refuses for a moment) until the earliest entry expires. Expired entries are swept at least
 * every `sweepEveryMs`, busy or idle, so memory follows the load back down.
 */
export class ReplayMemory {
  readonly #max: number
  readonly #sweepEveryMs: number
  readonly #until = new Map<number, number>()
  /** No entry expires before this instant (epoch ms): a full memory is not swept in vain. */
  #earliest = Number.POSITIVE_INFINITY
  #nextSweep = 0

  constructor(maxEntries: number, o: { sweepEveryMs?: number } = {}) {
    if (!(maxEntries > 0)) throw new Error('ReplayMemory needs a positive size')
    this.#max = maxEntries
    this.#sweepEveryMs = o.sweepEveryMs ?? 30_000
    sweepWhileAlive(this, (m, now) => m.#sweep(now), this.#sweepEveryMs)
  }

  get size() {
    return this.#until.size
  }

  /** `until` and `now` are epoch milliseconds; `until` is when the value would be refused anyway. */
  remember(key: number, until: number, now: number): ReplayVerdict {
    const seen = this.#until.get(key)
    if (seen !== undefined && seen > now) return 'replayed'
    if (now >= this.#nextSweep || (this.#until.size >= this.#max && now >= this.#earliest)) this.#sweep(now)
    if (seen === undefined && this.#until.size >= this.#max) return 'full'
    this.#until.set(key, until)
    if (until < this.#earliest) this.#earliest = until
    return 'fresh'
  }

  /** Whether the value is remembered and still live. */
  has(key: number, now: number): boolean {
    const until = this.#until.get(key)
    return until !== undefined && until > now
  }

  /** Gives back the entry of a value whose request failed after `remember`. */
  forget(key: number): void {
    this.#until.delete(key)
  }

  /** Whole seconds until the earliest entry expires: the Retry-After of a 'full' refusal. */
  secondsUntilRoom(now: number): number {
    return Math.max(1, Math.ceil((this.#earliest - now) / 1000))
  }

  #sweep(now: number) {
    let earliest = Number.POSITIVE_INFINITY
    for (const [key, until] of this.#until) {
      if (until <= now) this.#until.delete(key)
      else if (until < earliest) earliest = until
    }
    this.#earliest = earliest
    this.#nextSweep = now + this.#sweepEveryMs
  }
}
