// Writing quads as Turtle, N-Triples or JSON-LD (one document) or as N-Quads/TriG (export).

import type { Quad, Term } from '@rdfjs/types'
import type { JsonLdQuad, JsonLdTerm } from 'jsonld'
import { BaseIRI, DataFactory, Writer } from '../lib/n3.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { HttpError } from '../http/errors.ts'
import { JSON_LD, N_QUADS, N_TRIPLES, RDF_SERIALIZE_TYPES, TRIG, TURTLE, mediaTypeOf } from './media-types.ts'
import { PREFIXES, RDF, SEC } from './namespaces.ts'
import { inStatementOrder } from './statement-order.ts'
import { DID_V1_CONTEXT, JWS_2020_V1_CONTEXT, loadBundledContext, loadJsonLd } from './jsonld-contexts.ts'

const RDF_JSON = RDF('JSON')
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
 * only the prefixes the text uses. The statements are written once, by a writer that knows every
 * candidate prefix (the document's own and the standard ones) but declares none; it notes each prefix
 * it writes a name with, and the declarations of those are put before the statements, in the lines
 * n3's writer gives prefixes handed to it. An IRI is written with the first candidate whose namespace
 * it completes (n3's matcher), and the used ones keep the candidates' order, so the text is the same
 * as that of a writer given only the used prefixes. An IRI whose text merely looks like a prefixed name
 * is written whole, `<…>`, so that the text reads back as the statements stored.
 */
function writeWithPrefixes(quads: readonly Quad[], format: 'Turtle' | 'TriG', baseIRI: string, own?: Record<string, string>): string {
  const { matcher, prefixes } = matcherFor(own)
  const writer = new Writer({ format }) as unknown as WriterInternals
  if (baseIRI) writer._baseIri = relativeTo(baseIRI)
  writer._prefixIRIs = matcher._prefixIRIs
  writer._prefixRegex = matcher._prefixRegex
  writer._hasPrefixes = true
  const used = new Set<string>()
  const encodeIri = writer._encodeIriOrBlank
  writer._encodeIriOrBlank = function (this: WriterInternals, t: Term) {
    const written = encodeIri.call(this, t)
    if (t.termType !== 'NamedNode' || written.charCodeAt(0) === LESS_THAN) return written
    const name = written.slice(0, written.indexOf(':'))
    if (Object.hasOwn(prefixes, name) && prefixes[name] + written.slice(name.length + 1) === t.value) {
      used.add(name)
      return written
    }
    // n3 writes an IRI that already reads as a prefixed name (`<acl:Read>`, an IRI of the scheme `acl`) as it is:
    // read back under the declared prefix it would name that namespace's term, another IRI than the one stored.
    this._hasPrefixes = false
    try {
      return encodeIri.call(this, t)
    } finally {
      this._hasPrefixes = true
    }
  }
  const statements = write(writer as unknown as Writer, quads)
  let head = baseIRI ? `@base <${baseIRI}>.\n` : ''
  let declared = ''
  for (const [name, ns] of Object.entries(prefixes)) if (used.has(name)) declared += `@prefix ${name}: <${ns}>.\n`
  if (declared) head += `${declared}\n`
  return head + statements
}

const LESS_THAN = 0x3c

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

/**
 * What of n3's Writer (n3 2.x) this module uses beyond its API: how it writes an IRI, and its prefix
 * matcher (the namespaces by IRI, and one regular expression over all of them, built on first use).
 */
interface WriterInternals {
  _encodeIriOrBlank(t: Term): string
  _baseIri?: BaseIRI
  _prefixIRIs: Record<string, string>
  _prefixRegex: RegExp | null
  _hasPrefixes: boolean
  _createPrefixRegex(): RegExp
}

/**
 * Prefix matchers, one per set of a document's own prefixes (most documents have none, or the few of
 * one app). Building one costs more than writing a small document (n3 escapes every prefix IRI and
 * compiles one expression of them all), and it holds no state of a text (its expression has no `g`
 * flag), so every writer of these candidates shares it: the bound is a memory bound, the text the same
 * with or without the memo.
 */
const MATCHERS = 64
interface Matcher {
  readonly matcher: Pick<WriterInternals, '_prefixIRIs' | '_prefixRegex'>
  readonly prefixes: Record<string, string>
}
const matchers = forgetWhenIdle(new LruCache<string, Matcher>(MATCHERS))
const matcherFor = (own: Record<string, string> = {}): Matcher =>
  matchers.memo(JSON.stringify(own), () => {
    const prefixes = candidates(own)
    const writer = new Writer({ format: 'Turtle', prefixes }) as unknown as WriterInternals
    return { matcher: { _prefixIRIs: writer._prefixIRIs, _prefixRegex: writer._createPrefixRegex() }, prefixes }
  })

/**
 * What makes IRIs relative to a base, one per base: n3 compiles an expression of the base's segments on
 * first use, dearer than writing a small document's IRIs with it. It keeps nothing of a text, so every
 * writer with that base shares it; the documents written most (the ones saved again and again) keep theirs.
 */
const BASES = 256
const bases = forgetWhenIdle(new LruCache<string, BaseIRI>(BASES))
const relativeTo = (base: string): BaseIRI => bases.memo(base, () => new BaseIRI(base))

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

/** stat:size of an RDF document: the byte length of the Turtle a GET serves (whatever syntax was written). */
export function turtleByteLength(quads: readonly Quad[], baseIRI: string, prefixes?: Record<string, string>): number {
  return Buffer.byteLength(writeTurtle(quads, baseIRI, prefixes), 'utf8')
}

/** stat:size of a document with named graphs: the byte length of the TriG a GET serves it in by default. */
export function trigByteLength(quads: readonly Quad[], baseIRI: string, prefixes?: Record<string, string>): number {
  return Buffer.byteLength(writeWithPrefixes(inStatementOrder(quads), 'TriG', baseIRI, prefixes), 'utf8')
}
