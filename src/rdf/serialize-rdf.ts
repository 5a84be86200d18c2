// Writing quads as Turtle, N-Triples or JSON-LD (one document) or as N-Quads/TriG (export).

import type { Quad, Term } from '@rdfjs/types'
import type { JsonLdQuad, JsonLdTerm } from 'jsonld'
import { DataFactory, Writer } from '../lib/n3.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { HttpError } from '../http/errors.ts'
import { JSON_LD, N_QUADS, N_TRIPLES, RDF_SERIALIZE_TYPES, TRIG, TURTLE, mediaTypeOf } from './media-types.ts'
import { PREFIXES, RDF, SEC } from './namespaces.ts'
import { inStatementOrder } from './statement-order.ts'
import { DID_V1_CONTEXT, JWS_2020_V1_CONTEXT, loadBundledContext, loadJsonLd } from './jsonld-contexts.ts'

const RDF_JSON = RDF('JSON')
// Written as `a` (Turtle §2.4), so it needs no prefix.
const RDF_TYPE = RDF('type')
// Stands in for rdf:JSON on a literal that is not JSON, which jsonld.js would refuse to write.
const UNPARSED_JSON = 'urn:solopod:unparsed-rdf-json'

/**
 * `quads` in `mediaType`. Turtle, N-Triples and JSON-LD are written as one graph, so graph names
 * are dropped there (a resource's triples live in the named graph of its URL; a document's own
 * named graphs go through `serializeDocument`); N-Quads and TriG keep them. Turtle and TriG write IRIs relative to `@base <baseIRI>` and declare, of the document's
 * own `prefixes` (first, as written) and the standard PREFIXES, only those the text uses.
 * Throws 406 `not_acceptable` for any other type.
 */
export async function serializeRdf(quads: readonly Quad[], mediaType: string, baseIRI: string, prefixes?: Record<string, string>): Promise<string> {
  const type = mediaTypeOf(mediaType)
  switch (type) {
    case TURTLE:
      return writeTurtle(quads, baseIRI, prefixes)
    case TRIG:
      return writeWithPrefixes(inStatementOrder(quads), 'TriG', baseIRI, prefixes)
    case N_TRIPLES:
      return write(new Writer({ format: 'N-Triples' }), quads.map(inDefaultGraph))
    case N_QUADS:
      return write(new Writer({ format: 'N-Quads' }), quads)
    case JSON_LD:
      return writeJsonLd(quads.map(inDefaultGraph), baseIRI)
  }
  throw new HttpError(406, 'not_acceptable', `cannot write ${type ?? 'no media type'}; expected one of ${RDF_SERIALIZE_TYPES.join(', ')}`)
}

/**
 * A document in `mediaType`: its default graph's `triples` and its own `namedGraphs` (quads named by
 * the document, rdf/graph-statements.ts). JSON-LD writes those as `@graph` under their `@id`, TriG
 * and N-Quads with their names; Turtle and N-Triples cannot, so a document holding any is refused
 * there with 406 rather than served without them (media-types.ts never picks those for it).
 */
export async function serializeDocument(
  triples: readonly Quad[],
  namedGraphs: readonly Quad[],
  mediaType: string,
  baseIRI: string,
  prefixes?: Record<string, string>,
): Promise<string> {
  if (namedGraphs.length === 0) return serializeRdf(triples, mediaType, baseIRI, prefixes)
  const type = mediaTypeOf(mediaType)
  const quads = [...triples.map(inDefaultGraph), ...namedGraphs]
  if (type === TRIG || type === N_QUADS) return serializeRdf(quads, type, baseIRI, prefixes)
  if (type === JSON_LD) return writeJsonLd(quads, baseIRI)
  throw new HttpError(406, 'not_acceptable', `${NAMED_GRAPHS_NOT_IN_ONE_GRAPH}; cannot write ${type ?? 'no media type'}`)
}

/** Why a document with named graphs is not served as Turtle or N-Triples (a 406's description). */
export const NAMED_GRAPHS_NOT_IN_ONE_GRAPH =
  'this document holds named graphs, which Turtle and N-Triples cannot carry: accept application/trig, application/ld+json or application/n-quads'

/**
 * The whole text. Without an output stream n3's writer collects into a string and hands it to `end`'s
 * callback at once, never with an error, so writing needs no promise.
 */
