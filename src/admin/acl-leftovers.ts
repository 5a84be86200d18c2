// What the share editor cannot show of an ACL document: its Save writes the document anew from the
// table (one acl:Authorization per subject, WAC §5), so every other statement would be dropped.

import type { Quad, Term } from '@rdfjs/types'
import { ACL, CERT, PREFIXES, RDF, RDFS } from '../rdf/namespaces.ts'
import { parseAclDocument, resolveIri } from '../policy/acl-document.ts'
import { CONDITION_TYPES } from '../policy/acl-conditions.ts'

/** Statements shown at most (the count says how many there are in all). */
const SHOWN = 20
const MODES = new Set([ACL('Read'), ACL('Write'), ACL('Append'), ACL('Control')])
const SUBJECTS = new Set([ACL('agent'), ACL('agentClass'), ACL('agentGroup'), ACL('origin')])
/** WAC 1.1 ED §4.4 properties of the condition types the editor writes back (acl-entries.ts). */
const CONDITION_PROPERTIES = new Set(['client', 'clientGroup', 'clientClass', 'issuer', 'issuerGroup', 'issuerClass'].map(p => ACL(p)))

const key = (t: Term) => (t.termType === 'BlankNode' ? `_:${t.value}` : t.value)

/**
 * The statements of `quads` (the ACL document at `aclUrl`) that the rows for `governedUrl` do not
 * carry: authorizations for other resources, rdfs:comment and other notes, unknown modes, other
 * targets of a shown authorization; and every quad of the document's own named graphs (`namedGraphs`:
 * the table writes one default graph). Comments in the Turtle text itself are never stored (the pod
 * keeps the parsed statements), so they cannot be listed here.
 */
export function unrepresentedStatements(
  quads: readonly Quad[],
  aclUrl: string,
  governedUrl: string,
  namedGraphs: readonly Quad[] = [],
): { count: number; statements: string[] } {
  const shown = new Set(
    parseAclDocument(quads, aclUrl)
      .filter(a => a.accessTo.includes(governedUrl) || a.default.includes(governedUrl))
      .map(a => a.id),
  )
  // blank nodes that stand for a key holder (`acl:agent [ cert:key <K> ]`) of a shown authorization
  const keyHolders = new Set(
    quads.filter(q => shown.has(key(q.subject)) && q.predicate.value === ACL('agent') && q.object.termType === 'BlankNode').map(q => key(q.object)),
  )
  // condition nodes of a shown authorization: their type and known properties are written back; of a type the
  // pod does not understand, only the type (the condition still never applies), so its other statements are listed
  const conditionNodes = new Set(quads.filter(q => shown.has(key(q.subject)) && q.predicate.value === ACL('condition')).map(q => key(q.object)))
  const understood = (s: string) =>
    quads.every(q => key(q.subject) !== s || q.predicate.value !== RDF('type') || [...CONDITION_TYPES, ACL('Condition')].includes(q.object.value))
  const carried = (q: Quad) => {
    const s = key(q.subject)
    const p = q.predicate.value
    if (keyHolders.has(s)) return p === CERT('key') && q.object.termType === 'NamedNode'
    if (conditionNodes.has(s)) return p === RDF('type') || (understood(s) && CONDITION_PROPERTIES.has(p) && q.object.termType === 'NamedNode')
    if (!shown.has(s)) return false
    if (p === ACL('condition')) return true
    if (p === RDF('type')) return q.object.value === ACL('Authorization')
    if (p === ACL('accessTo') || p === ACL('default')) return resolveIri(q.object.value, aclUrl) === governedUrl
    if (p === ACL('mode')) return MODES.has(q.object.value)
    return SUBJECTS.has(p)
  }
  const left = [...quads.filter(q => !carried(q)), ...namedGraphs]
  return {
    count: left.length,
    statements: left.slice(0, SHOWN).map(q => inGraph(q, `${show(q.subject, aclUrl)} ${show(q.predicate, aclUrl)} ${show(q.object, aclUrl)}.`, aclUrl)),
  }
}

/** A statement of a named graph as TriG writes it (TriG §2.2). */
function inGraph(q: Quad, statement: string, aclUrl: string): string {
  return q.graph.termType === 'DefaultGraph' ? statement : `${show(q.graph, aclUrl)} { ${statement} }`
}

function show(t: Term, aclUrl: string): string {
  if (t.termType === 'BlankNode') return '[]'
  if (t.termType === 'Literal') return JSON.stringify(t.value)
  const iri = resolveIri(t.value, aclUrl)
  if (iri.startsWith(`${aclUrl}#`)) return `<${iri.slice(aclUrl.length)}>`
  for (const [prefix, ns] of Object.entries({ ...PREFIXES, rdfs: RDFS('') }))
    if (iri.startsWith(ns) && /^[\w-]+$/.test(iri.slice(ns.length))) return `${prefix}:${iri.slice(ns.length)}`
  return `<${iri}>`
}
