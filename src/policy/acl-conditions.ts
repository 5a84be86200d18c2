// Access conditions of an authorization (WAC 1.1 editor's draft, 2026-04-20, §4.4 "Access Conditions",
// §5.3.2 "Condition Evaluation"): which apps (acl:ClientCondition) and which identity issuers
// (acl:IssuerCondition) an agent's access holds through. Read from an ACL document, judged per request.

import type { Term } from '@rdfjs/types'
import { ACL, FOAF, RDF } from '../rdf/namespaces.ts'
import type { Principal } from '../auth/principal.ts'
import type { WebId } from '../account/ids.ts'

/** The condition types this pod understands: advertised on ACL resources (draft §3.2), and nothing else. */
export const CONDITION_TYPES = [ACL('ClientCondition'), ACL('IssuerCondition')] as const

/**
 * One `acl:condition` value. `client`/`issuer`: the draft's §4.4 properties, every IRI absolute.
 * `unknown`: a type this pod does not understand, a node with no type, or a literal: it never holds.
 */
export type AclCondition =
  | { readonly kind: 'client' | 'issuer'; readonly members: readonly string[]; readonly groups: readonly string[]; readonly classes: readonly string[] }
  | { readonly kind: 'unknown'; readonly type?: string }

/** The draft's one class for both: foaf:Agent, any client (§4.4.1) or any issuer (§4.4.2). */
const ANY = FOAF('Agent')
const GENERIC = ACL('Condition')

const PROPERTIES = {
  client: { member: ACL('client'), group: ACL('clientGroup'), class: ACL('clientClass') },
  issuer: { member: ACL('issuer'), group: ACL('issuerGroup'), class: ACL('issuerClass') },
} as const

/**
 * The conditions a condition node stands for. A node typed acl:ClientCondition and acl:IssuerCondition is
 * both (each must hold); acl:Condition itself says nothing. Any other type makes the node one we do not
 * understand: the draft (§5.3.2, §7.3) would ignore it and let the authorization grant without it, but a
 * condition is there to narrow access, so ignoring one widens access beyond what its author wrote (the
 * draft's own §8 "consider-condition-legacy" warning). This pod fails closed instead: the authorization
 * never applies.
 */
export function readCondition(
  node: Term,
  propsOf: (node: Term) => ReadonlyMap<string, readonly Term[]> | undefined,
  iris: (values: readonly Term[] | undefined) => string[],
): AclCondition[] {
  if (node.termType !== 'NamedNode' && node.termType !== 'BlankNode') return [{ kind: 'unknown' }]
  const props = propsOf(node)
  const types = (props?.get(RDF('type')) ?? []).map(t => t.value).filter(t => t !== GENERIC)
  const foreign = types.find(t => !(CONDITION_TYPES as readonly string[]).includes(t))
  if (foreign !== undefined) return [{ kind: 'unknown', type: foreign }]
  if (types.length === 0) return [{ kind: 'unknown' }]
  return (['client', 'issuer'] as const)
    .filter(kind => types.includes(ACL(kind === 'client' ? 'ClientCondition' : 'IssuerCondition')))
    .map(kind => ({
      kind,
      members: iris(props?.get(PROPERTIES[kind].member)),
      groups: iris(props?.get(PROPERTIES[kind].group)),
      classes: iris(props?.get(PROPERTIES[kind].class)),
    }))
}

export type ConditionRequester = Pick<Principal, 'clientId' | 'issuer'>

/** Is an IRI (a client id, an issuer) a `vcard:hasMember` of a group? The groups of acl:agentGroup answer it. */
export type IriGroupMembership = (groupUrl: string, iri: string) => Promise<boolean>

/**
 * The first condition that does not hold for the requester, or undefined when all hold (draft §5.3.2: all of
 * an authorization's conditions must be satisfied). A requester without a client id (anonymous, HttpSig, the
 * owner's dashboard session) satisfies no client condition, one without an issuer no issuer condition:
 * there is nothing to compare, and "any client" still means some client.
 */
export async function unmetCondition(
  conditions: readonly AclCondition[],
  who: ConditionRequester,
  inGroup: IriGroupMembership,
): Promise<AclCondition | undefined> {
  for (const c of conditions) {
    if (c.kind === 'unknown') return c
    const value = c.kind === 'client' ? who.clientId : who.issuer
    if (value === undefined) return c
    // Client ids and issuers are compared as exact strings, as Solid-OIDC compares them
    if (c.classes.includes(ANY) || c.members.includes(value)) continue
    let inAny = false
    for (const g of c.groups) if ((inAny = await inGroup(g, value))) break
    if (!inAny) return c
  }
  return undefined
}

/** "only through app X" and the like: the explanation of an unmet condition, for the owner's "why?". */
export function describeCondition(c: AclCondition): string {
  if (c.kind === 'unknown') {
    return `it has a condition this pod does not understand (${c.type ? `type ${c.type}` : 'no type'}), so it never applies`
  }
  const client = c.kind === 'client'
  const options = [
    ...c.members.map(m => (client ? `app ${m}` : m)),
    ...c.groups.map(g => `a member of ${g}`),
    ...c.classes.map(k => (k === ANY ? (client ? 'any app' : 'any issuer') : `class ${k}`)),
  ]
  if (options.length === 0) return `its ${c.kind} condition names no ${c.kind}, so it never applies`
  return `${client ? 'only through' : 'only with an identity from'} ${options.join(' or ')}`
}

/** Group membership of a client id or issuer, asked of the same resolver (and cache) as acl:agentGroup. */
export const iriGroupMembership =
  (isGroupMember: (groupUrl: string, principal: { webid?: WebId; keys: readonly string[] }) => Promise<boolean>): IriGroupMembership =>
  // A group lists members by IRI: a client id or issuer is found in it as a WebID would be.
  (groupUrl, iri) =>
    isGroupMember(groupUrl, { webid: iri as WebId, keys: [] })
