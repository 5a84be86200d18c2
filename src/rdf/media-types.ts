// The RDF media types the pod reads and writes, how a Content-Type header names one, which one a GET answers in.

import { negotiate } from '../http/content-negotiation.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'

export const TURTLE = 'text/turtle'
export const JSON_LD = 'application/ld+json'
export const N_TRIPLES = 'application/n-triples'
/** These two carry graph names (as JSON-LD does): a document's own named graphs, and the export. */
export const N_QUADS = 'application/n-quads'
export const TRIG = 'application/trig'

/**
 * Syntaxes a client may PUT/POST as an RDF document (Solid Protocol: Turtle and JSON-LD MUST); TriG
 * and N-Quads too, as a document may hold named graphs (rdf/graph-statements.ts).
 */
export const RDF_DOCUMENT_TYPES: readonly string[] = [TURTLE, JSON_LD, N_TRIPLES, TRIG, N_QUADS]

/** Syntaxes `serializeRdf` can write: the same. */
export const RDF_SERIALIZE_TYPES: readonly string[] = RDF_DOCUMENT_TYPES

/** The syntaxes that carry named graphs (RDF 1.1 Datasets); Turtle and N-Triples hold one graph. */
export const DATASET_TYPES: readonly string[] = [TRIG, JSON_LD, N_QUADS]

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

/** What GET/HEAD of a container (and the pod's own RDF answers) can answer in, in order of preference (Turtle first). */
export const RDF_OFFERS: readonly string[] = [TURTLE, JSON_LD, N_TRIPLES]

/** A document of one graph: the container offers, then the dataset syntaxes (its triples in their default graph). */
const DOCUMENT_OFFERS: readonly string[] = [...RDF_OFFERS, TRIG, N_QUADS]

// Clients send the same few Accept values on every request: parse each once.
const preferred = forgetWhenIdle(new LruCache<string | null, string | undefined>(256))

/**
 * The syntax to answer a GET of an RDF document in. A browser asking for `text/html` without a
 * wildcard still gets Turtle: showing the source beats a bare 406 to a person following a link.
 */
export const preferredRdfType = (accept: string | null): string | undefined => preferred.memo(accept, choosePreferredRdfType)

function choosePreferredRdfType(accept: string | null): string | undefined {
  return chooseIn(accept, RDF_OFFERS, TURTLE)
}

function chooseIn(accept: string | null, offers: readonly string[], forHtml: string): string | undefined {
  const chosen = negotiate(accept, offers)
  if (chosen !== undefined) return chosen
  return negotiate(accept, ['text/html']) === undefined ? undefined : forHtml
}

const preferredDocument = forgetWhenIdle(new LruCache<string | null, string | undefined>(256))
const preferredDataset = forgetWhenIdle(new LruCache<string | null, string | undefined>(256))

/**
 * The syntax to answer a GET of an RDF document in. A document holding named graphs is offered
 * only in the syntaxes that carry them (TriG first, as Turtle is for one graph): answering it in
 * Turtle or N-Triples would drop statements without a word, so a client accepting only those gets
 * a 406 that names the others.
 */
export const preferredDocumentType = (accept: string | null, namedGraphs: boolean): string | undefined =>
  namedGraphs ? preferredDataset.memo(accept, a => chooseIn(a, DATASET_TYPES, TRIG)) : preferredDocument.memo(accept, a => chooseIn(a, DOCUMENT_OFFERS, TURTLE))
