// RFC 9449 §11.1 DPoP proof replay: remembers each (htu, jti) for as long as its proof is acceptable, per proof key.

import { HttpError } from '../http/errors.ts'
import { DPOP_MAX_AGE_S } from './dpop.ts'
import { replayKey } from '../lib/replay-memory.ts'
import { PartitionedReplayMemory, type PartitionLimits } from '../lib/partitioned-replay-memory.ts'
import { OverShareLog, overShareError, overShareOf, type OverShare } from './over-share.ts'
import { replayLimits } from '../lib/replay-limits.ts'
import { memoryShares } from '../lib/memory-budget.ts'

export { OVER_SHARE_LOG_INTERVAL_MS } from './over-share.ts'

/**
 * When a proof with this `iat` leaves the acceptance window of `verifyDpopProof`, in epoch ms:
 * the `until` to pass to `remember`. verifyDpopProof still accepts iat = now − maxAge exactly,
 * so the entry outlives that instant by a millisecond.
 */
export function jtiExpiry(iat: number, maxAgeSeconds: number = DPOP_MAX_AGE_S): number {
  return (iat + maxAgeSeconds) * 1000 + 1
}

/**
 * Proofs one key (`jkt`) has remembered at most. Past it the key's oldest proofs are forgotten and
 * older ones refused (lib/partitioned-replay-memory.ts), so this is what one client may send within
 * one second of `iat` before it is slowed (429): measured, one client at c50 reaches ~8,600 DPoP
 * requests/s on 2 cores and the load generator signs ~12,000 ES256 proofs/s on one — a client
 * never reaches it here, while an app in a browser sends tens a second. ≤ ~1.3 MB a key when full (~80 bytes a
 * proof in a Map that large), and never more than the memory holds in all (DEFAULT_JTI_LIMITS).
 */
export const DPOP_PROOFS_PER_KEY = 16_384

/**
 * The default budget's limits: proofs of all keys (past it the fullest key gives up its oldest), keys (a stranger can
 * mint keys: past it the least recently used is dropped) and dropped keys' horizons, all from the bytes
 * `--memory-budget` gives this memory (lib/replay-limits.ts). The pod's own come from its budget (deps.ts).
 */
export const DEFAULT_JTI_LIMITS: PartitionLimits = Object.freeze(replayLimits(memoryShares().replay.dpopProofs, DPOP_PROOFS_PER_KEY))

/** What `remember` found: a new proof (now remembered), a replay, or a key over its share. */
export type JtiVerdict =
  | { readonly fresh: true }
  | { readonly fresh: false; readonly overShare: false }
  | ({ readonly fresh: false; readonly overShare: true } & OverShare)

const FRESH: JtiVerdict = Object.freeze({ fresh: true })
const REPLAYED: JtiVerdict = Object.freeze({ fresh: false, overShare: false })

/**
 * Partitioned by the proof key's thumbprint, so one client's rate fills only its own share; within
 * a key, keyed by a hash of htu and jti (§11.1: "store a hash"), so the scope is the target URI.
 */
export class JtiReplayCache {
  readonly #memory: PartitionedReplayMemory
  readonly #limits: PartitionLimits
  readonly #overShare: OverShareLog

  constructor(limits: Partial<PartitionLimits> = {}) {
    this.#limits = { ...DEFAULT_JTI_LIMITS, ...limits }
    this.#memory = new PartitionedReplayMemory(this.#limits)
    this.#overShare = new OverShareLog('dpop.key_over_share', this.#limits.perPartition)
  }

  get size() {
    return this.#memory.size
  }
  get capacity() {
    return this.#limits.total
  }

  /**
   * `until` and `now` are epoch milliseconds. Call it only once the request is otherwise verified
   * (the token bound to `jkt` too): a proof of a refused request must not take room. `issuer` is the
   * token's (or ID token's) issuer: when dropped keys fill up, only the issuer holding most is slowed.
   */
  remember(jkt: string, jti: string, htu: string, until: number, now: number, issuer = ''): JtiVerdict {
    const verdict = this.#memory.remember(jkt, replayKey(htu, jti), until, now, issuer)
    if (verdict === 'fresh') return FRESH
    if (verdict === 'replayed') return REPLAYED
    this.#overShare.note('keysFull' in verdict ? `iss ${issuer}` : jkt, now, { jkt, issuer })
    return { fresh: false, overShare: true, ...overShareOf(verdict, jtiExpiry(0), now, this.#limits.perPartition) }
  }

  /** Gives back the entry of a proof whose request failed after `remember` (the token endpoints). */
  release(jkt: string, jti: string, htu: string, now: number): void {
    this.#memory.forget(jkt, replayKey(htu, jti), now)
  }
}

/**
 * The refusal for a replayed proof, at the token endpoint (400, RFC 9449 §5) or a resource (401,
 * §7.1); a key over its share is 429 (RFC 6585 §4), logged by the cache once an interval, not here.
 */
export function checkJti(verdict: JtiVerdict, refuseReplay: () => HttpError): void {
  if (verdict.fresh) return
  if (!verdict.overShare) throw refuseReplay()
  throw overShareError(verdict, 'this DPoP key sends proofs')
}
