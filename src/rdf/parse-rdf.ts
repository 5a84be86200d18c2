// Reading an RDF document (Turtle, N-Triples, JSON-LD, TriG, N-Quads) into its triples, and its named graphs where asked.

import type { BlankNode, Quad, Term } from '@rdfjs/types'
import type { JsonLdError, JsonLdEvent, JsonLdQuad, JsonLdTerm } from 'jsonld'
import { DataFactory, Parser } from '../lib/n3.ts'
import { HttpError } from '../http/errors.ts'
import { loadBundledContext, loadJsonLd } from './jsonld-contexts.ts'
import { JSON_LD, N_QUADS, N_TRIPLES, RDF_DOCUMENT_TYPES, TRIG, TURTLE, mediaTypeOf } from './media-types.ts'
import { RDF } from './namespaces.ts'
import { n3ErrorPosition } from './n3-error-position.ts'
import { withJsonPosition } from './json-error-position.ts'

const { blankNode, defaultGraph, literal, namedNode, quad } = DataFactory
const RDF_JSON = RDF('JSON')

/**
 * The triples of `body`, relative IRIs resolved against `baseIRI`, all in the default graph.
 * Throws 415 `unsupported_media_type` for a non-RDF type and 400 `invalid_rdf` for a body
 * that does not parse, names a graph, or holds an `rdf:JSON` literal that is not JSON.
 */
export async function parseRdf(body: string, mediaType: string, baseIRI: string): Promise<Quad[]> {
  return (await parseRdfDocument(body, mediaType, baseIRI)).triples
}

/**
 * An RDF document's triples (its default graph), the quads of its named graphs (empty unless asked
 * for), and the prefixes it declared (Turtle, TriG), in the order it declared them.
 */
export interface ParsedDocument {
  readonly triples: Quad[]
  readonly namedGraphs: Quad[]
  readonly prefixes: Record<string, string>
}

/** What a parse takes besides the default graph. */
export interface ParseOptions {
  /**
   * Keep a dataset's named graphs (a pod document may hold them, rdf/graph-statements.ts); without
   * this a named graph is refused with 400 `invalid_rdf`, as remote profiles and key documents are read as one graph.
   */
  readonly namedGraphs?: boolean
}

/** parseRdf, keeping the document's prefixes too, so it can be served back as it was written. */
export async function parseRdfDocument(body: string, mediaType: string, baseIRI: string, options: ParseOptions = {}): Promise<ParsedDocument> {
  const type = mediaTypeOf(mediaType)
  const prefixes: Record<string, string> = {}
  let quads: Quad[]
  if (type === TURTLE || type === N_TRIPLES || type === TRIG || type === N_QUADS) quads = parseTurtleFamily(body, type, baseIRI, prefixes)
  else if (type === JSON_LD) quads = await withJsonPosition(type, body, () => parseJsonLd(body, baseIRI))
  else {
    throw new HttpError(415, 'unsupported_media_type', `expected one of ${RDF_DOCUMENT_TYPES.join(', ')}, got ${type ?? 'no media type'}`)
  }
  const checked = quads.map(checkQuad)
  const triples = checked.filter(q => q.graph.termType === 'DefaultGraph')
  const namedGraphs = checked.filter(q => q.graph.termType !== 'DefaultGraph')
  if (!options.namedGraphs && namedGraphs.length > 0) {
    throw new HttpError(400, 'invalid_rdf', `expected one graph; found a triple in graph <${namedGraphs[0]!.graph.value}>`)
  }
  return { triples, namedGraphs, prefixes }
}

const SYNTAX_NAMES: Record<string, string> = { [TURTLE]: 'Turtle', [N_TRIPLES]: 'N-Triples', [TRIG]: 'TriG', [N_QUADS]: 'N-Quads' }

function parseTurtleFamily(body: string, type: string, baseIRI: string, prefixes: Record<string, string>): Quad[] {
  try {
    return new Parser({ format: type, baseIRI }).parse(body, null as never, (prefix: string, iri: { value: string }) => {
      prefixes[prefix] = iri.value
    })
  } catch (err) {
    const { line, column } = n3ErrorPosition(err, body)
    const reason = err instanceof Error ? err.message.replace(/ on line \d+\.$/, '') : String(err)
    const syntax = SYNTAX_NAMES[type]
    throw new HttpError(400, 'invalid_rdf', `${syntax} syntax error at line ${line}, column ${column}: ${reason}`, { cause: err })
  }
}

