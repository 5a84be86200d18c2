// The RDF media types the pod reads and writes, how a Content-Type header names one, which one a GET answers in.

import { negotiate } from '../http/content-negotiation.ts'
import { LruCache } from '../lib/lru-cache.ts'

export const TURTLE = 'text/turtle'
export const JSON_LD = 'application/ld+json'
export const N_TRIPLES = 'application/n-triples'
/** Export only: these carry graph names, and a Solid document is one graph. */
export const N_QUADS = 'application/n-quads'
export const TRIG = 'application/trig'

/** Syntaxes a client may PUT/POST as an RDF document (Solid Protocol: Turtle and JSON-LD MUST). */
export const RDF_DOCUMENT_TYPES: readonly string[] = [TURTLE, JSON_LD, N_TRIPLES]

/** Syntaxes `serializeRdf` can write: the document types plus the graph-aware export types. */
export const RDF_SERIALIZE_TYPES: readonly string[] = [...RDF_DOCUMENT_TYPES, N_QUADS, TRIG]

/** Whether a body of this media type is stored as an RDF document rather than as bytes. */
export function isRdfType(mediaType: string): boolean {
  return RDF_DOCUMENT_TYPES.includes(mediaType)
}

/**
 * The bare media type of a Content-Type value: parameters (`; charset=utf-8`) dropped,
 * lowercased (RFC 9110 §8.3.1: type and subtype are case-insensitive).
 * `undefined` when the header is absent or names no type.
 */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  const bare = contentType?.split(';', 1)[0]?.trim().toLowerCase()
  return bare ? bare : undefined
}

/** What GET/HEAD of an RDF document can answer in, in order of preference (Turtle first). */
export const RDF_OFFERS: readonly string[] = [TURTLE, JSON_LD, N_TRIPLES]

// Clients send the same few Accept values on every request: parse each once.
const preferred = new LruCache<string | null, string | undefined>(256)

/**
 * The syntax to answer a GET of an RDF document in. A browser asking for `text/html` without a
 * wildcard still gets Turtle: showing the source beats a bare 406 to a person following a link.
 */
export const preferredRdfType = (accept: string | null): string | undefined => preferred.memo(accept, choosePreferredRdfType)

function choosePreferredRdfType(accept: string | null): string | undefined {
  const chosen = negotiate(accept, RDF_OFFERS)
  if (chosen !== undefined) return chosen
  return negotiate(accept, ['text/html']) === undefined ? undefined : TURTLE
}
