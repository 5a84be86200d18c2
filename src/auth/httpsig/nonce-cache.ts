// HttpSig replay protection: each (keyid, nonce) is accepted once while its signature could still verify, per signing key.

import { replayKey } from '../../lib/replay-memory.ts'
import { PartitionedReplayMemory, type PartitionLimits } from '../../lib/partitioned-replay-memory.ts'
import { replayLimits } from '../../lib/replay-limits.ts'
import { memoryShares } from '../../lib/memory-budget.ts'
import { OverShareLog, overShareOf, type OverShare } from '../over-share.ts'
import { createdWindowEnd } from './verify-request.ts'

/**
 * Nonces one signing key keeps at most. Past it the key's oldest are forgotten and its signatures not
 * newer than them refused (lib/partitioned-replay-memory.ts), so this is what one signer may send
 * within one second of `created` before it alone is slowed (429); as for DPoP (auth/dpop-replay.ts),
 * far above what one client reaches here. ≤ ~1.3 MB a key when full (~80 bytes a nonce in a Map that large), and
 * never more than the memory holds in all (DEFAULT_NONCE_LIMITS).
 */
export const HTTPSIG_NONCES_PER_KEY = 16_384

/**
 * The default budget's limits: nonces of all keys (past it the fullest key gives up its oldest), keys (a did:key costs
 * nothing to make: past it the least recently used is dropped) and dropped keys' horizons, from the bytes
 * `--memory-budget` gives this memory (lib/replay-limits.ts). The pod's own come from its budget (deps.ts).
 */
export const DEFAULT_NONCE_LIMITS: PartitionLimits = Object.freeze(replayLimits(memoryShares().replay.httpsigNonces, HTTPSIG_NONCES_PER_KEY))

/** What `remember` found: a new nonce (now remembered), a replay, or a key over its share. */
export type NonceVerdict = 'fresh' | 'replayed' | OverShare

/**
 * Partitioned by the signing key's RFC 7638 thumbprint (the key that verified the signature, so only
 * its holder reaches its share, and one key published under many keyids has one share); within a
 * key, keyed by a hash of keyid and nonce (the nonce is the signer's text).
 */
export class NonceCache {
  readonly #memory: PartitionedReplayMemory
  readonly #overShare: OverShareLog

  constructor(limits: Partial<PartitionLimits> = {}) {
    const all = { ...DEFAULT_NONCE_LIMITS, ...limits }
    this.#memory = new PartitionedReplayMemory(all)
    this.#overShare = new OverShareLog('httpsig.key_over_share', all.perPartition)
  }

  get size() {
    return this.#memory.size
  }

  /**
   * `until` and `now` in epoch ms; `until` is when the window check would refuse the signature anyway.
   * Call it only once the signature verified with the key whose thumbprint is `jkt`; its group is
   * `keyGroup(keyid)`, so when dropped keys fill up only the host (or did method) holding most is slowed.
   */
  remember(jkt: string, keyid: string, nonce: string, until: number, now: number): NonceVerdict {
    const group = keyGroup(keyid)
    const verdict = this.#memory.remember(jkt, replayKey(keyid, nonce), until, now, group)
    if (typeof verdict === 'string') return verdict
    this.#overShare.note('keysFull' in verdict ? `group ${group}` : jkt, now, { jkt, keyid })
    return overShareOf(verdict, createdWindowEnd(0), now, this.#overShare.perKey)
  }
}

/**
 * Who vouches for a key: the host publishing it (one registrable name per fetch budget), or for a
 * did (did:key costs nothing to make and has no host) its method: all did:key keys are one group.
 */
export function keyGroup(keyid: string): string {
  if (keyid.startsWith('did:')) return keyid.split(':', 2).join(':')
  try {
    return new URL(keyid).host
  } catch {
    return ''
  }
}
