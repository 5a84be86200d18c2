// What the owner shared with one person: the folders and files whose access rules name them (or a
// class or group they are in), kept only where the one decision says they may read. The visitor's
// starting page lists these; the owner's dashboard shows them per person.

import type { Principal } from '../auth/principal.ts'
import type { Store } from '../store/open-store.ts'
import { getMeta, readTriples } from '../store/resources.ts'
import { isAcl } from '../store/acl-names.ts'
import { ACL, FOAF } from '../rdf/namespaces.ts'
import type { AccessMode } from './access-modes.ts'
import type { AccessDecider } from './access-decider.ts'
import { parseAclDocument, type Authorization } from './acl-document.ts'
import type { WebId } from '../account/ids.ts'
import type { GrantRegistry } from './grant-registry.ts'

export interface SharedItem {
  /** A stored path (percent-encoded); containers end in `/`. */
  readonly path: string
  readonly modes: ReadonlySet<AccessMode>
}

/** At most this many starting points are listed (a pod sharing more with one person lists the first ones). */
export const MAX_SHARED_ITEMS = 500

const PUBLIC_CLASSES = new Set([FOAF('Agent'), ACL('AuthenticatedAgent')])

type SharingDeps = { store: Store; baseUrl: string; decider: Pick<AccessDecider, 'decide'>; grants?: Pick<GrantRegistry, 'index'> }

/** Every authorization of every ACL document of the pod (one pass over the resources' keys). */
async function allAuthorizations(deps: Pick<SharingDeps, 'store' | 'baseUrl'>): Promise<Authorization[]> {
  const out: Authorization[] = []
  for await (const path of deps.store.meta.keys()) {
    if (!isAcl(path)) continue
    const meta = await getMeta(deps.store, path)
    if (meta?.kind !== 'rdf') continue
    out.push(...parseAclDocument(await readTriples(deps.store, deps.baseUrl, path), deps.baseUrl + path))
  }
  return out
}

/**
 * Every ACL document of the pod is read (one pass over the resources' keys) for rules that could name
 * `principal`; each resource such a rule governs is then decided as any request would be, so what is
 * listed is exactly what the person may open, and nothing else is hinted at. Rules for everyone (public,
 * any signed-in agent) count only with `includePublic`.
 */
export async function sharedWith(deps: SharingDeps, principal: Principal, o: { includePublic?: boolean } = {}): Promise<SharedItem[]> {
  return sharedAmong(await allAuthorizations(deps), deps, principal, o)
}

async function sharedAmong(auths: readonly Authorization[], deps: SharingDeps, principal: Principal, o: { includePublic?: boolean }): Promise<SharedItem[]> {
  const candidates = new Set<string>()
  for (const a of auths) {
    const names =
      (principal.webid !== undefined && a.agents.includes(principal.webid)) ||
      a.agentGroups.length > 0 ||
      (o.includePublic === true && a.agentClasses.some(c => PUBLIC_CLASSES.has(c)))
    if (!names || !a.modes.has('read')) continue
    for (const target of [...a.accessTo, ...a.default]) if (target.startsWith(deps.baseUrl + '/')) candidates.add(target.slice(deps.baseUrl.length))
  }
  // Access grants name their grantee too: the data registration (a folder) or the instances they cover
  const granted = principal.webid !== undefined && deps.grants ? ((await deps.grants.index()).byGrantee.get(principal.webid) ?? []) : []
  for (const g of granted) {
    for (const target of g.instances.length > 0 ? g.instances : [g.registration])
      if (target.startsWith(deps.baseUrl + '/')) candidates.add(target.slice(deps.baseUrl.length))
  }
  const items: SharedItem[] = []
  for (const path of [...candidates].sort()) {
    if (items.length >= MAX_SHARED_ITEMS) break
    // A folder shared inside a folder already listed is reached through it
    if (items.some(i => i.path.endsWith('/') && path.startsWith(i.path) && path !== i.path)) continue
    if (!(await getMeta(deps.store, path))) continue
    const d = await deps.decider.decide(principal, deps.baseUrl + path, undefined)
    if (d.modes.has('read')) items.push({ path, modes: d.modes })
  }
  return items
}

/** People listed at most (each costs a decision per resource their rules name). */
export const MAX_PEOPLE = 200

/**
 * Every person (WebID) the owner's rules name, other than the owner, with what they may reach: the owner's
 * dashboard shows, per person, exactly what that person's visitor pages list.
 */
export async function sharedPeople(deps: SharingDeps, owner: string): Promise<{ webid: WebId; items: SharedItem[] }[]> {
  const people = new Set<string>()
  // The ACLs are read once for everyone, not once per person
  const auths = await allAuthorizations(deps)
  for (const a of auths) for (const agent of a.agents) if (agent !== owner && people.size < MAX_PEOPLE) people.add(agent)
  if (deps.grants) for (const grantee of (await deps.grants.index()).byGrantee.keys()) if (grantee !== owner && people.size < MAX_PEOPLE) people.add(grantee)
  const out: { webid: WebId; items: SharedItem[] }[] = []
  for (const webid of [...people].sort()) {
    const items = await sharedAmong(auths, deps, { webid: webid as WebId, keys: [], scheme: 'visitor' }, {})
    if (items.length > 0) out.push({ webid: webid as WebId, items })
  }
  return out
}
