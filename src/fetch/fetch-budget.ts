// How many remote documents one client can make the pod fetch: a stranger's request names URLs (a keyid,
// a WebID, an issuer) and the pod fetches them before it knows who is asking, so the fetching is rationed.

import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'

export interface FetchBudgetLimits {
  /** Network fetches one client may cause per window (cache hits and joined fetches are free). */
  readonly perClientPerWindow: number
  /** Network fetches of one client in flight at once. */
  readonly perClientConcurrent: number
  /** Network fetches in flight at once for everyone: with the per-document caps, bounds the bytes held. */
  readonly totalConcurrent: number
  readonly windowMs: number
}

export const DEFAULT_FETCH_BUDGET: FetchBudgetLimits = { perClientPerWindow: 30, perClientConcurrent: 4, totalConcurrent: 32, windowMs: 60_000 }

/** The codes of the budget's refusals: callers that wrap fetch failures pass these through unchanged. */
const BUDGET_CODES = new Set(['remote_fetch_limit', 'remote_fetch_busy'])
export const isBudgetRefusal = (err: unknown): err is HttpError => err instanceof HttpError && BUDGET_CODES.has(err.code)

interface ClientWindow {
  fetched: number
  active: number
  resetAt: number
}

/**
 * Fixed windows per client address (bounded in memory like the login limiter: an attacker rotating
 * addresses only evicts old windows, and the total in flight stays bounded). Work done for no known
 * client (in-process requests) counts only against the total.
 */
export class FetchBudget {
  readonly #limits: FetchBudgetLimits
  readonly #clients = new LruCache<string, ClientWindow>(10_000)
  #active = 0

  constructor(limits: FetchBudgetLimits = DEFAULT_FETCH_BUDGET) {
    this.#limits = limits
  }

  /** Network fetches in flight now. */
  get active() {
    return this.#active
  }

  /** Takes one fetch from `client`'s budget; the returned function gives the slot back when the fetch ends. */
  take(client: string | undefined, now: number): () => void {
    const l = this.#limits
    let w: ClientWindow | undefined
    if (client !== undefined) {
      w = this.#clients.get(client, now)
      if (!w) this.#clients.set(client, (w = { fetched: 0, active: 0, resetAt: now + l.windowMs }))
      // renewed in place: fetches still in flight give their slot back to this same window
      else if (w.resetAt <= now) {
        w.fetched = 0
        w.resetAt = now + l.windowMs
      }
      if (w.fetched >= l.perClientPerWindow) {
        const wait = Math.max(1, Math.ceil((w.resetAt - now) / 1000))
        throw new HttpError(
          429,
          'remote_fetch_limit',
          `this client made the pod fetch ${l.perClientPerWindow} remote documents (keys, profiles, issuers) within ${l.windowMs / 1000} s; try again in ${wait} s`,
          { headers: { 'retry-after': String(wait) } },
        )
      }
      if (w.active >= l.perClientConcurrent) {
        throw new HttpError(
          429,
          'remote_fetch_limit',
          `this client already has ${l.perClientConcurrent} remote documents being fetched; wait for those answers`,
          { headers: { 'retry-after': '1' } },
        )
      }
    }
    if (this.#active >= l.totalConcurrent) {
      throw new HttpError(503, 'remote_fetch_busy', 'the pod is fetching as many remote documents as it allows at once; try again in a moment', {
        headers: { 'retry-after': '1' },
      })
    }
    this.#active++
    if (w) {
      w.fetched++
      w.active++
    }
    const window = w
    let released = false
    return () => {
      if (released) return
      released = true
      this.#active--
      if (window) window.active--
    }
  }
}
