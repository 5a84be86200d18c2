// One order for the statements of a Turtle document, whatever order they were parsed or stored in.

import type { Quad, Term } from '@rdfjs/types'
import { RDF } from './namespaces.ts'

const RDF_TYPE = RDF('type')

/** A term's sort key: kind first, so IRIs, blank nodes and literals never interleave. */
function termKey(t: Term): string {
  if (t.termType === 'Literal') return `l${t.value}\0${t.language}\0${t.datatype.value}`
  return `${t.termType === 'NamedNode' ? 'i' : 'b'}${t.value}`
}

// rdf:type (written `a`) leads a subject's predicates, as people write it.
const predicateKey = (t: Term) => (t.value === RDF_TYPE ? '' : termKey(t))

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The statements grouped by subject and predicate in a fixed order. n3's writer groups only
 * statements that come one after the other, so the text (and its length) depended on the order a
 * document was parsed in, and stat:size, taken when a document is written, could differ from the
 * Turtle a GET serves from the store's order. Sorted, both are the same text.
 */
export function inStatementOrder(quads: readonly Quad[]): Quad[] {
  const keyed = quads.map(q => ({ q, s: termKey(q.subject), p: predicateKey(q.predicate), o: termKey(q.object), g: q.graph.value }))
  keyed.sort((x, y) => compare(x.g, y.g) || compare(x.s, y.s) || compare(x.p, y.p) || compare(x.o, y.o))
  return keyed.map(k => k.q)
}
