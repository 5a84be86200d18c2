// GET and HEAD of containers, RDF documents and binaries as HTTP, for every face that answers with a resource's
// bytes (the resource server, the owner's and visitors' pages): content negotiation, 304s, byte ranges, listing pages.

import type { Quad } from '@rdfjs/types'
import type { Store } from '../store/open-store.ts'
import { readBinary } from './read-binary.ts'
import { HttpError } from '../http/errors.ts'
import { preferredDocumentType, preferredRdfType } from '../rdf/media-types.ts'
import { NAMED_GRAPHS_NOT_IN_ONE_GRAPH, serializeDocument } from '../rdf/serialize-rdf.ts'
import { readDocumentStatements, splitGraphStatements } from './document-statements.ts'
import { isNotModified } from './not-modified.ts'
import { representationEtag, type ResourceMeta } from '../store/resource-meta.ts'
import { keepRepresentation, type RepresentationCache } from './representation-cache.ts'
import { httpDate } from './http-date.ts'
import { readContainer } from './read-container.ts'

/** What the face read of its request: the representation asked for and the client's copy. */
export interface RepresentationRequest {
  readonly accept: string | null
  /** The request URL as sent: a container's listing may be asked for a page. */
  readonly requestUrl: string
  readonly requestHeaders: Headers
  readonly head: boolean
  /** Headers the face already decided (Link, Allow, WAC-Allow …); the answer's are added to it. */
  readonly headers: Headers
}

export interface ReadFacts extends RepresentationRequest {
  readonly store: Store
  readonly baseUrl: string
  readonly path: string
  readonly meta: ResourceMeta
  readonly cache: RepresentationCache
  /** An earlier state's statements (a memento, versions.ts), instead of the stored graph of `path`. */
  readonly statements?: () => Promise<Quad[]>
}

export async function readResource(f: ReadFacts): Promise<Response> {
  const { meta, headers } = f
  const mediaType =
    meta.kind === 'binary' ? meta.contentType : meta.kind === 'rdf' ? preferredDocumentType(f.accept, meta.namedGraphs === true) : preferredRdfType(f.accept)
  if (mediaType === undefined) {
    const accepted = meta.namedGraphs
      ? NAMED_GRAPHS_NOT_IN_ONE_GRAPH
      : meta.kind === 'rdf'
        ? 'this resource is RDF: accept text/turtle, application/ld+json, application/n-triples, application/trig or application/n-quads'
        : 'this resource is RDF: accept text/turtle, application/ld+json or application/n-triples'
    throw new HttpError(406, 'not_acceptable', accepted, { headers: Object.fromEntries(headers) })
  }
  if (meta.kind === 'container') return readContainer({ ...f, mediaType })
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
    const { triples, namedGraphs } = f.statements
      ? splitGraphStatements(await f.statements(), meta)
      : await readDocumentStatements(f.store, f.baseUrl, f.path, meta)
    bytes = new TextEncoder().encode(await serializeDocument(triples, namedGraphs, mediaType, url, meta.prefixes))
    keepRepresentation(f.cache, key, bytes)
  }
  headers.append('content-length', String(bytes.byteLength))
  return new Response(f.head ? null : bytes, { status: 200, headers })
}
