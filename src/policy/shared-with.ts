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
import { parseAclDocument } from './acl-document.ts'

export interface SharedItem {
  /** A stored path (percent-encoded); containers end in `/`. */
  readonly path: string
  readonly modes: ReadonlySet<AccessMode>
}

/** At most this many starting points are listed (a pod sharing more with one person lists the first ones). */
export const MAX_SHARED_ITEMS = 500

const PUBLIC_CLASSES = new Set([FOAF('Agent'), ACL('AuthenticatedAgent')])

/**
 * Every ACL document of the pod is read (one pass over the resources' keys) for rules that could name
 * `principal`; each resource such a rule governs is then decided as any request would be, so what is
 * listed is exactly what the person may open, and nothing else is hinted at. Rules for everyone (public,
 * any signed-in agent) count only with `includePublic`.
 */
export async function sharedWith(deps: { store: Store; baseUrl: string; decider: Pick<AccessDecider, 'decide'> }, principal: Principal,
  o: { includePublic?: boolean } = {}): Promise<SharedItem[]> {
  const candidates = new Set<string>()
  for await (const path of deps.store.meta.keys()) {
    if (!isAcl(path)) continue
    const aclUrl = deps.baseUrl + path
    const meta = await getMeta(deps.store, path)
    if (meta?.kind !== 'rdf') continue
    for (const a of parseAclDocument(await readTriples(deps.store, deps.baseUrl, path), aclUrl)) {
      const names = (principal.webid !== undefined && a.agents.includes(principal.webid)) || a.agentGroups.length > 0
        || (o.includePublic === true && a.agentClasses.some((c) => PUBLIC_CLASSES.has(c)))
      if (!names || !a.modes.has('read')) continue
      for (const target of [...a.accessTo, ...a.default]) if (target.startsWith(deps.baseUrl + '/')) candidates.add(target.slice(deps.baseUrl.length))
    }
  }
  const items: SharedItem[] = []
  for (const path of [...candidates].sort()) {
    if (items.length >= MAX_SHARED_ITEMS) break
    // A folder shared inside a folder already listed is reached through it
    if (items.some((i) => i.path.endsWith('/') && path.startsWith(i.path) && path !== i.path)) continue
    if (!await getMeta(deps.store, path)) continue
    const d = await deps.decider.decide(principal, deps.baseUrl + path, undefined)
    if (d.modes.has('read')) items.push({ path, modes: d.modes })
  }
  return items
}
