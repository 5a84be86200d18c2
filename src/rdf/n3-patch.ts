// Solid N3 Patch (`text/n3`): parse, check the patch constraints, apply (Solid Protocol §5.3.1).

import type { BlankNode, Quad, Term } from '@rdfjs/types'
import { Parser } from '../lib/n3.ts'
import { HttpError } from '../http/errors.ts'
import { RDF, SOLID } from './namespaces.ts'
import { invalidPatch, patchConflict, type PatchPlan } from './patch-plan.ts'
import { applyDelta, findBindings, freshBlankNodes, idOf, instantiate, showTriple, tripleKey } from './triple-patterns.ts'
import { n3ErrorPosition } from './n3-error-position.ts'
import { fromPlainQuad, toPlainQuad, type PlainQuad } from './plain-terms.ts'

const PATCH_TYPE = SOLID('InsertDeletePatch')
const INSERTS = SOLID('inserts')
const DELETES = SOLID('deletes')
const WHERE = SOLID('where')

/**
 * Parse a `text/n3` PATCH body. Throws 400 `invalid_syntax` when it is not N3 and 422
 * `invalid_patch` when it breaks a §5.3.1 constraint; `apply` throws 409 `patch_conflict`.
 */
export function parseN3Patch(body: string, baseIRI: string): PatchPlan {
  return planN3Patch(readN3Patch(body, baseIRI))
}

/** The expensive half (parsing), whose result can cross a thread: plain terms, no classes. */
export function readN3Patch(body: string, baseIRI: string): PlainQuad[] {
  return parseN3(body, baseIRI).map(toPlainQuad)
}

/** The cheap half: the patch's checks and plan, from what readN3Patch gave. */
export function planN3Patch(parsed: readonly PlainQuad[]): PatchPlan {
  const quads = parsed.map(fromPlainQuad)
  const patch = findPatchResource(quads)
  const formulas = new Set(quads.filter(q => q.graph.termType === 'BlankNode').map(q => idOf(q.graph)))
  const where = readFormula(quads, patch, WHERE, formulas)
  const inserts = readFormula(quads, patch, INSERTS, formulas)
  const deletes = readFormula(quads, patch, DELETES, formulas)
  checkTemplates(where, inserts, deletes)
  return {
    // Solid Protocol §5.3.1: where → Read, inserts → Append, deletes → Read + Write.
    needs: { read: where.length > 0 || deletes.length > 0, append: inserts.length > 0, write: deletes.length > 0 },
    apply: doc => applyN3Patch(doc, where, inserts, deletes),
  }
}

function parseN3(body: string, baseIRI: string): Quad[] {
  try {
    return new Parser({ format: 'text/n3', baseIRI }).parse(body)
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/ on line \d+\.$/, '') : String(err)
    const { line, column } = n3ErrorPosition(err, body)
    throw new HttpError(400, 'invalid_syntax', `N3 syntax error at line ${line}, column ${column}: ${reason}`, { cause: err })
  }
}

const isPatchType = (q: Quad) => q.predicate.value === RDF('type') && q.object.termType === 'NamedNode' && q.object.value === PATCH_TYPE
const isPatchLink = (q: Quad) => q.predicate.termType === 'NamedNode' && [INSERTS, DELETES, WHERE].includes(q.predicate.value)

// §5.3.1: the document holds exactly one patch resource, an IRI or blank node typed
// solid:InsertDeletePatch; a subject using solid:inserts/deletes/where is a patch resource too.
function findPatchResource(quads: readonly Quad[]): Term {
  const candidates = new Map<string, Term>()
  for (const q of quads) {
    if (q.graph.termType === 'DefaultGraph' && (isPatchType(q) || isPatchLink(q))) {
      candidates.set(idOf(q.subject), q.subject)
    }
  }
  const [patch, ...others] = candidates.values()
  if (!patch) throw invalidPatch('the body has no solid:InsertDeletePatch resource')
  if (others.length > 0) throw invalidPatch(`the body has ${candidates.size} patch resources; exactly one is allowed`)
  if (patch.termType !== 'NamedNode' && patch.termType !== 'BlankNode') {
    throw invalidPatch('the patch resource must be an IRI or a blank node')
  }
  if (!quads.some(q => q.subject.equals(patch) && q.graph.termType === 'DefaultGraph' && isPatchType(q))) {
    throw invalidPatch('the patch resource must have rdf:type solid:InsertDeletePatch')
  }
  return patch
}

