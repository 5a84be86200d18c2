// What a structurally valid GrantData must also mean on this pod: scopes, instances, owner, storage, modes.

import { ACL, INTEROP } from '../rdf/namespaces.ts'
import type { GrantData, Violation } from './grant-schema.ts'

/** SAI §9.6: the scopes a data grant may carry (All and AllFromAgent exist on authorizations only). */
export const GRANT_SCOPES = {
  AllFromRegistry: INTEROP('AllFromRegistry'),
  SelectedFromRegistry: INTEROP('SelectedFromRegistry'),
  Inherited: INTEROP('Inherited'),
} as const
export type GrantScope = keyof typeof GRANT_SCOPES

/** ACL modes plus SAI's Create/Update/Delete (SAI §9.6 access modes); Control is never grantable. */
export const GRANT_MODES = {
  Read: ACL('Read'),
  Write: ACL('Write'),
  Append: ACL('Append'),
  Create: ACL('Create'),
  Update: ACL('Update'),
  Delete: ACL('Delete'),
} as const
export type GrantMode = keyof typeof GRANT_MODES

export const scopeName = (iri: string) => (Object.keys(GRANT_SCOPES) as GrantScope[]).find(k => GRANT_SCOPES[k] === iri)
export const modeName = (iri: string) => (Object.keys(GRANT_MODES) as GrantMode[]).find(k => GRANT_MODES[k] === iri)

export interface PodFacts {
  /** e.g. `https://pod.example` */
  readonly baseUrl: string
  readonly ownerWebId: string
}

export const storageOf = (baseUrl: string) => `${baseUrl}/`

/** The semantic violations of a GrantData that passed the schema; empty when the pod can store it. */
export function checkGrantMeaning(grant: GrantData, pod: PodFacts): Violation[] {
  const out: Violation[] = []
  checkNode(grant, '', undefined, pod, out)
  return out
}

function checkNode(g: GrantData, at: string, parent: GrantData | undefined, pod: PodFacts, out: Violation[]) {
  const add = (field: string, expected: string) => out.push({ pointer: `${at}/${field}`, expected })
  const storage = storageOf(pod.baseUrl)
  const scope = scopeName(g.scopeOfGrant)
  if (!scope) add('scopeOfGrant', `one of ${Object.values(GRANT_SCOPES).join(', ')} (SAI §9.6 data grant scopes)`)
  else if (parent && scope !== 'Inherited') add('scopeOfGrant', `${GRANT_SCOPES.Inherited}: an inheriting grant has scope Inherited`)
  else if (!parent && scope === 'Inherited')
    add('scopeOfGrant', 'AllFromRegistry or SelectedFromRegistry: an Inherited grant needs a parent, so it can only appear inside hasInheritingGrant')
  const selected = scope === 'SelectedFromRegistry'
  if (selected && !g.hasDataInstance?.length) add('hasDataInstance', 'one or more data instances: required with scope SelectedFromRegistry')
  if (!selected && g.hasDataInstance !== undefined) add('hasDataInstance', 'absent: only a SelectedFromRegistry grant lists data instances')
  // SAI §9.6: an inheriting grant is part of the same access, from the same owner to the same grantee
  for (const f of ['grantee', 'grantedBy'] as const) {
    if (parent && g[f] !== parent[f]) add(f, `${parent[f]}: the same ${f} as the grant it inherits from`)
  }
  if (g.dataOwner !== pod.ownerWebId) add('dataOwner', `${pod.ownerWebId}: the owner of this pod`)
  if (g.hasStorage !== storage) add('hasStorage', `${storage}: the storage of this pod`)
  const registration = g.hasDataRegistration
  const badRegistration =
    pathProblem(registration, storage) ??
    (registration === storage ? 'a container inside the storage, not the storage root itself' : undefined) ??
    (registration.endsWith('/') ? undefined : 'a container URL, ending in /')
  if (badRegistration) add('hasDataRegistration', `${storage}…: ${badRegistration}`)
  g.hasDataInstance?.forEach((instance, i) => {
    const problem =
      pathProblem(instance, registration) ?? (instance === registration ? 'an instance inside the registration, not the registration itself' : undefined)
    if (problem) add(`hasDataInstance/${i}`, `${registration}…: ${problem}`)
  })
  g.accessMode.forEach((mode, i) => {
    if (mode === ACL('Control')) add(`accessMode/${i}`, 'a mode other than acl:Control: grants never give control of access')
    else if (!modeName(mode)) add(`accessMode/${i}`, `one of ${Object.values(GRANT_MODES).join(', ')}`)
  })
  g.hasInheritingGrant?.forEach((child, i) => checkNode(child, `${at}/hasInheritingGrant/${i}`, g, pod, out))
}

// A URL that decisions compare by prefix must be in the one form the resource server names resources.
function pathProblem(url: string, inside: string): string | undefined {
  if (!url.startsWith(inside)) return `a URL inside ${inside}`
  const u = new URL(url)
  if (u.search || u.hash || url.includes('#')) return 'a URL without query or fragment'
  if (u.href !== url || /\/\.\.?(\/|$)/.test(u.pathname)) return 'a URL in normal form (no dot segments, encoded as the pod names resources)'
  if (/\.acl$/.test(u.pathname)) return 'a resource, not an ACL: grants never cover access control documents'
  if (/^\/(\.oidc|\.uma|\.admin|\.well-known)(\/|$)/.test(u.pathname)) return "a pod resource, not one of the pod's own endpoints"
  return undefined
}
