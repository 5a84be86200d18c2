// The Files page's "Public" and "Shared" markers, for the rows of one page only (≤ 100): "Public" when the
// one access decision lets the anonymous agent read the item, "Shared" when the rules that govern it (its own
// ACL or the defaults it inherits, WAC §6.2) or an access grant give someone other than the owner access.

import type { Deps } from '../deps.ts'
import { ANONYMOUS } from '../auth/principal.ts'
import { ownerWebIdOf } from '../config.ts'
import { parseAclDocument, type Authorization } from '../policy/acl-document.ts'
import { findEffectiveAcl } from '../policy/wac.ts'
import { ACL } from '../rdf/namespaces.ts'
import { HttpError } from '../http/errors.ts'
import { readAclStatements } from './acl-statements.ts'

export interface RowMarkers {
  readonly public: boolean
  readonly shared: boolean
}

// `store` is not read here: files-page.ts lists a folder with these same deps (its ListingDeps)
type MarkerDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'decider' | 'grants'>

const AUTHENTICATED = ACL('AuthenticatedAgent')

/** Names someone other than the owner: another WebID, a group, or any signed-in agent (the public is "Public"). */
const namesOthers = (a: Authorization, owner: string) => a.agents.some(x => x !== owner) || a.agentGroups.length > 0 || a.agentClasses.includes(AUTHENTICATED)

/**
 * A decider of markers for one request: each ACL document is read once however many rows it governs (as the
 * owner, through the operations layer), and the grants index once.
 */
export function makeRowMarkers(deps: MarkerDeps): (path: string) => Promise<RowMarkers> {
  const { baseUrl } = deps.cfg
  const owner = ownerWebIdOf(baseUrl)
  const acls = new Map<string, Promise<Authorization[] | undefined>>()
  const loadAcl = (aclUrl: string) => {
    let got = acls.get(aclUrl)
    if (!got) {
      got = readAclStatements(deps, aclUrl).then(acl => acl && parseAclDocument(acl.triples, aclUrl))
      acls.set(aclUrl, got)
    }
    return got
  }
  let granted: Promise<string[]> | undefined
  // What the grants of people other than the owner reach: registrations (folders) and single instances
  const grantTargets = () =>
    (granted ??= deps.grants
      .index()
      .then(index =>
        [...index.byGrantee]
          .filter(([grantee]) => grantee !== owner)
          .flatMap(([, nodes]) => nodes.flatMap(g => (g.instances.length > 0 ? [...g.instances] : [g.registration]))),
      ))
  /** Whether the rules that govern `url` name others; undefined when the owner may not read them. */
  const rulesNameOthers = async (path: string, url: string): Promise<boolean | undefined> => {
    try {
      const effective = await findEffectiveAcl(url, loadAcl)
      // A folder is shared too when its own ACL gives others what is inside (acl:default) but not the folder itself
      const inside = path.endsWith('/') && !effective.inherited ? ((await loadAcl(effective.aclUrl)) ?? []).filter(a => a.default.includes(url)) : []
      return [...effective.authorizations, ...inside].some(a => namesOthers(a, owner))
    } catch (err) {
      if (err instanceof HttpError && err.status === 403) return undefined
      throw err
    }
  }
  return async path => {
    const url = baseUrl + path
    const [decision, namedOthers, targets] = await Promise.all([deps.decider.decide(ANONYMOUS, url, undefined), rulesNameOthers(path, url), grantTargets()])
    const byGrant = targets.some(t => t === url || (t.endsWith('/') && url.startsWith(t)))
    // Rules the owner may not read: the owner gave up Control there (the share page asks first), handing it to
    // whom those rules name; the item counts as shared, and its marker leads to its share page, which says so.
    return { public: decision.modes.has('read'), shared: byGrant || (namedOthers ?? true) }
  }
}
