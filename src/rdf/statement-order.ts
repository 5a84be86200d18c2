// One order for the statements of a Turtle document, whatever order they were parsed or stored in.

import type { Quad, Term } from '@rdfjs/types'
import { RDF } from './namespaces.ts'

const RDF_TYPE = RDF('type')

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Kind first, so blank nodes (and any other term that is neither), IRIs and literals never interleave. */
const kindOf = (t: Term) => (t.termType === 'Literal' ? 2 : t.termType === 'NamedNode' ? 1 : 0)

/** Two terms by kind, then value, then (literals) language and datatype. */
function compareTerms(a: Term, b: Term): number {
  if (a === b) return 0
  const kind = kindOf(a) - kindOf(b)
  if (kind !== 0) return kind
  const byValue = compare(a.value, b.value)
  if (byValue !== 0 || a.termType !== 'Literal' || b.termType !== 'Literal') return byValue
  return compare(a.language, b.language) || compare(a.datatype.value, b.datatype.value)
}

// rdf:type (written `a`) leads a subject's predicates, as people write it.
function comparePredicates(a: Term, b: Term): number {
  const aType = a.value === RDF_TYPE
  if (aType !== (b.value === RDF_TYPE)) return aType ? -1 : 1
  return aType ? 0 : compareTerms(a, b)
}

/**
 * The statements grouped by subject and predicate in a fixed order. n3's writer groups only
 * statements that come one after the other, so the text (and its length) depended on the order a
 * document was parsed in, and stat:size, taken when a document is written, could differ from the
 * Turtle a GET serves from the store's order. Sorted, both are the same text. (The terms are compared
 * in place: building a sort key of each statement cost a small document's write a quarter of its text.)
 */
export function inStatementOrder(quads: readonly Quad[]): Quad[] {
  return [...quads].sort(
    (x, y) =>
      compare(x.graph.value, y.graph.value) ||
      compareTerms(x.subject, y.subject) ||
      comparePredicates(x.predicate, y.predicate) ||
      compareTerms(x.object, y.object),
  )
}