function write(writer: Writer, quads: readonly Quad[]): string {
  writer.addQuads(quads as Quad[])
  let text = ''
  writer.end((_, result: string) => {
    text = result
  })
  return text
}

/** The Turtle a GET serves, the same text `turtleByteLength` measures. */
const writeTurtle = (quads: readonly Quad[], baseIRI: string, own?: Record<string, string>) =>
  writeWithPrefixes(inStatementOrder(quads.map(inDefaultGraph)), 'Turtle', baseIRI, own)

/**
 * Turtle or TriG with `@base` (so the document means the same when saved or served elsewhere) and
 * only the prefixes the text uses. The prefixes go in after the base line, where n3's writer puts
 * those given to its constructor, once `usedPrefixes` has asked this writer's base which IRIs it
 * writes relative.
 */
function writeWithPrefixes(quads: readonly Quad[], format: 'Turtle' | 'TriG', baseIRI: string, own?: Record<string, string>): string {
  const writer = new Writer({ format, ...(baseIRI ? { baseIRI, writeBase: true } : {}) })
  writer.addPrefixes(usedPrefixes(quads, own, (writer as unknown as TermEncoder)._baseIri))
  return write(writer, quads)
}

const inDefaultGraph = (q: Quad): Quad => (q.graph.termType === 'DefaultGraph' ? q : DataFactory.quad(q.subject, q.predicate, q.object))

/**
 * The document's own prefixes first (people read their pods as they wrote them), then each
 * standard one whose name and namespace the document did not already declare.
 */
function candidates(own: Record<string, string> = {}): Record<string, string> {
  const out = { ...own }
  const namespaces = new Set(Object.values(own))
  for (const [name, ns] of Object.entries(PREFIXES)) if (!(name in out) && !namespaces.has(ns)) out[name] = ns
  return out
}

/** What of n3's Writer (n3 2.x) decides how a term is written: its two encoders and its base. */
interface TermEncoder {
  _encodeIriOrBlank(t: Term): string
  _encodeLiteral(t: Term): string
  _baseIri?: { toRelative(iri: string): string }
}

/**
 * Writers that only encode terms, one per set of a document's own prefixes (most documents have
 * none, or the few of one app). Building one costs more than encoding a small document's terms
 * (n3 escapes every prefix IRI for its matcher), and they hold no base, so any document can use
 * them: the bound is a memory bound, the answer the same with or without the memo.
 */
const PROBES = 64
interface Probe {
  readonly encoder: TermEncoder
  readonly prefixes: Record<string, string>
}
const probes = forgetWhenIdle(new LruCache<string, Probe>(PROBES))
const probeFor = (own: Record<string, string> = {}): Probe =>
  probes.memo(JSON.stringify(own), () => {
    const prefixes = candidates(own)
    return { encoder: new Writer({ format: 'Turtle', prefixes }) as unknown as TermEncoder, prefixes }
  })

/**
 * Only the prefixes the written text will use: n3's writer is asked how it would write each
 * distinct IRI (base-relative, prefixed name or `<…>`) and each literal (`5`, `"x"@en` and
 * plain strings carry no datatype), so no `xsd:` is declared for numbers, and no prefix for
 * IRIs that come out relative to the base. As n3 does, an IRI is made relative first, then
 * matched against the prefixes; the probe holds no base, so `base` (the writer's) does the first step.
 */
function usedPrefixes(quads: readonly Quad[], own: Record<string, string> | undefined, base: TermEncoder['_baseIri']): Record<string, string> {
  const { encoder: probe, prefixes } = probeFor(own)
  const seen = new Set<string>()
  const names = new Set<string>()
  const visitIri = (t: Term) => {
    if (seen.has(t.value)) return
    seen.add(t.value)
    const written = probe._encodeIriOrBlank(base ? DataFactory.namedNode(base.toRelative(t.value)) : t)
    if (!written.startsWith('<')) names.add(written.slice(0, written.indexOf(':')))
  }
  const visit = (t: Term) => {
    if (t.termType === 'NamedNode') visitIri(t)
    else if (t.termType === 'Literal' && !t.language) {
      // A literal's value is escaped, so the last `"^^` is where its written datatype begins.
      const written = probe._encodeLiteral(t)
      if (written.lastIndexOf('"^^') >= 0) visitIri(t.datatype)
    } else if (t.termType === 'Quad') for (const part of [t.subject, t.predicate, t.object]) visit(part)
  }
  for (const q of quads) {
    visit(q.subject)
    if (q.predicate.value !== RDF_TYPE) visit(q.predicate)
    visit(q.object)
    visit(q.graph)
  }
  const chosen: Record<string, string> = {}
  for (const [name, ns] of Object.entries(prefixes)) if (names.has(name)) chosen[name] = ns
  return chosen
}

