// SPARQL 1.1 Update (`application/sparql-update`) on one document's default graph: the subset
// NSS and CSS accept (Solid Protocol §5.3.1), with N3 Patch's strictness about what does not apply.

import type { Quad, Term } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { HttpError } from '../http/errors.ts'
import { applyDelta, findBindings, freshBlankNodes, instantiate, showTriple, tripleKey } from './triple-patterns.ts'
import { invalidPatch, patchConflict, type PatchPlan } from './patch-plan.ts'

const { blankNode, literal, namedNode, quad, variable } = DataFactory

/**
 * sparqljs's generated parser is ~50 ms of CPU to load: it loads with the first SPARQL Update, not on every
 * start of the pod (docs/performance.md); by require, because the parse is synchronous.
 */
let sparqlParser: typeof import('sparqljs').Parser | undefined
const loadSparqlParser = () => (sparqlParser ??= (require('sparqljs') as typeof import('sparqljs')).Parser)

interface SparqlTriple {
  subject: Term
  predicate: Term | { type: 'path' }
  object: Term
}
interface SparqlPattern {
  type: string
  triples?: SparqlTriple[]
  patterns?: SparqlPattern[]
}
interface SparqlOperation {
  type?: string
  updateType?: 'insert' | 'delete' | 'insertdelete' | 'deletewhere'
  insert?: SparqlPattern[]
  delete?: SparqlPattern[]
  where?: SparqlPattern[]
  graph?: unknown
  using?: unknown
}
export interface SparqlRequest {
  type?: 'query' | 'update'
  updates?: SparqlOperation[]
}
interface JisonError {
  hash?: { text?: string; loc?: { last_line: number; last_column: number } }
}

/** One update operation. `where` is absent for INSERT DATA and DELETE DATA. */
interface Step {
  readonly where?: readonly Quad[]
  readonly deletes: readonly Quad[]
  readonly inserts: readonly Quad[]
}

const SUPPORTED = 'PATCH takes INSERT DATA, DELETE DATA, DELETE/INSERT … WHERE and DELETE WHERE'

/**
 * Parse an `application/sparql-update` PATCH body. Throws 400 `invalid_syntax` when it is not
 * SPARQL Update and 422 `invalid_patch` for what this pod does not do; `apply` throws 409
 * `patch_conflict`.
 */
export function parseSparqlUpdate(body: string, baseIRI: string): PatchPlan {
  return planSparqlUpdate(readSparqlUpdate(body, baseIRI))
}

/**
 * The expensive half (sparqljs's parse), whose result can cross a thread: its terms keep
 * termType, value, language and datatype as own properties, all this module reads.
 */
export function readSparqlUpdate(body: string, baseIRI: string): SparqlRequest {
  try {
    return new (loadSparqlParser())({ baseIRI }).parse(body) as SparqlRequest
  } catch (err) {
    throw new HttpError(400, 'invalid_syntax', describeSyntaxError(err), { cause: err })
  }
}

/** The cheap half: the operations' checks and plan, from what readSparqlUpdate gave. */
export function planSparqlUpdate(request: SparqlRequest): PatchPlan {
  if (request.type === 'query') throw invalidPatch(`the body is a SPARQL query; ${SUPPORTED}`)
  const steps = (request.updates ?? []).map(toStep)
  return {
    // Solid Protocol §5.3.1, by analogy with N3 Patch: WHERE → Read, any delete → Read + Write
    // (a 409 on an absent triple tells what the document holds), any insert → Append.
    needs: {
      read: steps.some(s => (s.where?.length ?? 0) > 0 || s.deletes.length > 0),
      append: steps.some(s => s.inserts.length > 0),
      write: steps.some(s => s.deletes.length > 0),
    },
    // SPARQL 1.1 Update §3: operations run in order, each on the result of the one before.
    apply: doc => steps.reduce<Quad[]>((current, step) => applyStep(step, current), [...doc]),
  }
}

// Jison reports where the last good token ended; the offending one follows it.
function describeSyntaxError(err: unknown): string {
  const hash = (err as JisonError).hash
  if (hash?.loc) {
    const found = hash.text ? `'${hash.text}'` : 'end of input'
    return `SPARQL syntax error near line ${hash.loc.last_line}, column ${hash.loc.last_column + 1}: unexpected ${found}`
  }
  return `SPARQL syntax error: ${err instanceof Error ? err.message : String(err)}`
}

function toStep(op: SparqlOperation): Step {
  if (op.type) throw invalidPatch(`${op.type.toUpperCase()} is not supported; ${SUPPORTED}`)
  if (op.graph !== undefined || op.using !== undefined) {
    throw invalidPatch('WITH and USING are not supported: a PATCH changes the default graph of its target')
  }
  switch (op.updateType) {
    case 'insert':
      return { deletes: [], inserts: readTemplate(op.insert, 'INSERT DATA') }
    case 'delete':
      return { deletes: readTemplate(op.delete, 'DELETE DATA'), inserts: [] }
    case 'deletewhere': {
      const patterns = readTemplate(op.delete, 'DELETE WHERE')
      return { where: patterns, deletes: patterns, inserts: [] }
    }
    case 'insertdelete': {
      const step = { where: readWhere(op.where ?? []), deletes: readTemplate(op.delete, 'DELETE'), inserts: readTemplate(op.insert, 'INSERT') }
      checkTemplateVariables(step)
      return step
    }
    default:
      throw invalidPatch(`unsupported update operation; ${SUPPORTED}`)
  }
}

