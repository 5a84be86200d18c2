// Turns a write's body into what the store keeps: RDF triples or exact bytes.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import type { NewContent } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { isAcl } from '../store/acl-names.ts'
import { isRdfType, TURTLE } from '../rdf/media-types.ts'
import type { ParsedDocument } from '../rdf/parse-rdf.ts'
import { parseRdfDocumentOffThread } from '../rdf/parse-off-thread.ts'
import { turtleByteLength } from '../rdf/serialize-rdf.ts'
import { decodeUtf8, type RequestBody } from './request-body.ts'
import { isServerManaged } from './container-listing.ts'
import { checkKeyDocument } from '../auth/httpsig/key-document.ts'

export async function contentFromBody(body: RequestBody, path: string, url: string): Promise<NewContent> {
  const { bytes, mediaType } = body
  if (isContainerPath(path)) {
    if (bytes.byteLength === 0) return { kind: 'container', contentType: TURTLE, triples: [], size: 0 }
    if (!isRdfType(mediaType!)) throw new HttpError(415, 'unsupported_media_type', 'a container body must be RDF (text/turtle, application/ld+json or application/n-triples)')
    const doc = await parseBody(bytes, mediaType!, url)
    return rdfContent('container', doc.triples, url, doc.prefixes)
  }
  if (!mediaType) throw new HttpError(400, 'missing_content_type', 'creating a document needs a Content-Type header')
  if (isRdfType(mediaType)) {
    const doc = await parseBody(bytes, mediaType, url)
    return rdfContent('rdf', doc.triples, url, doc.prefixes)
  }
  // ACL documents are read by the pod itself, so they must be RDF it understands.
  if (isAcl(path)) throw new HttpError(415, 'unsupported_media_type', 'an ACL document must be RDF (text/turtle, application/ld+json or application/n-triples)')
  return { kind: 'binary', contentType: body.contentType ?? mediaType, body: bytes, size: bytes.byteLength }
}

// A large body is parsed on the worker thread, so other requests keep being answered meanwhile.
function parseBody(bytes: Uint8Array, mediaType: string, url: string): Promise<ParsedDocument> {
  return parseRdfDocumentOffThread(decodeUtf8(bytes), mediaType, url)
}

/**
 * What the store keeps for RDF. `size` (stat:size in listings) is the byte length of the Turtle a
 * GET serves, whatever syntax was written and however a PATCH changed it. `prefixes` are the
 * document's own, kept so a GET writes it back with them.
 */
export async function rdfContent(kind: 'rdf' | 'container', triples: Quad[], url: string, prefixes?: Record<string, string>): Promise<NewContent> {
  if (kind === 'container' && triples.some(q => isServerManaged(q, url))) {
    throw new HttpError(409, 'server_managed', 'ldp:contains is managed by the server: add or remove members by writing or deleting them')
  }
  // Key documents anywhere (HttpSig): a private key is never stored, a key nobody could verify with is refused.
  checkKeyDocument(triples)
  const own = prefixes && Object.keys(prefixes).length > 0 ? { prefixes } : {}
  return { kind, contentType: TURTLE, triples, size: await turtleByteLength(triples, url, prefixes), ...own }
}
