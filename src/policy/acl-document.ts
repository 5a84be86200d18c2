// Reads an ACL document's quads into Authorization records (WAC §5, §7.2), validates ACL writes.

import type { Quad, Term } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import { ACL, CERT, FOAF, RDF } from '../rdf/namespaces.ts'
import type { AccessMode } from './access-modes.ts'
import { normalizeKeyId } from '../auth/key-id.ts'
import { readCondition, type AclCondition } from './acl-conditions.ts'

/** One applicable acl:Authorization, with every IRI absolute. Parsed once per document, read per request. */
export interface Authorization {
  /** Subject IRI, or `_:label` for a blank node. */
  readonly id: string
  readonly accessTo: readonly string[]
  readonly default: readonly string[]
  /** Known modes only; acl:Write already brings `append`. */
  readonly modes: ReadonlySet<AccessMode>
  readonly agents: readonly string[]
  readonly agentClasses: readonly string[]
  readonly agentGroups: readonly string[]
  /** Web origins (`scheme://host[:port]`); empty = any origin. */
  readonly origins: readonly string[]
  /** Key IRIs (HttpSig key URLs, did:key identifiers without fragment) whose holders match. */
  readonly keys: readonly string[]
  /** WAC 1.1 ED §4.4 `acl:condition` values: every one must hold for the authorization to apply. */
  readonly conditions: readonly AclCondition[]
}

// §6.1 ontology: acl:Append rdfs:subClassOf acl:Write, so Write grants Append; anything else is ignored.
const MODE_TERMS = new Map<string, readonly AccessMode[]>([
  [ACL('Read'), ['read']],
  [ACL('Write'), ['write', 'append']],
  [ACL('Append'), ['append']],
  [ACL('Control'), ['control']],
])

const DID_KEY = 'did:key:'

type Objects = Map<string, Term[]>
/** subject → predicate → objects of one document. */
export type SubjectIndex = Map<string, Objects>

/** The applicable authorizations of an ACL document; relative IRIs resolve against `aclUrl`. */
export function parseAclDocument(quads: readonly Quad[], aclUrl: string): Authorization[] {
  const bySubject = indexBySubject(quads)
  const auths: Authorization[] = []
  for (const [id, props] of bySubject) {
    if (!props.get(RDF('type'))?.some(t => t.termType === 'NamedNode' && t.value === ACL('Authorization'))) continue
    const auth = readAuthorization(id, props, bySubject, aclUrl)
    if (isApplicable(auth)) auths.push(auth)
  }
  return auths
}

function readAuthorization(id: string, props: Objects, bySubject: SubjectIndex, base: string): Authorization {
  const iris = (p: string) => (props.get(p) ?? []).filter(t => t.termType === 'NamedNode').map(t => resolveIri(t.value, base))
  const modes = new Set<AccessMode>()
  for (const t of props.get(ACL('mode')) ?? []) for (const m of MODE_TERMS.get(t.value) ?? []) modes.add(m)
  const agents: string[] = []
  const keys = new Set<string>()
  for (const t of props.get(ACL('agent')) ?? []) {
    if (t.termType === 'NamedNode') {
      const iri = resolveIri(t.value, base)
      if (iri.startsWith(DID_KEY))
        keys.add(normalizeKeyId(iri)) // §7.2: a did:key agent is its key
      else agents.push(iri)
    }
    if (t.termType === 'NamedNode' || t.termType === 'BlankNode') {
      for (const k of certKeys(t, bySubject, base)) keys.add(k) // §7.2: `acl:agent [ cert:key <K> ]`
    }
  }
  // Origins are read from literals too: an origin we dropped would turn a restricted rule into an open one.
  const origins = (props.get(ACL('origin')) ?? []).filter(t => t.termType === 'NamedNode' || t.termType === 'Literal').map(t => normalizeOrigin(t.value))
  const conditions = (props.get(ACL('condition')) ?? []).flatMap(node =>
    readCondition(
      node,
      n => bySubject.get(termKey(n)),
      values => (values ?? []).filter(t => t.termType === 'NamedNode').map(t => resolveIri(t.value, base)),
    ),
  )
  return {
    id,
    modes,
    agents,
    origins,
    keys: [...keys],
    conditions,
    accessTo: iris(ACL('accessTo')),
    default: iris(ACL('default')),
    agentClasses: iris(ACL('agentClass')),
    agentGroups: iris(ACL('agentGroup')),
  }
}

