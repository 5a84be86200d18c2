// Which documents an Inherited grant may follow links from (SAI §9.6 Inherited): only those no one but the
// owner could have written. Otherwise a grantee with Append on a parent instance widens its own grant.

import { findEffectiveAcl, type AclLoader } from './wac.ts'
import type { Authorization } from './acl-document.ts'
import { parentContainerOf } from './containment.ts'
import { instanceOf, modesAt, type GrantIndex, type GrantNode } from './grants.ts'
import type { AccessMode } from './access-modes.ts'

export interface TrustSources {
  readonly loadAcl: AclLoader
  readonly grants: GrantIndex
  /** The pod owner's WebID: the one agent whose links widen a grant. */
  readonly owner: string
}

const WRITING: readonly AccessMode[] = ['write', 'append', 'control']
const CONTROL: readonly AccessMode[] = ['control']

/**
 * Why someone other than the owner may have written `doc`, or undefined when only the owner can. Decided
 * on who may, now (WAC ∪ every grant, whoever its grantee):
 * - write, append to or control `doc` itself;
 * - write, append to or control its container: Append there creates members, so `doc` may have been POSTed;
 * - control a container from there up to the one whose ACL governs `doc`: they could give themselves Write.
 * Any subject but the owner's WebID counts: another WebID, a class, a group (not resolved: it may change), a
 * key, and every grant; an Inherited grant counts without following its links (following them would need
 * this very answer). Conservative on purpose: when unsure, the link is not followed.
 */
export async function writableByOthers(doc: string, src: TrustSources): Promise<string | undefined> {
  const governs = (await findEffectiveAcl(doc, src.loadAcl)).governs
  const checks: [string, readonly AccessMode[]][] = [[doc, WRITING]]
  let c = parentContainerOf(doc)
  if (c !== undefined) checks.push([c, WRITING])
  while (c !== undefined && c.length > governs.length) {
    c = parentContainerOf(c)
    if (c !== undefined) checks.push([c, CONTROL])
  }
  for (const [url, modes] of checks) {
    const why = (await byAcl(url, modes, src)) ?? byGrant(url, modes, src.grants)
    if (why) return why
  }
  return undefined
}

async function byAcl(url: string, modes: readonly AccessMode[], src: TrustSources): Promise<string | undefined> {
  const effective = await findEffectiveAcl(url, src.loadAcl)
  for (const a of effective.authorizations) {
    const mode = modes.find(m => a.modes.has(m))
    const who = mode && otherSubject(a, src.owner)
    if (who) return `${a.id.startsWith('_:') ? `${a.id} in ${effective.aclUrl}` : a.id} gives ${who} ${mode} on ${url}`
  }
  return undefined
}

/** The first subject of an authorization that is not the owner's WebID (WAC §5 subjects, §7.2 keys). */
const otherSubject = (a: Authorization, owner: string): string | undefined =>
  a.agentClasses[0] ?? a.agentGroups[0] ?? a.keys[0] ?? a.agents.find(x => x !== owner)

function byGrant(url: string, modes: readonly AccessMode[], index: GrantIndex): string | undefined {
  const isContainer = url.endsWith('/')
  for (let reg = isContainer ? url : parentContainerOf(url); reg !== undefined; reg = parentContainerOf(reg)) {
    for (const node of index.byRegistration.get(reg) ?? []) {
      const mode = grantModesOn(node, url, isContainer).find(m => modes.includes(m))
      if (mode) return `grant ${node.iri} gives ${node.grantee} ${mode} on ${url}`
    }
  }
  return undefined
}

// grants.ts coverage, but an Inherited grant is taken to cover every instance of its registration.
function grantModesOn(node: GrantNode, url: string, isContainer: boolean): AccessMode[] {
  const isRegistration = url === node.registration
  if (node.scope === 'AllFromRegistry') return modesAt(node.modes, isRegistration, isContainer)
  if (isRegistration) return []
  if (node.scope === 'SelectedFromRegistry' && !node.instances.includes(instanceOf(url, node.registration))) return []
  return modesAt(node.modes, false, isContainer)
}
