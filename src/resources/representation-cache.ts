// Serialized RDF of small representations, kept between reads.

import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'

/**
 * Serialized RDF keyed by path, ETag and syntax. The ETag changes on every write of the resource (and of
 * a container's members), so an entry can never be stale; only small bodies are kept, and all of them together
 * weigh at most the cache's share of the memory budget (lib/memory-budget.ts): before it, 1,000 bodies of up to
 * 64 KiB could hold 64 MiB per cache.
 */
export type RepresentationCache = LruCache<string, Uint8Array<ArrayBuffer>>
export const makeRepresentationCache = (maxBytes: number): RepresentationCache => forgetWhenIdle(new LruCache(1000, { maxWeight: maxBytes }))
export const CACHEABLE_BYTES = 64 * 1024

/** Keeps `bytes` under `key` when small enough, weighed by their length. */
export function keepRepresentation(cache: RepresentationCache, key: string, bytes: Uint8Array<ArrayBuffer>): void {
  if (bytes.byteLength <= CACHEABLE_BYTES) cache.set(key, bytes, undefined, bytes.byteLength)
}
