// HttpSig replay protection: each (keyid, nonce) is accepted once while its signature could still verify.

import { ReplayMemory, replayKey, type ReplayVerdict } from '../../lib/replay-memory.ts'

export type NonceVerdict = ReplayVerdict

/**
 * Bounded in memory, but unlike an LRU it never forgets an entry that is still live: forgetting one
 * would let that signature be replayed. When every slot holds a live entry, new signatures are refused
 * ('full') until entries expire (lib/replay-memory.ts). Keyed by a hash: the nonce is the signer's text.
 */
export class NonceCache {
  readonly #memory: ReplayMemory

  /** `sweepEveryMs`: how often expired entries go even when no signature arrives (an idle pod). */
  constructor(maxEntries = 500_000, o: { sweepEveryMs?: number } = {}) {
    this.#memory = new ReplayMemory(maxEntries, o)
  }

  get size() { return this.#memory.size }

  /** `until` and `now` in epoch ms; `until` is when the window check would refuse the signature anyway. */
  remember(keyid: string, nonce: string, until: number, now: number): NonceVerdict {
    return this.#memory.remember(replayKey(keyid, nonce), until, now)
  }
}