// §5.3.1: solid:inserts/deletes/where each at most once, each a non-nested cited formula of
// triples and triple patterns; absent means the empty formula.
function readFormula(quads: readonly Quad[], patch: Term, predicate: string, formulas: Set<string>): Quad[] {
  const name = `solid:${predicate.slice(SOLID('').length)}`
  const objects = new Map<string, Term>()
  for (const q of quads) {
    if (q.graph.termType === 'DefaultGraph' && q.subject.equals(patch) && q.predicate.value === predicate) {
      objects.set(idOf(q.object), q.object)
    }
  }
  const [formula, ...others] = objects.values()
  if (!formula) return []
  if (others.length > 0) throw invalidPatch(`${name} occurs ${objects.size} times; at most once is allowed`)
  if (formula.termType !== 'BlankNode') throw invalidPatch(`${name} must be a formula { … }`)
  const patterns = quads.filter(q => q.graph.equals(formula))
  for (const q of patterns) checkTriplePattern(q, name, formulas)
  return patterns
}

function checkTriplePattern(q: Quad, name: string, formulas: Set<string>): void {
  const terms: Term[] = [q.subject, q.predicate, q.object]
  if (terms.some(t => t.termType === 'BlankNode' && formulas.has(idOf(t)))) {
    throw invalidPatch(`${name} must not contain a nested formula`)
  }
  if (terms.some(t => t.termType === 'Quad')) throw invalidPatch(`${name} must not contain a quoted triple`)
  const [subject, predicate] = terms as [Term, Term]
  if (subject.termType === 'Literal' || (predicate.termType !== 'NamedNode' && predicate.termType !== 'Variable')) {
    throw invalidPatch(`${name} must hold triple patterns: no literal subject, predicate an IRI or variable`)
  }
}

// §5.3.1 constraints between the formulas, in the spec's order.
function checkTemplates(where: readonly Quad[], inserts: readonly Quad[], deletes: readonly Quad[]): void {
  const bound = new Set(
    termsOf(where)
      .filter(t => t.termType === 'Variable')
      .map(t => t.value),
  )
  for (const [name, formula] of [
    ['solid:inserts', inserts],
    ['solid:deletes', deletes],
  ] as const) {
    const unbound = termsOf(formula).find(t => t.termType === 'Variable' && !bound.has(t.value))
    if (unbound) throw invalidPatch(`?${unbound.value} in ${name} does not occur in solid:where`)
  }
  if (termsOf(deletes).some(t => t.termType === 'BlankNode')) {
    throw invalidPatch('solid:deletes must not contain blank nodes')
  }
  const whereLabels = new Set(blankLabels(where))
  const shared = blankLabels(inserts).find(label => whereLabels.has(label))
  if (shared) throw invalidPatch(`blank node _:${shared} occurs in both solid:inserts and solid:where`)
}

const termsOf = (quads: readonly Quad[]): Term[] => quads.flatMap(q => [q.subject, q.predicate, q.object])

// n3 scopes a labelled blank node to its formula by naming it `<formula id>.<label>`; anonymous
// ones (`[]`) get unique names without that prefix and cannot be shared, so they are skipped.
function blankLabels(formula: readonly Quad[]): string[] {
  return formula.flatMap(q =>
    [q.subject, q.object].filter(t => t.termType === 'BlankNode' && t.value.startsWith(`${q.graph.value}.`)).map(t => t.value.slice(q.graph.value.length + 1)),
  )
}

// §5.3.1 application, in the spec's order.
function applyN3Patch(doc: readonly Quad[], where: readonly Quad[], inserts: readonly Quad[], deletes: readonly Quad[]): Quad[] {
  const bindings = findBindings(where, doc, 2)
  const [binding] = bindings
  if (!binding) throw patchConflict('solid:where matches nothing in the document')
  if (bindings.length > 1) throw patchConflict('solid:where matches the document in more than one way')
  const fresh = freshBlankNodes(doc)
  const removed = instantiate(deletes, binding, fresh)
  const present = new Set(doc.map(tripleKey))
  const absent = removed.find(q => !present.has(tripleKey(q)))
  if (absent) throw patchConflict(`the document does not contain ${showTriple(absent)}`)
  return applyDelta(doc, removed, instantiate(inserts, binding, fresh))
}
