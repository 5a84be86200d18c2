// Every ACL document of the pod, for whoever controls its root: what "Shared by me" reads the rules of.

import { isAcl } from '../store/acl-names.ts'
import type { Acting, ResourcesDeps } from './acting.ts'
import { controlOfRoot } from './trash-listing.ts'

/** Keys read per step of the scan. */
const STEP = 1000

/**
 * The stored paths of every ACL document, in path order. ACLs are found by their name among every resource's
 * metadata key (no index of them is kept): a scan of keys alone (no value is read), made only when the owner opens
 * the page. Control of the root, as the trash: the list names documents whoever may read them.
 */
export function makeAclListing(deps: ResourcesDeps) {
  return async function aclDocuments(who: Acting): Promise<string[]> {
    await controlOfRoot(deps, who)
    const out: string[] = []
    const keys = deps.store.meta.keys()
    try {
      for (let got = await keys.nextv(STEP); got.length > 0; got = await keys.nextv(STEP)) for (const k of got) if (isAcl(k)) out.push(k)
    } finally {
      await keys.close()
    }
    return out
  }
}
