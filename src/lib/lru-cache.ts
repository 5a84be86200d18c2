// A size-capped least-recently-used map with optional per-entry expiry: every in-memory cache uses it.

export class LruCache<K, V> {
  readonly #max: number
  readonly #map = new Map<K, { value: V; expiresAt: number }>()

  constructor(maxEntries: number) {
    if (!(maxEntries > 0)) throw new Error('LruCache needs a positive size')
    this.#max = maxEntries
  }

  get size() { return this.#map.size }

  /** `now` is passed in so callers control time in tests. */
  get(key: K, now: number = Date.now()): V | undefined {
    const entry = this.#map.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now) { this.#map.delete(key); return undefined }
    this.#map.delete(key)
    this.#map.set(key, entry)
    return entry.value
  }

  set(key: K, value: V, expiresAt: number = Number.POSITIVE_INFINITY): void {
    this.#map.delete(key)
    this.#map.set(key, { value, expiresAt })
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as K)
  }

  delete(key: K): void { this.#map.delete(key) }

  clear(): void { this.#map.clear() }
}