/** HttpSig key documents are served in the shape DID/JWS-2020 tools read: these two contexts, in this order. */
const KEY_DOCUMENT_CONTEXT = [DID_V1_CONTEXT, JWS_2020_V1_CONTEXT]
const isKeyDocument = (quads: readonly Quad[]) => quads.some(q => q.predicate.value === RDF('type') && q.object.value === SEC('JsonWebKey2020'))

/**
 * Expanded JSON-LD (a node array; absolute IRIs, so no context to fetch): re-parses to the same
 * graph. rdf:JSON literals become `@json` values (JSON-LD 1.1 §4.2.2). A key document is compacted
 * with the DID v1 and JWS-2020 contexts (bundled), so `publicKeyJwk` reads as a plain JWK object.
 */
async function writeJsonLd(quads: readonly Quad[], baseIRI: string): Promise<string> {
  const dataset = quads.map(
    q =>
      ({
        subject: plainTerm(q.subject),
        predicate: plainTerm(q.predicate),
        object: plainTerm(q.object),
        graph: q.graph.termType === 'DefaultGraph' ? { termType: 'DefaultGraph', value: '' } : plainTerm(q.graph),
      }) satisfies JsonLdQuad,
  )
  const jsonld = await loadJsonLd()
  const doc = restoreUnparsedJson(await jsonld.fromRDF(dataset))
  if (!isKeyDocument(quads) || quads.some(q => q.graph.termType !== 'DefaultGraph')) return `${JSON.stringify(doc, null, 2)}\n`
  const compact = await jsonld.compact(doc as object, KEY_DOCUMENT_CONTEXT, { base: baseIRI, documentLoader: loadBundledContext })
  return `${JSON.stringify(compact, null, 2)}\n`
}

function plainTerm(t: Term): JsonLdTerm {
  if (t.termType === 'NamedNode' || t.termType === 'BlankNode') return { termType: t.termType, value: t.value }
  if (t.termType !== 'Literal') throw new Error(`cannot write a ${t.termType} term as JSON-LD`)
  if (t.language) return { termType: 'Literal', value: t.value, language: t.language, datatype: { termType: 'NamedNode', value: t.datatype.value } }
  const datatype = t.datatype.value === RDF_JSON && !isJson(t.value) ? UNPARSED_JSON : t.datatype.value
  return { termType: 'Literal', value: t.value, datatype: { termType: 'NamedNode', value: datatype } }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false // the answer is the result: an ill-typed literal is written as a plain typed value
  }
}

/**
 * Put rdf:JSON back on ill-typed literals: `{"@value": "…", "@type": rdf:JSON}` (an IRI, not
 * `@json`) re-parses to the very same literal, so a bad literal stored earlier still reads back.
 */
function restoreUnparsedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restoreUnparsedJson)
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  if ('@value' in record) return record['@type'] === UNPARSED_JSON ? { ...record, '@type': RDF_JSON } : record
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, restoreUnparsedJson(v)]))
}

const utf8 = new TextEncoder()

/** stat:size of an RDF document: the byte length of the Turtle a GET serves (whatever syntax was written). */
export function turtleByteLength(quads: readonly Quad[], baseIRI: string, prefixes?: Record<string, string>): number {
  return utf8.encode(writeTurtle(quads, baseIRI, prefixes)).byteLength
}

/** stat:size of a document with named graphs: the byte length of the TriG a GET serves it in by default. */
export function trigByteLength(quads: readonly Quad[], baseIRI: string, prefixes?: Record<string, string>): number {
  return utf8.encode(writeWithPrefixes(inStatementOrder(quads), 'TriG', baseIRI, prefixes)).byteLength
}
