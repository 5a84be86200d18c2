// A document's own named graphs, kept among its triples: the store holds each resource as the one
// named graph of its URL (DESIGN §4), so a statement of an inner graph is written there as a small
// description of the quad, under IRIs no document may use.

import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { HttpError } from '../http/errors.ts'

const { blankNode, quad } = DataFactory

/** The reserved namespace: refused in what a client writes, so a stored description is always ours. */
export const GRAPH_STATEMENT_NS = 'urn:solopod:graph-statement#'
const IN_GRAPH = DataFactory.namedNode(`${GRAPH_STATEMENT_NS}graph`)
const SUBJECT = DataFactory.namedNode(`${GRAPH_STATEMENT_NS}subject`)
const PREDICATE = DataFactory.namedNode(`${GRAPH_STATEMENT_NS}predicate`)
const OBJECT = DataFactory.namedNode(`${GRAPH_STATEMENT_NS}object`)

const usesReserved = (q: Quad) => [q.subject, q.predicate, q.object, q.graph].some(t => t.termType === 'NamedNode' && t.value.startsWith(GRAPH_STATEMENT_NS))

/** 400 `invalid_rdf` when a written document uses the reserved namespace itself. */
export function checkNoReservedTerms(quads: readonly Quad[]): void {
  const q = quads.find(usesReserved)
  if (q)
    throw new HttpError(
      400,
      'invalid_rdf',
      `IRIs starting with ${GRAPH_STATEMENT_NS} are reserved by the pod; found one in a statement about ${q.subject.value}`,
    )
}

/**
 * The triples (default graph) that stand for quads of named graphs: per quad, a fresh blank node with
 * its graph name, subject, predicate and object. Blank nodes of the document keep their identity, so
 * a blank node shared by the default graph and an inner graph is still one node when read back.
 */
export function describeGraphStatements(quads: readonly Quad[]): Quad[] {
  const out: Quad[] = []
  for (const q of quads) {
    const s = blankNode()
    out.push(quad(s, IN_GRAPH, q.graph as Quad['object']), quad(s, SUBJECT, q.subject), quad(s, PREDICATE, q.predicate), quad(s, OBJECT, q.object))
  }
  return out
}

/** A stored document split back into its default graph's triples and its named graphs' quads. */
export interface DocumentDataset {
  readonly triples: Quad[]
  readonly namedGraphs: Quad[]
}

/** The inverse of `describeGraphStatements` over a stored graph (its graph names dropped). */
export function readGraphStatements(stored: readonly Quad[]): DocumentDataset {
  const parts = new Map<string, Partial<Record<'g' | 's' | 'p' | 'o', Quad['object']>>>()
  const triples: Quad[] = []
  for (const t of stored) {
    const key = PARTS[t.predicate.value]
    if (key === undefined || t.subject.termType !== 'BlankNode') {
      triples.push(t.graph.termType === 'DefaultGraph' ? t : quad(t.subject, t.predicate, t.object))
      continue
    }
    const entry = parts.get(t.subject.value) ?? {}
    entry[key] = t.object
    parts.set(t.subject.value, entry)
  }
  const namedGraphs: Quad[] = []
  for (const { g, s, p, o } of parts.values()) {
    if (g && s && p && o) namedGraphs.push(quad(s as Quad['subject'], p as Quad['predicate'], o, g as Quad['graph']))
  }
  return { triples, namedGraphs }
}

const PARTS: Record<string, 'g' | 's' | 'p' | 'o'> = {
  [IN_GRAPH.value]: 'g',
  [SUBJECT.value]: 's',
  [PREDICATE.value]: 'p',
  [OBJECT.value]: 'o',
}

/** Whether stored triples hold any statement of a named graph. */
export const holdsGraphStatements = (stored: readonly Quad[]) => stored.some(t => t.predicate.value === IN_GRAPH.value)
