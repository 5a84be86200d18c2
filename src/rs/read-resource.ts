// GET and HEAD of containers, RDF documents and binaries, with content negotiation and 304s.

import type { Store } from '../store/open-store.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { readTriples } from '../store/resources.ts'
import { readBinary } from './read-binary.ts'
import { HttpError } from '../http/errors.ts'
import { preferredRdfType } from '../rdf/media-types.ts'
import { serializeRdf } from '../rdf/serialize-rdf.ts'
import { containerTriples } from './container-listing.ts'
import { isNotModified, representationEtag } from './conditional.ts'
import { LruCache } from '../lib/lru-cache.ts'

/**
 * Serialized RDF keyed by path, ETag and syntax. The ETag changes on every write of the resource (and of
 * a container's members), so an entry can never be stale; only small bodies are kept, to bound memory.
 */
export type RepresentationCache = LruCache<string, Uint8Array<ArrayBuffer>>
export const makeRepresentationCache = (): RepresentationCache => new LruCache(1000)
const CACHEABLE_BYTES = 64 * 1024

export interface ReadFacts {
  readonly store: Store
  readonly baseUrl: string
  readonly path: string
  readonly meta: ResourceMeta
  readonly accept: string | null
  readonly requestHeaders: Headers
  readonly head: boolean
  /** Resource headers already decided (Link, Allow, WAC-Allow …); the answer's are added to it. */
  readonly headers: Headers
  readonly cache: RepresentationCache
}

/** RFC 9110 §5.6.7 IMF-fixdate of a modification time; the same few times are formatted on every read. */
const httpDates = new LruCache<number, string>(1000)
const httpDate = (ms: number): string => httpDates.memo(ms, (t) => new Date(t).toUTCString())

export async function readResource(f: ReadFacts): Promise<Response> {
  const { meta, headers } = f
  const mediaType = meta.kind === 'binary' ? meta.contentType : preferredRdfType(f.accept)
  if (mediaType === undefined) {
    throw new HttpError(406, 'not_acceptable', 'this resource is RDF: accept text/turtle, application/ld+json or application/n-triples',
      { headers: Object.fromEntries(headers) })
  }
  const etag = representationEtag(meta, mediaType)
  // append: these names are not in the resource headers yet, and append skips set's search for them
  headers.append('etag', etag)
  headers.append('last-modified', httpDate(meta.modified))
  headers.append('content-type', meta.kind === 'binary' ? meta.contentType : `${mediaType}; charset=utf-8`)
  if (isNotModified(f.requestHeaders, etag, meta.modified)) return new Response(null, { status: 304, headers })
  const url = f.baseUrl + f.path
  if (meta.kind === 'binary') return readBinary({ store: f.store, meta, etag, requestHeaders: f.requestHeaders, head: f.head, headers })
  const key = `${f.path}\0${etag}`
  let bytes = f.cache.get(key)
  if (!bytes) {
    const triples = await readTriples(f.store, f.baseUrl, f.path)
    if (meta.kind === 'container') triples.push(...await containerTriples(f.store, f.baseUrl, f.path))
    bytes = new TextEncoder().encode(await serializeRdf(triples, mediaType, url, meta.prefixes))
    if (bytes.byteLength <= CACHEABLE_BYTES) f.cache.set(key, bytes)
  }
  headers.append('content-length', String(bytes.byteLength))
  return new Response(f.head ? null : bytes, { status: 200, headers })
}
