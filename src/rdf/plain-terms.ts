// RDF/JS terms as plain data, so parsed quads can cross a thread (structured clone keeps no classes).

import type { Quad, Term } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'

const { blankNode, defaultGraph, literal, namedNode, quad, variable } = DataFactory

export type PlainTerm =
  | { readonly t: 'NamedNode' | 'BlankNode' | 'Variable'; readonly v: string }
  | { readonly t: 'Literal'; readonly v: string; readonly lang: string; readonly dt: string }
  | { readonly t: 'DefaultGraph' }
  | { readonly t: 'Quad'; readonly q: PlainQuad }

export type PlainQuad = readonly [PlainTerm, PlainTerm, PlainTerm, PlainTerm]

export function toPlainTerm(term: Term): PlainTerm {
  switch (term.termType) {
    case 'Literal':
      return { t: 'Literal', v: term.value, lang: term.language, dt: term.datatype.value }
    case 'DefaultGraph':
      return { t: 'DefaultGraph' }
    case 'Quad':
      return { t: 'Quad', q: toPlainQuad(term as Quad) }
    default:
      return { t: term.termType, v: term.value }
  }
}

export const toPlainQuad = (q: Quad): PlainQuad => [toPlainTerm(q.subject), toPlainTerm(q.predicate), toPlainTerm(q.object), toPlainTerm(q.graph)]

export function fromPlainTerm(p: PlainTerm): Term {
  switch (p.t) {
    case 'NamedNode':
      return namedNode(p.v)
    case 'BlankNode':
      return blankNode(p.v)
    case 'Variable':
      return variable(p.v)
    case 'Literal':
      return literal(p.v, p.lang || namedNode(p.dt))
    case 'DefaultGraph':
      return defaultGraph()
    case 'Quad':
      return fromPlainQuad(p.q)
  }
}

export const fromPlainQuad = (p: PlainQuad): Quad =>
  quad(
    fromPlainTerm(p[0]) as Quad['subject'],
    fromPlainTerm(p[1]) as Quad['predicate'],
    fromPlainTerm(p[2]) as Quad['object'],
    fromPlainTerm(p[3]) as Quad['graph'],
  )
