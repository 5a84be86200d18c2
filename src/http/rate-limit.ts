// Fixed-window failure counters (login attempts), bounded in memory by the shared LRU cache.

import { LruCache } from '../lib/lru-cache.ts'

export interface RateLimit {
  /** Failures allowed per window. */
  readonly max: number
  readonly windowMs: number
  /**
   * Growing delays (OWASP Authentication Cheat Sheet, "Account lockout"): each time a key uses up its
   * window again within `maxWindowMs`, its next wait doubles, up to `maxWindowMs`. Unset: every wait is one window.
   */
  readonly maxWindowMs?: number
}

/**
 * `strikes`: how many windows in a row the key used up; remembered until its longest wait would be over.
 * `beforeStrike`: the window's end before its last strike, so that taking back the attempt that used the
 * window up (`forgive`) takes back its doubled wait too.
 */
interface Window {
  count: number
  resetAt: number
  strikes: number
  beforeStrike?: number
}

/**
 * Counts failures per key; `retryAfter` says how long a key must wait once it used up its window.
 * Entries expire with their window (with growing delays, once the doubled wait would be over); the cap
 * bounds memory under a flood of distinct keys (an attacker rotating keys then only evicts old windows).
 */
export class FailureLimiter {
  readonly #limit: RateLimit
  readonly #windows: LruCache<string, Window>

  constructor(limit: RateLimit, maxKeys = 10_000) {
    this.#limit = limit
    this.#windows = new LruCache(maxKeys)
  }

  /** The key's window now: an ended one starts again at 0, keeping its strikes. */
  #current(key: string, now: number): Window | undefined {
    const w = this.#windows.get(key, now)
    if (w && now >= w.resetAt) {
      w.count = 0
      w.resetAt = now + this.#limit.windowMs
    }
    return w
  }

  /** Seconds until `key` may try again; 0 when it may try now. */
  retryAfter(key: string, now: number): number {
    const w = this.#current(key, now)
    return w && w.count >= this.#limit.max ? Math.ceil((w.resetAt - now) / 1000) : 0
  }

  /**
   * Counts an attempt before it is checked, so concurrent attempts cannot all pass the limit
   * while the first ones are still being verified; a success gives its count back (`forgive`).
   * Returns the seconds to wait instead when the key has used up its window (nothing counted).
   */
  begin(key: string, now: number): number {
    const wait = this.retryAfter(key, now)
    if (wait === 0) this.recordFailure(key, now)
    return wait
  }

  /** Takes back one attempt counted by `begin` that turned out not to be a failure. */
  forgive(key: string, now: number): void {
    const w = this.#current(key, now)
    if (!w || w.count === 0) return
    if (w.count === this.#limit.max && w.beforeStrike !== undefined) {
      w.strikes--
      w.resetAt = w.beforeStrike
      w.beforeStrike = undefined
    }
    w.count--
  }

  recordFailure(key: string, now: number): void {
    const { windowMs, max, maxWindowMs } = this.#limit
    const w = this.#current(key, now)
    if (!w) {
      const first = { count: 1, resetAt: now + windowMs, strikes: 0 }
      this.#windows.set(key, first, maxWindowMs === undefined ? first.resetAt : now + maxWindowMs)
      if (max <= 1) this.#strike(key, first, now)
      return
    }
    w.count++
    if (w.count === max) this.#strike(key, w, now)
  }

  /** The window is used up: with growing delays, the wait is one window doubled per strike before it. */
  #strike(key: string, w: Window, now: number): void {
    const { windowMs, maxWindowMs } = this.#limit
    if (maxWindowMs === undefined) return
    w.beforeStrike = w.resetAt
    w.resetAt = now + Math.min(windowMs * 2 ** w.strikes, maxWindowMs)
    w.strikes++
    this.#windows.set(key, w, w.resetAt + maxWindowMs)
  }

  reset(key: string): void {
    this.#windows.delete(key)
  }
}
