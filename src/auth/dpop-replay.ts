// RFC 9449 §11.1 DPoP proof replay: remembers each (htu, jti) for as long as its proof is acceptable.

import { HttpError } from '../http/errors.ts'
import { DPOP_MAX_AGE_S } from './dpop.ts'
import { ReplayMemory, replayKey } from '../lib/replay-memory.ts'

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
 * refused for a moment rather than a live entry forgotten. ~50 bytes an entry: ≤ 13 MB when full.
 */
export const JTI_CACHE_ENTRIES = 250_000

/** What `remember` found: a new proof (now remembered), a replay, or no room for it. */
export type JtiVerdict = { readonly fresh: true } | { readonly fresh: false; readonly full: false } |
  { readonly fresh: false; readonly full: true; readonly retryAfterSeconds: number }

const FRESH: JtiVerdict = Object.freeze({ fresh: true })
const REPLAYED: JtiVerdict = Object.freeze({ fresh: false, full: false })

/**
 * Keyed by a hash of htu and jti (§11.1: "store a hash"), so the scope is the target URI. An entry
 * stays until its proof is outside the acceptance window (lib/replay-memory.ts).
 */
export class JtiReplayCache {
  readonly #memory: ReplayMemory

  /** `sweepEveryMs`: how often expired entries go even when no proof arrives (an idle pod). */
  constructor(maxEntries = JTI_CACHE_ENTRIES, o: { sweepEveryMs?: number } = {}) {
    this.#memory = new ReplayMemory(maxEntries, o)
  }

  get size() { return this.#memory.size }

  /**
   * `until` and `now` are epoch milliseconds. Call it only once the request is otherwise verified: a
   * proof of a refused request must not take room.
   */
  remember(jti: string, htu: string, until: number, now: number): JtiVerdict {
    const verdict = this.#memory.remember(replayKey(htu, jti), until, now)
    if (verdict === 'fresh') return FRESH
    if (verdict === 'replayed') return REPLAYED
    return { fresh: false, full: true, retryAfterSeconds: this.#memory.secondsUntilRoom(now) }
  }

  /** Gives back the entry of a proof whose request failed after `remember` (the token endpoint). */
  release(jti: string, htu: string): void {
    this.#memory.forget(replayKey(htu, jti))
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
