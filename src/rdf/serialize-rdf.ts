// Writing quads as Turtle, N-Triples or JSON-LD (one document) or as N-Quads/TriG (export).

import type { Quad, Term } from '@rdfjs/types'
import jsonld, { type JsonLdQuad, type JsonLdTerm } from 'jsonld'
import { DataFactory, Writer, type WriterOptions } from 'n3'
import { HttpError } from '../http/errors.ts'
import { JSON_LD, N_QUADS, N_TRIPLES, RDF_SERIALIZE_TYPES, TRIG, TURTLE, mediaTypeOf } from './media-types.ts'
import { PREFIXES, RDF, SEC } from './namespaces.ts'
import { DID_V1_CONTEXT, JWS_2020_V1_CONTEXT, loadBundledContext } from './jsonld-contexts.ts'

const RDF_JSON = RDF('JSON')
// Stands in for rdf:JSON on a literal that is not JSON, which jsonld.js would refuse to write.
const UNPARSED_JSON = 'urn:solopod:unparsed-rdf-json'

/**
 * `quads` in `mediaType`. Turtle, N-Triples and JSON-LD hold one graph, so graph names are
 * dropped there (a resource's triples live in the named graph of its URL); N-Quads and TriG keep
 * them. Turtle and TriG write IRIs relative to `@base <baseIRI>` and declare the used `prefixes`
 * (PREFIXES plus any given). Throws 406 `not_acceptable` for any other type.
 */
export async function serializeRdf(
  quads: readonly Quad[],
  mediaType: string,
  baseIRI: string,
  prefixes?: Record<string, string>,
): Promise<string> {
  const type = mediaTypeOf(mediaType)
  const known = { ...PREFIXES, ...prefixes }
  switch (type) {
    case TURTLE:
      return write(quads.map(inDefaultGraph), { format: 'Turtle', ...relativeTo(baseIRI), prefixes: used(known, quads) })
    case TRIG:
      return write(quads, { format: 'TriG', ...relativeTo(baseIRI), prefixes: used(known, quads) })
    case N_TRIPLES:
      return write(quads.map(inDefaultGraph), { format: 'N-Triples' })
    case N_QUADS:
      return write(quads, { format: 'N-Quads' })
    case JSON_LD:
      return writeJsonLd(quads, baseIRI)
  }
  throw new HttpError(406, 'not_acceptable', `cannot write ${type ?? 'no media type'}; expected one of ${RDF_SERIALIZE_TYPES.join(', ')}`)
}

function write(quads: readonly Quad[], options: WriterOptions): Promise<string> {
  const writer = new Writer(options)
  writer.addQuads(quads as Quad[])
  return new Promise((resolve, reject) => writer.end((err, result: string) => (err ? reject(err) : resolve(result))))
}

/** `@base` is written too, so the document means the same when saved or served elsewhere. */
const relativeTo = (baseIRI: string): WriterOptions => (baseIRI ? { baseIRI, writeBase: true } : {})

const inDefaultGraph = (q: Quad): Quad =>
  q.graph.termType === 'DefaultGraph' ? q : DataFactory.quad(q.subject, q.predicate, q.object)

/** Only the prefixes some IRI uses: a profile should not open with a dozen unused declarations. */
function used(prefixes: Record<string, string>, quads: readonly Quad[]): Record<string, string> {
  const iris = new Set<string>()
  const collect = (t: Term) => {
    if (t.termType === 'NamedNode') iris.add(t.value)
    else if (t.termType === 'Literal') iris.add(t.datatype.value)
    else if (t.termType === 'Quad') for (const part of [t.subject, t.predicate, t.object]) collect(part)
  }
  for (const q of quads) for (const t of [q.subject, q.predicate, q.object, q.graph]) collect(t)
  const chosen: Record<string, string> = {}
  for (const [prefix, ns] of Object.entries(prefixes)) {
    for (const iri of iris) {
      if (iri.startsWith(ns) && iri.length > ns.length) {
        chosen[prefix] = ns
        break
      }
    }
  }
  return chosen
}

/** HttpSig key documents are served in the shape DID/JWS-2020 tools read: these two contexts, in this order. */
const KEY_DOCUMENT_CONTEXT = [DID_V1_CONTEXT, JWS_2020_V1_CONTEXT]
const isKeyDocument = (quads: readonly Quad[]) =>
  quads.some(q => q.predicate.value === RDF('type') && q.object.value === SEC('JsonWebKey2020'))

/**
 * Expanded JSON-LD (a node array; absolute IRIs, so no context to fetch): re-parses to the same
 * graph. rdf:JSON literals become `@json` values (JSON-LD 1.1 §4.2.2). A key document is compacted
 * with the DID v1 and JWS-2020 contexts (bundled), so `publicKeyJwk` reads as a plain JWK object.
 */
async function writeJsonLd(quads: readonly Quad[], baseIRI: string): Promise<string> {
  const dataset = quads.map((q) => ({
    subject: plainTerm(q.subject),
    predicate: plainTerm(q.predicate),
    object: plainTerm(q.object),
    graph: { termType: 'DefaultGraph', value: '' },
  }) satisfies JsonLdQuad)
  const doc = restoreUnparsedJson(await jsonld.fromRDF(dataset))
  if (!isKeyDocument(quads)) return `${JSON.stringify(doc, null, 2)}\n`
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
export async function turtleByteLength(quads: readonly Quad[], baseIRI: string): Promise<number> {
  return new TextEncoder().encode(await serializeRdf(quads, TURTLE, baseIRI)).byteLength
}
