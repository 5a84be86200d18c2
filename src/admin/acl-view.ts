// GET /.admin/api/acl: a resource's own ACL and the access it inherits, as rows the share page shows, read as
// the owner through the operations layer. Saving is a PUT of the ACL document through it (share-page.ts), which
// validates it (WAC §5) and refuses to drop the owner's Control of the root (409 owner_lockout).

import type { Deps } from '../deps.ts'
import { parseAclDocument, type Authorization } from '../policy/acl-document.ts'
import type { AclCondition } from '../policy/acl-conditions.ts'
import { findEffectiveAcl } from '../policy/wac.ts'
import { parentContainerOf } from '../policy/containment.ts'
import { aclOf } from '../store/acl-names.ts'
import { ownerWebIdOf } from '../config.ts'
import { podPath } from './browse.ts'
import { unrepresentedStatements } from './acl-leftovers.ts'
import { readAclStatements } from './acl-statements.ts'
import { ownerActing } from './owner-acting.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'resources'>

export interface AclRow {
  readonly agents: readonly string[]
  readonly agentClasses: readonly string[]
  readonly groups: readonly string[]
  readonly origins: readonly string[]
  readonly keys: readonly string[]
  readonly modes: readonly string[]
  /** acl:condition values (WAC 1.1 ED §4.4): every one must hold. */
  readonly conditions: readonly AclCondition[]
  /** acl:accessTo the resource: "this item". */
  readonly thisItem: boolean
  /** acl:default the container: "everything inside". */
  readonly inside: boolean
}

const row = (a: Authorization, governs: string): AclRow => ({
  agents: a.agents,
  agentClasses: a.agentClasses,
  groups: a.agentGroups,
  origins: a.origins,
  keys: a.keys,
  conditions: a.conditions,
  modes: [...a.modes].filter(m => m !== 'append' || !a.modes.has('write')),
  thisItem: a.accessTo.includes(governs),
  inside: a.default.includes(governs),
})

export async function readAclView(deps: AdminDeps, query: Record<string, unknown>) {
  const { baseUrl } = deps.cfg
  const path = podPath(query.path)
  // As the owner, through the operations layer: 404 not_found for a resource that is not there
  await deps.resources.read(ownerActing(baseUrl), path)
  const load = async (aclUrl: string) => {
    const acl = await readAclStatements(deps, aclUrl)
    return acl && parseAclDocument(acl.triples, aclUrl)
  }
  const url = baseUrl + path
  const ownAcl = await readAclStatements(deps, aclOf(url))
  const own = ownAcl && parseAclDocument(ownAcl.triples, aclOf(url))
  const parent = parentContainerOf(url)
  const inherited = parent === undefined ? undefined : await findEffectiveAcl(parent, load)
  return {
    path,
    url,
    aclUrl: aclOf(url),
    owner: ownerWebIdOf(baseUrl),
    isRoot: path === '/',
    own: own ? own.filter(a => a.accessTo.includes(url) || a.default.includes(url)).map(a => row(a, url)) : null,
    // What Save would drop: the page warns and asks before it rewrites the document
    notEditable: ownAcl ? unrepresentedStatements(ownAcl.triples, aclOf(url), url, ownAcl.namedGraphs) : { count: 0, statements: [] },
    // What applies here without an ACL of its own: the defaults of the nearest ancestor ACL (WAC §6.2)
    inherited: inherited
      ? {
          from: inherited.governs,
          rows: ((await load(inherited.aclUrl)) ?? []).filter(a => a.default.includes(inherited.governs)).map(a => row(a, inherited.governs)),
        }
      : null,
  }
}
