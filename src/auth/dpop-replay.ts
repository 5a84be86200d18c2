// RFC 9449 §11.1 DPoP proof replay: remembers each (htu, jti) until its proof would be too old anyway.

import { createHash } from 'node:crypto'
import { LruCache } from '../lib/lru-cache.ts'
import { DPOP_MAX_AGE_S } from './dpop.ts'

/**
 * When a proof with this `iat` leaves the acceptance window of `verifyDpopProof`, in epoch ms:
 * the `until` to pass to `remember`. After that instant the iat check refuses the proof by itself.
 */
export function jtiExpiry(iat: number, maxAgeSeconds: number = DPOP_MAX_AGE_S): number {
  return (iat + maxAgeSeconds) * 1000
}

/**
 * Bounded in memory. The cap must exceed the proofs accepted per window: once full,
 * the least recently seen entry is dropped, and a proof that old could be replayed.
 */
export class JtiReplayCache {
  readonly #seen: LruCache<string, true>

  constructor(maxEntries = 100_000) {
    this.#seen = new LruCache(maxEntries)
  }

  get size() { return this.#seen.size }

  /**
   * `false` when this jti was already used for this htu (a replay, RFC 9449 §4.3 and §11.1).
   * Keyed by a SHA-256 of htu and jti (§11.1: "store a hash"), so entries have a fixed size and the
   * scope is the target URI. `until` and `now` are epoch milliseconds.
   */
  remember(jti: string, htu: string, until: number, now: number): boolean {
    const key = createHash('sha256').update(htu).update('\n').update(jti).digest('base64url')
    if (this.#seen.get(key, now) !== undefined) return false
    this.#seen.set(key, true, until)
    return true
  }
}
