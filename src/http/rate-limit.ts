// Fixed-window failure counters (login attempts), bounded in memory by the shared LRU cache.

import { LruCache } from '../lib/lru-cache.ts'

export interface RateLimit {
  /** Failures allowed per window. */
  readonly max: number
  readonly windowMs: number
}

interface Window { count: number; resetAt: number }

/**
 * Counts failures per key; `retryAfter` says how long a key must wait once it used up its window.
 * Entries expire with their window; the cap bounds memory under a flood of distinct keys (an
 * attacker rotating keys then only evicts old windows, and the per-account limit still holds).
 */
export class FailureLimiter {
  readonly #limit: RateLimit
  readonly #windows: LruCache<string, Window>

  constructor(limit: RateLimit, maxKeys = 10_000) {
    this.#limit = limit
    this.#windows = new LruCache(maxKeys)
  }

  /** Seconds until `key` may try again; 0 when it may try now. */
  retryAfter(key: string, now: number): number {
    const w = this.#windows.get(key, now)
    return w && w.count >= this.#limit.max ? Math.ceil((w.resetAt - now) / 1000) : 0
  }

  recordFailure(key: string, now: number): void {
    const w = this.#windows.get(key, now)
    if (w) { w.count++; return }
    this.#windows.set(key, { count: 1, resetAt: now + this.#limit.windowMs }, now + this.#limit.windowMs)
  }

  reset(key: string): void { this.#windows.delete(key) }
}
