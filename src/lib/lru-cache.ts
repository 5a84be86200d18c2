// A size-capped least-recently-used map with optional per-entry expiry: every in-memory cache uses it.

export interface LruCacheOptions {
  /**
   * Upper bound on the summed weights of the entries (each `set` says its entry's weight, e.g. its
   * bytes); the least recently used entries go until the rest fit. An entry heavier than the whole
   * bound is not kept at all.
   */
  readonly maxWeight?: number
}

export class LruCache<K, V> {
  readonly #max: number
  readonly #maxWeight: number
  readonly #map = new Map<K, { value: V; expiresAt: number; weight: number }>()
  #weight = 0
  /**
   * The key set last, while it is still the most recently used: a hit on it (one client's proof header, htu, token,
   * again and again) leaves the map as it is. Moving it would delete and re-insert it under the caller's key: a new
   * string each request, which the map (long-lived) would then hold, so it survives a young collection, and the
   * deletions leave holes the map rehashes away. Measured on a hit with a fresh 273-character key: see
   * docs/performance.md, issue 41 fourth pass.
   */
  #newest: K | undefined
  #hasNewest = false

  constructor(maxEntries: number, o: LruCacheOptions = {}) {
    if (!(maxEntries > 0)) throw new Error('LruCache needs a positive size')
    if (o.maxWeight !== undefined && !(o.maxWeight > 0)) throw new Error('LruCache needs a positive maxWeight')
    this.#max = maxEntries
    this.#maxWeight = o.maxWeight ?? Number.POSITIVE_INFINITY
  }

  get size() {
    return this.#map.size
  }

  /** The summed weights of the entries held now. */
  get weight() {
    return this.#weight
  }

  /** `now` is passed in so callers control time in tests. */
  get(key: K, now: number = Date.now()): V | undefined {
    const entry = this.#map.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now) {
      this.delete(key)
      return undefined
    }
    this.#touch(key, entry)
    return entry.value
  }

  /**
   * The value kept for `key`, or `compute(key)` kept from now on (never expiring): a bounded memo of a
   * pure function, where a flood of distinct keys pushes out the least used ones and costs memory up to
   * the cap only. A kept `undefined` counts as a value.
   */
  memo(key: K, compute: (key: K) => V): V {
    const entry = this.#map.get(key)
    if (entry) {
      this.#touch(key, entry)
      return entry.value
    }
    const value = compute(key)
    this.set(key, value)
    return value
  }

  /** Makes `key`'s entry the most recently used. */
  #touch(key: K, entry: { value: V; expiresAt: number; weight: number }): void {
    if (this.#hasNewest && this.#newest === key) return
    this.#map.delete(key)
    this.#map.set(key, entry)
    this.#newest = key
    this.#hasNewest = true
  }

  set(key: K, value: V, expiresAt: number = Number.POSITIVE_INFINITY, weight = 0): void {
    this.delete(key)
    if (weight > this.#maxWeight) return
    this.#map.set(key, { value, expiresAt, weight })
    this.#newest = key
    this.#hasNewest = true
    this.#weight += weight
    while (this.#map.size > this.#max || this.#weight > this.#maxWeight) this.delete(this.#map.keys().next().value as K)
  }

  delete(key: K): void {
    const entry = this.#map.get(key)
    if (!entry) return
    this.#map.delete(key)
    this.#weight -= entry.weight
    if (this.#hasNewest && this.#newest === key) this.#forgetNewest()
  }

  #forgetNewest(): void {
    this.#newest = undefined
    this.#hasNewest = false
  }

  clear(): void {
    this.#map.clear()
    this.#weight = 0
    this.#forgetNewest()
  }
}