// §6.1: applicable only with a target, a mode and a subject; the type was checked by the caller.
function isApplicable(a: Authorization): boolean {
  const subjects = a.agents.length + a.agentClasses.length + a.agentGroups.length + a.keys.length
  return a.accessTo.length + a.default.length > 0 && a.modes.size > 0 && subjects > 0
}

/** `cert:key` values of a node described in the same document (ACL agent or group member). */
export function certKeys(node: Term, bySubject: SubjectIndex, base: string): string[] {
  return (bySubject.get(termKey(node))?.get(CERT('key')) ?? []).filter(t => t.termType === 'NamedNode').map(t => normalizeKeyId(resolveIri(t.value, base)))
}

/** subject → predicate → objects; blank nodes keyed `_:label` so they never collide with IRIs. */
export function indexBySubject(quads: readonly Quad[]): SubjectIndex {
  const index: SubjectIndex = new Map()
  for (const q of quads) {
    if (q.subject.termType !== 'NamedNode' && q.subject.termType !== 'BlankNode') continue
    const s = termKey(q.subject)
    const props = index.get(s) ?? new Map<string, Term[]>()
    const objects = props.get(q.predicate.value) ?? []
    objects.push(q.object)
    props.set(q.predicate.value, objects)
    index.set(s, props)
  }
  return index
}

const termKey = (t: Term) => (t.termType === 'BlankNode' ? `_:${t.value}` : t.value)

// Parsers given a base already resolve; quads from elsewhere may still carry a relative IRI.
export function resolveIri(iri: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(iri)) return iri
  try {
    return new URL(iri, base).href
  } catch {
    return iri
  } // unresolvable stays as is and matches nothing
}

/** `scheme://host[:port]` of an http(s) origin; anything else is kept verbatim (and so only matches itself). */
export function normalizeOrigin(value: string): string {
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : value
  } catch {
    return value // e.g. the opaque origin "null": compared as a plain string
  }
}

/**
 * Checks an ACL before it is stored: it must hold an applicable authorization that names the resource it
 * governs (accessTo, or default for a container), or it would silently lock everyone out of that resource.
 */
export function validateAclDocument(quads: readonly Quad[], aclUrl: string, governedUrl: string): Authorization[] {
  const auths = parseAclDocument(quads, aclUrl)
  if (auths.length === 0) {
    throw new HttpError(
      422,
      'invalid_acl',
      'the ACL has no applicable acl:Authorization: each needs ' +
        'a type acl:Authorization, acl:accessTo or acl:default, a known acl:mode and an agent, agentClass or agentGroup',
    )
  }
  const isContainer = governedUrl.endsWith('/')
  const names = (a: Authorization) => a.accessTo.includes(governedUrl) || (isContainer && a.default.includes(governedUrl))
  if (!auths.some(names)) {
    throw new HttpError(
      422,
      'invalid_acl',
      'no acl:Authorization in the ACL names the resource it governs ' +
        `(expected acl:accessTo${isContainer ? ' or acl:default' : ''} with that resource's URL)`,
    )
  }
  return auths
}

/**
 * Does an authorization give `webid` Control of the root itself? Only statically known subjects count
 * (the agent, foaf:Agent, acl:AuthenticatedAgent): a group or key may vanish outside the pod's control.
 * A rule with a condition does not count either: the owner's dashboard session has no client id, so a
 * client condition never holds for it (acl-conditions.ts).
 */
export function grantsControlTo(auths: readonly Authorization[], webid: string, rootUrl: string): boolean {
  return auths.some(
    a =>
      a.modes.has('control') &&
      a.accessTo.includes(rootUrl) &&
      a.conditions.length === 0 &&
      (a.agents.includes(webid) || a.agentClasses.includes(FOAF('Agent')) || a.agentClasses.includes(ACL('AuthenticatedAgent'))),
  )
}

/** §6.4 loss-of-control mitigation: a root ACL write may not take Control of the root from the owner. */
export function assertOwnerKeepsControl(quads: readonly Quad[], rootAclUrl: string, rootUrl: string, ownerWebId: string): void {
  if (grantsControlTo(parseAclDocument(quads, rootAclUrl), ownerWebId, rootUrl)) return
  throw new HttpError(
    409,
    'owner_lockout',
    "the root ACL must keep an acl:Authorization giving the owner's WebID " +
      'acl:Control with acl:accessTo the storage root; without it the owner could never change access again',
  )
}
