// GrantData as RDF in the interop vocabulary (SAI §9.6 Data Grant) and back: one document per grant,
// inheriting grants as fragments of it linked by interop:inheritsFromGrant.

import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { INTEROP, RDF } from '../rdf/namespaces.ts'
import { GRANT_MODES } from './grant-rules.ts'
import type { GrantData } from './grant-schema.ts'

const { namedNode, quad } = DataFactory

const SINGLE = ['grantee', 'grantedBy', 'dataOwner', 'registeredShapeTree', 'hasDataRegistration', 'hasStorage', 'scopeOfGrant'] as const
const MODE_ORDER: readonly string[] = Object.values(GRANT_MODES)

/** The IRI of the `path`-th inheriting grant (e.g. [0, 1]) inside the grant document `iri`. */
export const childIri = (iri: string, path: readonly number[]) => (path.length === 0 ? iri : `${iri}#inherit-${path.join('-')}`)

/**
 * The one form a grant is stored and answered in. RDF holds sets, not lists, so accessMode is in ACL
 * order (Read, Write, Append, Create, Update, Delete) and hasDataInstance sorted; that is what reading
 * the graph back gives, so a grant round-trips to exactly this JSON.
 */
export function canonicalGrant(g: GrantData): GrantData {
  const modes = [...g.accessMode].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return {
    ...(Object.fromEntries(SINGLE.map(k => [k, g[k]])) as Pick<GrantData, (typeof SINGLE)[number]>),
    accessMode: modes,
    ...(g.hasDataInstance ? { hasDataInstance: [...g.hasDataInstance].sort() } : {}),
    ...(g.hasInheritingGrant ? { hasInheritingGrant: g.hasInheritingGrant.map(canonicalGrant) } : {}),
  }
}

const rank = (mode: string) => {
  const i = MODE_ORDER.indexOf(mode)
  return i < 0 ? MODE_ORDER.length : i
}

/** The triples of a grant and its inheriting grants, all in the named graph `iri` (the grant's document). */
export function grantToQuads(g: GrantData, iri: string): Quad[] {
  const graph = namedNode(iri)
  const out: Quad[] = []
  const add = (node: GrantData, path: number[], parent?: string) => {
    const s = namedNode(childIri(iri, path))
    const triple = (p: string, o: string) => out.push(quad(s, namedNode(p), namedNode(o), graph) as Quad)
    triple(RDF('type'), INTEROP('DataGrant'))
    for (const k of SINGLE) triple(INTEROP(k), node[k])
    for (const m of node.accessMode) triple(INTEROP('accessMode'), m)
    for (const i of node.hasDataInstance ?? []) triple(INTEROP('hasDataInstance'), i)
    if (parent) triple(INTEROP('inheritsFromGrant'), parent)
    node.hasInheritingGrant?.forEach((child, i) => add(child, [...path, i], s.value))
  }
  add(g, [])
  return out
}

/** Reads the grant `iri` (and its inheriting grants) back from its triples; undefined when it is not there. */
export function quadsToGrant(quads: readonly Quad[], iri: string): GrantData | undefined {
  const bySubject = new Map<string, Map<string, string[]>>()
  const children = new Map<string, string[]>()
  for (const q of quads) {
    if (q.subject.termType !== 'NamedNode' || q.object.termType !== 'NamedNode') continue
    const props = bySubject.get(q.subject.value) ?? new Map<string, string[]>()
    props.set(q.predicate.value, [...(props.get(q.predicate.value) ?? []), q.object.value])
    bySubject.set(q.subject.value, props)
    if (q.predicate.value === INTEROP('inheritsFromGrant')) children.set(q.object.value, [...(children.get(q.object.value) ?? []), q.subject.value])
  }
  const read = (node: string, seen: Set<string>): GrantData | undefined => {
    const props = bySubject.get(node)
    if (!props || seen.has(node)) return undefined
    seen.add(node)
    const one = (k: string) => props.get(INTEROP(k))?.[0]
    if (SINGLE.some(k => one(k) === undefined)) return undefined
    const kids = (children.get(node) ?? [])
      .sort(byChildOrder)
      .map(c => read(c, seen))
      .filter((c): c is GrantData => c !== undefined)
    const instances = props.get(INTEROP('hasDataInstance'))
    return canonicalGrant({
      ...(Object.fromEntries(SINGLE.map(k => [k, one(k)!])) as Pick<GrantData, (typeof SINGLE)[number]>),
      accessMode: props.get(INTEROP('accessMode')) ?? [],
      ...(instances ? { hasDataInstance: instances } : {}),
      ...(kids.length ? { hasInheritingGrant: kids } : {}),
    })
  }
  return read(iri, new Set())
}

// `#inherit-0-10` after `#inherit-0-9`: compare the index path numerically, as it was written.
function byChildOrder(a: string, b: string): number {
  const pa = indexPath(a),
    pb = indexPath(b)
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!
  return pa.length - pb.length || a.localeCompare(b)
}
const indexPath = (iri: string) => (/#inherit-([\d-]+)$/.exec(iri)?.[1] ?? '').split('-').filter(Boolean).map(Number)
