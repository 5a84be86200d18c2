// Triple patterns against one document's triples: matching (with a step budget), instantiating
// templates and applying a delta. Shared by N3 Patch (Solid Protocol §5.3.1) and SPARQL 1.1 Update.

import type { BlankNode, Quad, Term } from '@rdfjs/types'
import { DataFactory, termToId, type Term as N3Term } from '../lib/n3.ts'
import { invalidPatch, patchConflict } from './patch-plan.ts'

const { blankNode, quad } = DataFactory

// A where clause is a join: k patterns over n triples can take n^k steps. Past this budget the
// patch is refused instead of pinning the event loop.
const MAX_MATCH_STEPS = 1_000_000

// termToId reads terms from any RDF/JS factory (the store's too); its types claim n3's only.
export const idOf = (t: Term): string => termToId(t as N3Term)

/** Variable (`?x`) and pattern blank node (`_:b`) ids → the document term each matched. */
export type Binding = ReadonlyMap<string, Term>

/** Identity of a triple, whatever its graph and whichever factory made its terms. */
export const tripleKey = (q: Quad): string => JSON.stringify([idOf(q.subject), idOf(q.predicate), idOf(q.object)])

export const showTriple = (q: Quad): string => [q.subject, q.predicate, q.object].map(t => (t.termType === 'NamedNode' ? `<${t.value}>` : idOf(t))).join(' ')

/**
 * The distinct mappings of the patterns' variables under which every pattern is a triple of
 * `doc`, at most `limit` of them. Pattern blank nodes match like variables but are existential
 * (SPARQL 1.1 Query §4.1.4), so they are left out of the mappings: matches that differ only in
 * them are one mapping. No patterns: exactly the empty mapping.
 */
export function findBindings(patterns: readonly Quad[], doc: readonly Quad[], limit = Infinity): Binding[] {
  const rows = doc.map(q => [q.subject, q.predicate, q.object])
  const rowIds = rows.map(row => row.map(idOf))
  // Variables and pattern blank nodes get numbered cells, set and unset while backtracking:
  // copying a binding per step made a where clause over a large document take seconds.
  const names: string[] = []
  const slots = patterns.map(p =>
    [p.subject, p.predicate, p.object].map(t => {
      const id = idOf(t)
      if (t.termType !== 'Variable' && t.termType !== 'BlankNode') return { id, cell: -1 }
      const cell = names.includes(id) ? names.indexOf(id) : names.push(id) - 1
      return { id, cell }
    }),
  )
  const variableCells = names.flatMap((name, cell) => (name.startsWith('?') ? [cell] : []))
  const ids: (string | undefined)[] = names.map(() => undefined)
  const terms: (Term | undefined)[] = names.map(() => undefined)
  const found = new Map<string, Binding>()
  let steps = 0
  const extend = (i: number): void => {
    const slot = slots[i]
    if (!slot) {
      const key = variableCells.map(cell => ids[cell]).join('\u0000')
      if (!found.has(key)) found.set(key, new Map(variableCells.map(cell => [names[cell]!, terms[cell]!])))
      return
    }
    for (let r = 0; r < rows.length && found.size < limit; r++) {
      if (++steps > MAX_MATCH_STEPS) throw invalidPatch(`the pattern needs more than ${MAX_MATCH_STEPS} match steps`)
      const setHere: number[] = []
      let matches = true
      for (let k = 0; k < 3 && matches; k++) {
        const { id, cell } = slot[k]!
        const actual = rowIds[r]![k]!
        if (cell < 0) matches = id === actual
        else if (ids[cell] !== undefined) matches = ids[cell] === actual
        else {
          ids[cell] = actual
          terms[cell] = rows[r]![k]
          setHere.push(cell)
        }
      }
      if (matches) extend(i + 1)
      for (const cell of setHere) ids[cell] = terms[cell] = undefined
    }
  }
  extend(0)
  return [...found.values()]
}

/**
 * Templates with the binding's terms put in for their variables; each template blank node
 * becomes one new node from `fresh` (N3 Patch §5.3.1, SPARQL 1.1 Update §3.1.3).
 */
export function instantiate(templates: readonly Quad[], b: Binding, fresh: () => BlankNode): Quad[] {
  const blanks = new Map<string, BlankNode>()
  const put = (t: Term): Term | undefined => {
    if (t.termType === 'Variable') return b.get(idOf(t))
    if (t.termType !== 'BlankNode') return t
    const node = blanks.get(t.value) ?? fresh()
    blanks.set(t.value, node)
    return node
  }
  return templates.map(q => toTriple(put(q.subject), put(q.predicate), put(q.object), q))
}

// A variable bound to a literal may land in subject position, which no RDF triple allows.
function toTriple(s: Term | undefined, p: Term | undefined, o: Term | undefined, template: Quad): Quad {
  if (
    (s?.termType === 'NamedNode' || s?.termType === 'BlankNode') &&
    p?.termType === 'NamedNode' &&
    (o?.termType === 'NamedNode' || o?.termType === 'BlankNode' || o?.termType === 'Literal')
  ) {
    return quad(s, p, o)
  }
  throw patchConflict(`the match gives no RDF triple for ${showTriple(template)}`)
}

/** Makes blank nodes whose labels `doc` does not use, so inserted blank nodes are new nodes. */
export function freshBlankNodes(doc: readonly Quad[]): () => BlankNode {
  const used = new Set(
    doc
      .flatMap(q => [q.subject, q.object])
      .filter(t => t.termType === 'BlankNode')
      .map(t => t.value),
  )
  let n = 0
  return () => {
    while (used.has(`n${n}`)) n++
    used.add(`n${n}`)
    return blankNode(`n${n}`)
  }
}

/** Whether two documents (sets of triples) hold the same triples: a patch that changed nothing. */
export function sameTriples(a: readonly Quad[], b: readonly Quad[]): boolean {
  if (a.length !== b.length) return false
  const keys = new Set(a.map(tripleKey))
  return b.every(q => keys.has(tripleKey(q)))
}

/** `doc` without `deletes`, then with those `inserts` it lacks; `doc` itself is not touched. */
export function applyDelta(doc: readonly Quad[], deletes: readonly Quad[], inserts: readonly Quad[]): Quad[] {
  const gone = new Set(deletes.map(tripleKey))
  const result = doc.filter(q => !gone.has(tripleKey(q)))
  const present = new Set(result.map(tripleKey))
  for (const q of inserts) {
    const key = tripleKey(q)
    if (!present.has(key)) result.push(q)
    present.add(key)
  }
  return result
}
