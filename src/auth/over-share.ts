// A client past its share of a per-key replay memory (DPoP jtis, HttpSig nonces): 429 for it alone, one log line an interval.

import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { log } from '../log.ts'
import type { KeysFull } from '../lib/partitioned-replay-memory.ts'

/** An over-share key is logged at most once in this interval, with the count refused since its last line. */
export const OVER_SHARE_LOG_INTERVAL_MS = 60_000

/**
 * A key's values refused because its share is full (how long until a new one is above its horizon),
 * or a new key refused because its issuer holds the most dropped keys and none fit (`keysFull`).
 */
export interface OverShare {
  readonly retryAfterSeconds: number
  readonly perKey: number
  readonly keysFull?: true
}

/** The over-share of a memory's refusal: `untilAfterMs` is a value's `until` minus its time (iat, created). */
export function overShareOf(v: { readonly horizon: number } | KeysFull, untilAfterMs: number, now: number, perKey: number): OverShare {
  if ('keysFull' in v) return { retryAfterSeconds: Math.max(1, Math.ceil((v.retryAtMs - now) / 1000)), perKey, keysFull: true }
  return { retryAfterSeconds: secondsUntilAbove(v.horizon, untilAfterMs, now), perKey }
}

/** One line per key and interval, not one a request: a flood must not flood the log too. */
export class OverShareLog {
  readonly #seen = new LruCache<string, { at: number; refused: number }>(1024)

  constructor(
    readonly event: string,
    readonly perKey: number,
  ) {}

  note(key: string, now: number, fields: Record<string, unknown>): void {
    const seen = this.#seen.get(key, now)
    if (seen && now - seen.at < OVER_SHARE_LOG_INTERVAL_MS) {
      seen.refused++
      return
    }
    log.warn(this.event, { ...fields, perKey: this.perKey, refusedSinceLastLine: seen?.refused ?? 0 })
    this.#seen.set(key, { at: now, refused: 0 })
  }
}

/**
 * Seconds until a value made then (its time = that second: DPoP `iat`, HttpSig `created`) is above
 * the key's horizon. The horizon is a forgotten value's `until`, i.e. its time + `untilAfterMs`;
 * a later second passes it.
 */
export function secondsUntilAbove(horizon: number, untilAfterMs: number, now: number): number {
  const horizonTimeMs = horizon - untilAfterMs
  return Math.max(1, Math.ceil(((Math.floor(horizonTimeMs / 1000) + 1) * 1000 - now) / 1000))
}

/** RFC 6585 §4 429, logged by the memory once an interval (`logged`), not per request by the error handler. */
export function overShareError(o: OverShare, what: string): HttpError {
  const description = o.keysFull
    ? `this key is new and its issuer has more keys in use than this pod remembers at once; reuse a key already in use or try again in ${o.retryAfterSeconds} s`
    : `${what} faster than this pod remembers for one key (${o.perKey} a second); make new ones and try again in ${o.retryAfterSeconds} s`
  return new HttpError(429, 'too_many_requests', description, { headers: { 'retry-after': String(o.retryAfterSeconds) }, logged: true })
}
