// RFC 9449 §11.1 DPoP proof replay: remembers each (htu, jti) for as long as its proof is acceptable.

import { createHash } from 'node:crypto'
import { HttpError } from '../http/errors.ts'
import { DPOP_MAX_AGE_S } from './dpop.ts'
import { sweepWhileAlive } from '../lib/sweep-while-alive.ts'

/**
 * When a proof with this `iat` leaves the acceptance window of `verifyDpopProof`, in epoch ms:
 * the `until` to pass to `remember`. verifyDpopProof still accepts iat = now − maxAge exactly,
 * so the entry outlives that instant by a millisecond.
 */
export function jtiExpiry(iat: number, maxAgeSeconds: number = DPOP_MAX_AGE_S): number {
  return (iat + maxAgeSeconds) * 1000 + 1
}

/**
 * Live entries at most. A proof is acceptable for 60 s past its iat (more when its iat is in the
 * future, up to the 60 s skew), so this holds ~4,000 proofs/s sustained; beyond it requests are
 * refused for a moment rather than a live entry forgotten. ~100 bytes an entry: ≤ 25 MB when full.
 */
export const JTI_CACHE_ENTRIES = 250_000

// Sweeps of expired entries happen at least this often, busy or idle, so memory follows the load back down.
const SWEEP_EVERY_MS = 30_000

/** What `remember` found: a new proof (now remembered), a replay, or no room for it. */
export type JtiVerdict = { readonly fresh: true } | { readonly fresh: false; readonly full: false } |
  { readonly fresh: false; readonly full: true; readonly retryAfterSeconds: number }

/**
 * Sized by time, never by eviction: an entry stays until its proof is outside the acceptance
 * window, because a forgotten live entry is a replayable proof. When the cap is reached and
 * nothing has expired, new proofs get `full` (the caller answers 503 with Retry-After).
 */
export class JtiReplayCache {
  readonly #max: number
  readonly #until = new Map<string, number>()
  /** No entry expires before this instant (epoch ms): a full cache is not swept in vain. */
  #earliest = Number.POSITIVE_INFINITY
  #nextSweep = 0

  /** `sweepEveryMs`: how often expired entries go even when no proof arrives (an idle pod). */
  constructor(maxEntries = JTI_CACHE_ENTRIES, o: { sweepEveryMs?: number } = {}) {
    if (!(maxEntries > 0)) throw new Error('JtiReplayCache needs a positive size')
    this.#max = maxEntries
    sweepWhileAlive(this, (c, now) => c.#sweep(now), o.sweepEveryMs ?? SWEEP_EVERY_MS)
  }

  get size() { return this.#until.size }

  /**
   * Keyed by a SHA-256 of htu and jti (§11.1: "store a hash"), so entries have a fixed size and the
   * scope is the target URI. `until` and `now` are epoch milliseconds. Call it only once the
   * request is otherwise verified: a proof of a refused request must not take room.
   */
  remember(jti: string, htu: string, until: number, now: number): JtiVerdict {
    const key = createHash('sha256').update(htu).update('\n').update(jti).digest('base64url')
    const seen = this.#until.get(key)
    if (seen !== undefined && seen > now) return { fresh: false, full: false }
    if (now >= this.#nextSweep || (this.#until.size >= this.#max && now >= this.#earliest)) this.#sweep(now)
    if (seen === undefined && this.#until.size >= this.#max) {
      return { fresh: false, full: true, retryAfterSeconds: Math.max(1, Math.ceil((this.#earliest - now) / 1000)) }
    }
    this.#until.set(key, until)
    if (until < this.#earliest) this.#earliest = until
    return { fresh: true }
  }

  /** Gives back the entry of a proof whose request failed after `remember` (the token endpoint). */
  release(jti: string, htu: string): void {
    this.#until.delete(createHash('sha256').update(htu).update('\n').update(jti).digest('base64url'))
  }

  #sweep(now: number) {
    let earliest = Number.POSITIVE_INFINITY
    for (const [key, until] of this.#until) {
      if (until <= now) this.#until.delete(key)
      else if (until < earliest) earliest = until
    }
    this.#earliest = earliest
    this.#nextSweep = now + SWEEP_EVERY_MS
  }
}

/** The refusal for a replayed proof, at the token endpoint (400, RFC 9449 §5) or a resource (401, §7.1). */
export function checkJti(verdict: JtiVerdict, refuseReplay: () => HttpError): void {
  if (verdict.fresh) return
  if (!verdict.full) throw refuseReplay()
  throw new HttpError(503, 'temporarily_unavailable',
    `this pod is receiving more DPoP proofs than it can remember for replay protection; try again in ${verdict.retryAfterSeconds} s`,
    { headers: { 'retry-after': String(verdict.retryAfterSeconds) } })
}