async function parseJsonLd(body: string, baseIRI: string): Promise<Quad[]> {
  let document: unknown
  try {
    document = JSON.parse(body)
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^JSON Parse error: /, '') : String(err)
    throw new HttpError(400, 'invalid_rdf', `invalid JSON: ${reason}`, { cause: err })
  }
  // jsonld.js would take a bare string for a URL to load; a document is an object or an array.
  if (document === null || typeof document !== 'object') {
    throw new HttpError(400, 'invalid_rdf', 'invalid JSON-LD: a document is a JSON object or array')
  }
  // jsonld.js drops the loader's error when a term-scoped context fails to load; remember it.
  let refused: HttpError | undefined
  const documentLoader = (url: string) =>
    loadBundledContext(url).catch((err: unknown) => {
      if (err instanceof HttpError) refused = err
      throw err
    })
  let dataset: JsonLdQuad[]
  try {
    dataset = await (await loadJsonLd()).toRDF(document, { base: baseIRI, documentLoader, eventHandler: refuseLossyEvents })
  } catch (err) {
    throw refused ?? jsonLdFailure(err)
  }
  // jsonld.js numbers blank nodes _:b0, _:b1 per call; fresh n3 labels keep two documents'
  // blank nodes apart if their triples ever meet.
  const blanks = new Map<string, BlankNode>()
  const term = (t: JsonLdTerm): Term => {
    if (t.termType === 'NamedNode') return namedNode(t.value)
    if (t.termType === 'DefaultGraph') return defaultGraph()
    if (t.termType === 'BlankNode') {
      let node = blanks.get(t.value)
      if (!node) blanks.set(t.value, (node = blankNode()))
      return node
    }
    return literal(t.value, t.language || namedNode(t.datatype?.value ?? ''))
  }
  return dataset.map(q =>
    quad(term(q.subject) as Quad['subject'], term(q.predicate) as Quad['predicate'], term(q.object) as Quad['object'], term(q.graph) as Quad['graph']),
  )
}

/**
 * jsonld.js warns and silently drops what it cannot map to an IRI (an undefined term, a relative
 * reference with no base, a text direction). A pod that stores less than it acknowledged loses
 * data, so those warnings refuse the document instead.
 */
const LOSSY_EVENTS = new Set([
  'invalid property',
  'relative @id reference',
  'relative @type reference',
  'relative @vocab reference',
  'relative subject reference',
  'relative predicate reference',
  'relative object reference',
  'relative graph reference',
  'blank node predicate',
  'reserved term',
  'reserved @id value',
  'reserved @reverse value',
  'rdfDirection not set',
])

function refuseLossyEvents({ event, next }: { event: JsonLdEvent; next: () => void }): void {
  if (!LOSSY_EVENTS.has(event.code)) return next()
  const details = JSON.stringify(event.details ?? {})
  throw new HttpError(400, 'invalid_rdf', `invalid JSON-LD (${event.code}): ${event.message} ${details.length > 200 ? `${details.slice(0, 200)}…` : details}`)
}

/** A jsonld.js error as 400 `invalid_rdf`; our own refusals from the event handler pass unchanged. */
function jsonLdFailure(err: unknown): HttpError {
  if (err instanceof HttpError) return err
  const e = err as JsonLdError
  const code = e.details?.code ?? e.name ?? 'error'
  return new HttpError(400, 'invalid_rdf', `invalid JSON-LD (${code}): ${e.message ?? String(err)}`, { cause: err })
}

/** RDF 1.1 terms, and `rdf:JSON` in its canonical lexical form. */
function checkQuad(q: Quad): Quad {
  if (q.subject.termType === 'Quad' || q.object.termType === 'Quad') {
    throw new HttpError(400, 'invalid_rdf', 'RDF 1.2 triple terms are not supported')
  }
  if (q.object.termType !== 'Literal' || q.object.datatype.value !== RDF_JSON) return q
  let value: unknown
  try {
    value = JSON.parse(q.object.value)
  } catch (err) {
    throw new HttpError(400, 'invalid_rdf', 'an rdf:JSON literal is not valid JSON', { cause: err })
  }
  // HttpSig draft (key documents): JSON-LD writes @json values in JCS form (RFC 8785); storing Turtle's
  // rdf:JSON the same way makes Turtle and JSON-LD of one key document the same graph.
  return quad(q.subject, q.predicate, literal(canonicalJson(value), namedNode(RDF_JSON)), q.graph)
}

/** RFC 8785 JCS: keys sorted by UTF-16 code units, ECMAScript number and string forms. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const members = Object.keys(record)
      .sort()
      .map(k => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value)
}
