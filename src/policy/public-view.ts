// "As the public would see it": whether the pod may read one of its own documents for a request that named
// it (a token's WebID profile, a Client ID Document, an HttpSig key document or credential).

import { ANONYMOUS } from '../auth/principal.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { isAcl } from '../store/acl-names.ts'
import { resolveTarget } from '../store/target.ts'
import type { AccessDecider } from './access-decider.ts'

/** True when the anonymous agent may read the pod document `url` names; false for anything else. */
export type PublicView = (url: string) => Promise<boolean>

/**
 * Whoever sent the request chose the URL, so a document is read only when the public may read it: the
 * decider's answer for the anonymous agent (WAC ∪ grants, cached until an ACL changes), the one the
 * resource server gives a GET without credentials. ACL documents and the pod's endpoints are never read
 * this way, whatever a rule says: they are no documents a profile or key lives in.
 */
export function makePublicView(decider: Pick<AccessDecider, 'decide'>, baseUrl: string): PublicView {
  const ownOrigin = new URL(baseUrl).origin
  return async url => {
    if (!URL.canParse(url) || new URL(url).origin !== ownOrigin) return false
    let target: ReturnType<typeof resolveTarget>
    try {
      target = resolveTarget(baseUrl, url)
    } catch {
      return false
    }
    if (isAcl(target.path) || isReservedPath(target.path)) return false
    return (await decider.decide(ANONYMOUS, target.url, undefined)).modes.has('read')
  }
}
