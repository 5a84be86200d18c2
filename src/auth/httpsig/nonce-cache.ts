// HttpSig replay protection: each (keyid, nonce) is accepted once while its signature could still verify.

import { createHash } from 'node:crypto'
import { sweepWhileAlive } from '../../lib/sweep-while-alive.ts'

/** Expired entries go at least this often, busy or idle, so memory follows the load back down. */
const SWEEP_EVERY_MS = 30_000

export type NonceVerdict = 'fresh' | 'replayed' | 'full'

/**
 * Bounded in memory, but unlike an LRU it never forgets an entry that is still live: forgetting one
 * would let that signature be replayed. When every slot holds a live entry, new signatures are refused
 * ('full') until entries expire. Entries are 128-bit hashes (the nonce is the signer's text).
 */
export class NonceCache {
  readonly #max: number
  readonly #seen = new Map<string, number>()
  #nextSweep = 0

  /** `sweepEveryMs`: how often expired entries go even when no signature arrives (an idle pod). */
  constructor(maxEntries = 500_000, o: { sweepEveryMs?: number } = {}) {
    if (!(maxEntries > 0)) throw new Error('NonceCache needs a positive size')
    this.#max = maxEntries
    sweepWhileAlive(this, (c, now) => { c.#nextSweep = 0; c.#sweep(now) }, o.sweepEveryMs ?? SWEEP_EVERY_MS)
  }

  get size() { return this.#seen.size }

  /** `until` and `now` in epoch ms; `until` is when the window check would refuse the signature anyway. */
  remember(keyid: string, nonce: string, until: number, now: number): NonceVerdict {
    const key = createHash('sha256').update(keyid).update('\n').update(nonce).digest('base64url').slice(0, 22)
    const known = this.#seen.get(key)
    if (known !== undefined && known > now) return 'replayed'
    if (this.#seen.size >= this.#max && known === undefined) {
      this.#sweep(now)
      if (this.#seen.size >= this.#max) return 'full'
    }
    this.#seen.set(key, until)
    return 'fresh'
  }

  // A full pass at most once a second: when the cache is full of live entries, every request would pay it.
  #sweep(now: number) {
    if (now < this.#nextSweep) return
    this.#nextSweep = now + 1000
    for (const [key, until] of this.#seen) if (until <= now) this.#seen.delete(key)
  }
}
