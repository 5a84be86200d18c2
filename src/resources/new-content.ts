// Turns a write's body into what the store keeps: RDF triples or exact bytes.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import type { NewContent } from '../store/resources.ts'
import type { StoredBlob } from '../store/blob-store.ts'
import { isContainerPath } from '../store/paths.ts'
import { isAcl } from '../store/acl-names.ts'
import { isRdfType, mediaTypeOf, TURTLE } from '../rdf/media-types.ts'
import type { ParsedDocument } from '../rdf/parse-rdf.ts'
import { parseRdfDocumentOffThread } from '../rdf/parse-off-thread.ts'
import { trigByteLength, turtleByteLength } from '../rdf/serialize-rdf.ts'
import { checkNoReservedTerms, describeGraphStatements } from '../rdf/graph-statements.ts'
import { decodeUtf8, type RequestBody } from '../auth/request-body.ts'
import { checkKeyDocument } from '../auth/httpsig/key-document.ts'
import type { Store } from '../store/open-store.ts'
import { LDP } from '../rdf/namespaces.ts'

/**
 * A write's body as received: RDF read whole (it is parsed, and its IRIs resolve against the target's URL,
 * which a POST may still change), or a file already streamed to the blob store.
 */
export type IncomingBody = { readonly rdf: RequestBody } | { readonly file: NewContent & { readonly blob: StoredBlob } }

const ACL_NOT_RDF = 'an ACL document must be RDF (text/turtle, application/ld+json or application/n-triples)'
const CONTAINER_NOT_RDF = 'a container body must be RDF (text/turtle, application/ld+json or application/n-triples)'

/**
 * A PUT whose Content-Type the target cannot take, refused from the headers before a byte is read: a container
 * or an ACL document is RDF, so a film sent there is not first stored (or read) to be refused.
 */
export function checkBodyTypeFor(path: string, contentType: string | null) {
  const mediaType = mediaTypeOf(contentType)
  if (mediaType === undefined || isRdfType(mediaType)) return
  if (isContainerPath(path)) throw new HttpError(415, 'unsupported_media_type', CONTAINER_NOT_RDF)
  if (isAcl(path)) throw new HttpError(415, 'unsupported_media_type', ACL_NOT_RDF)
}

/** A file's body as a write takes it, from its stored blob. */
export const fileBody = (contentType: string, blob: StoredBlob): IncomingBody => ({ file: { kind: 'binary', contentType, blob, size: blob.size } })

/** What the store keeps for `path` from a received body. */
export async function contentFor(body: IncomingBody, path: string, url: string): Promise<NewContent> {
  if ('rdf' in body) return contentFromBody(body.rdf, path, url)
  // ACL documents are read by the pod itself, so they must be RDF it understands.
  if (isAcl(path)) throw new HttpError(415, 'unsupported_media_type', ACL_NOT_RDF)
  return body.file
}

/** A received file no write took: its blob goes at once (nothing ever named it). */
export function discardBody(store: Store, body: IncomingBody | undefined) {
  if (body && 'file' in body) store.blobs.discard(body.file.blob.id)
}

async function contentFromBody(body: RequestBody, path: string, url: string): Promise<NewContent> {
  const { bytes, mediaType } = body
  if (isContainerPath(path)) {
    if (bytes.byteLength === 0) return { kind: 'container', contentType: TURTLE, triples: [], size: 0 }
    if (!isRdfType(mediaType!)) throw new HttpError(415, 'unsupported_media_type', CONTAINER_NOT_RDF)
    // A container's description is one graph: its named graphs are refused (400 invalid_rdf).
    const doc = await parseBody(bytes, mediaType!, url, false)
    return rdfContent('container', doc.triples, url, doc.prefixes)
  }
  if (!mediaType) throw new HttpError(400, 'missing_content_type', 'creating a document needs a Content-Type header')
  if (isRdfType(mediaType)) {
    const doc = await parseBody(bytes, mediaType, url, true)
    return rdfContent('rdf', doc.triples, url, doc.prefixes, doc.namedGraphs)
  }
  // receiveBody streams every other type to a file; what reaches here is RDF or a body it kept whole for a container or an ACL.
  throw new HttpError(415, 'unsupported_media_type', isAcl(path) ? ACL_NOT_RDF : `${mediaType} is not RDF; send it to a document (a URL not ending in /)`)
}

// A large body is parsed on the worker thread, so other requests keep being answered meanwhile.
function parseBody(bytes: Uint8Array, mediaType: string, url: string, namedGraphs: boolean): Promise<ParsedDocument> {
  return parseRdfDocumentOffThread(decodeUtf8(bytes), mediaType, url, { namedGraphs })
}

/**
 * What the store keeps for RDF. `size` (stat:size in listings) is the byte length of the Turtle a
 * GET serves, whatever syntax was written and however a PATCH changed it. `prefixes` are the
 * document's own, kept so a GET writes it back with them. `namedGraphs` (the document's own) are
 * kept among its triples as described in rdf/graph-statements.ts; such a document's size is that of
 * the TriG a GET serves.
 */
export async function rdfContent(
  kind: 'rdf' | 'container',
  triples: Quad[],
  url: string,
  prefixes?: Record<string, string>,
  namedGraphs: readonly Quad[] = [],
): Promise<NewContent> {
  if (kind === 'container' && triples.some(q => isServerManaged(q, url))) {
    throw new HttpError(409, 'server_managed', 'ldp:contains is managed by the server: add or remove members by writing or deleting them')
  }
  checkNoReservedTerms(triples)
  checkNoReservedTerms(namedGraphs)
  // Key documents anywhere (HttpSig): a private key is never stored, a key nobody could verify with is refused.
  checkKeyDocument(triples)
  const own = prefixes && Object.keys(prefixes).length > 0 ? { prefixes } : {}
  if (namedGraphs.length === 0) return { kind, contentType: TURTLE, triples, size: turtleByteLength(triples, url, prefixes), ...own }
  const size = trigByteLength([...triples, ...namedGraphs], url, prefixes)
  return { kind, contentType: TURTLE, triples: [...triples, ...describeGraphStatements(namedGraphs)], size, namedGraphs: true, ...own }
}

/** Server-managed predicates a client may not write into a container's own graph (Solid §5.3: 409). */
export const isServerManaged = (q: Quad, containerUrl: string) => q.predicate.value === LDP('contains') && q.subject.value === containerUrl
