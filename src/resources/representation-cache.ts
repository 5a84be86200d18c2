// Serialized RDF of small representations, kept between reads.

import { LruCache } from '../lib/lru-cache.ts'

/**
 * Serialized RDF keyed by path, ETag and syntax. The ETag changes on every write of the resource (and of
 * a container's members), so an entry can never be stale; only small bodies are kept, to bound memory.
 */
export type RepresentationCache = LruCache<string, Uint8Array<ArrayBuffer>>
export const makeRepresentationCache = (): RepresentationCache => new LruCache(1000)
export const CACHEABLE_BYTES = 64 * 1024