// Quad data and templates hold triples for the default graph only: the document is one graph.
function readTemplate(patterns: readonly SparqlPattern[] | undefined, clause: string): Quad[] {
  return (patterns ?? []).flatMap(p => {
    if (p.type !== 'bgp') throw invalidPatch(`${clause}: GRAPH is not supported; a PATCH changes the default graph`)
    return (p.triples ?? []).map(t => {
      const q = toQuad(t, clause)
      if ((q.subject.termType as string) === 'Literal') throw invalidPatch(`${clause}: a literal cannot be a subject`)
      return q
    })
  })
}

// WHERE: basic graph patterns only; a bare group `{ … }` of them is the same join, so it is flattened.
function readWhere(patterns: readonly SparqlPattern[]): Quad[] {
  return patterns.flatMap(p => {
    if (p.type === 'bgp') return (p.triples ?? []).map(t => toQuad(t, 'WHERE'))
    if (p.type === 'group') return readWhere(p.patterns ?? [])
    const found = p.type === 'query' ? 'a subquery' : p.type.toUpperCase()
    throw invalidPatch(`WHERE supports basic graph patterns only; found ${found}`)
  })
}

// Every WHERE solution binds all its variables (no OPTIONAL), so a template variable is unbound
// exactly when WHERE lacks it; SPARQL would drop such triples silently, we say so instead.
function checkTemplateVariables(step: Step): void {
  const variables = (quads: readonly Quad[]) => quads.flatMap(q => [q.subject, q.predicate, q.object]).filter(t => t.termType === 'Variable')
  const bound = new Set(variables(step.where ?? []).map(t => t.value))
  for (const [clause, template] of [
    ['INSERT', step.inserts],
    ['DELETE', step.deletes],
  ] as const) {
    const unbound = variables(template).find(t => !bound.has(t.value))
    if (unbound) throw invalidPatch(`?${unbound.value} in ${clause} does not occur in WHERE`)
  }
}

function toQuad(t: SparqlTriple, clause: string): Quad {
  if (!('termType' in t.predicate)) throw invalidPatch(`${clause}: property paths are not supported`)
  return quad(toN3Term(t.subject, clause) as Quad['subject'], toN3Term(t.predicate, clause) as Quad['predicate'], toN3Term(t.object, clause) as Quad['object'])
}

// sparqljs makes its own RDF/JS terms; the pod's quads are n3's.
function toN3Term(t: Term, clause: string): Term {
  switch (t.termType) {
    case 'NamedNode':
      return namedNode(withoutDotSegments(t.value))
    case 'BlankNode':
      return blankNode(t.value)
    case 'Variable':
      return variable(t.value)
    case 'Literal':
      return literal(t.value, t.language || namedNode(t.datatype.value))
    default:
      throw invalidPatch(`${clause}: quoted triples are not supported`)
  }
}

// sparqljs resolves a relative IRI by joining it to the base path and stops there; RFC 3986
// §5.2.2 then removes dot segments (`../`) from the path of every resolved reference. Only
// IRIs with an authority are touched: those are what resolving against a pod URL gives.
function withoutDotSegments(iri: string): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/is.exec(iri)
  if (!parts || !/(^|\/)\.\.?(\/|$)/.test(parts[2] ?? '')) return iri
  const segments = (parts[2] ?? '').split('/')
  const path: string[] = []
  segments.forEach((segment, i) => {
    if (segment !== '.' && segment !== '..') path.push(segment)
    else {
      if (segment === '..' && path.length > 1) path.pop()
      if (i === segments.length - 1) path.push('')
    }
  })
  return `${parts[1]}${path.join('/')}${parts[3]}`
}

function applyStep(step: Step, doc: readonly Quad[]): Quad[] {
  const fresh = freshBlankNodes(doc)
  if (!step.where) {
    // DELETE DATA of an absent triple does not apply, as in N3 Patch (Solid Protocol §5.3.1),
    // where SPARQL alone would make it a silent no-op.
    const present = new Set(doc.map(tripleKey))
    const absent = step.deletes.find(q => !present.has(tripleKey(q)))
    if (absent) throw patchConflict(`DELETE DATA: the document does not contain ${showTriple(absent)}`)
    return applyDelta(doc, step.deletes, instantiate(step.inserts, new Map(), fresh))
  }
  // SPARQL 1.1 Update §3.1.3: deletes and inserts both come from the solutions before either
  // is applied; each solution gives template blank nodes new nodes. No solution is no change, and
  // a success (§3.1.3: the templates are instantiated once per solution): the rule that a
  // where clause match exactly once is N3 Patch's (Solid Protocol §5.3.1), not SPARQL's.
  const solutions = findBindings(step.where, doc)
  return applyDelta(
    doc,
    solutions.flatMap(b => instantiate(step.deletes, b, fresh)),
    solutions.flatMap(b => instantiate(step.inserts, b, fresh)),
  )
}
