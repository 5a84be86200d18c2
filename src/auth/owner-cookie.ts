// The owner's dashboard (/.admin/) reads and writes the pod through the resource server's own LDP
// endpoints with the owner's login cookie, so WAC, ACL validation and owner-lockout apply unchanged.

import type { Authenticate } from './authenticate.ts'
import { getLoginSession } from '../account/owner-session.ts'
import { withCookiePrincipal, type CookiePrincipalDeps } from './cookie-principal.ts'
import type { Principal } from './principal.ts'
import type { WebId } from '../account/ids.ts'
import { ownerWebIdOf } from '../config.ts'

/** The owner's login session (cookie + CSRF token, cookie-principal.ts); with none, the RS answers 401 and the dashboard shows its sign-in link. */
export function withOwnerCookie(inner: Authenticate, deps: CookiePrincipalDeps): Authenticate {
  return withCookiePrincipal(inner, deps, async (cookieHeader, now) => {
    const session = await getLoginSession(deps.store, deps.baseUrl, cookieHeader, now)
    return session && sessionPrincipal(session.webid)
  })
}

const sessionPrincipal = (webid: WebId): Principal => ({ webid, keys: [], scheme: 'session' })

/**
 * The owner signed in to the dashboard: the principal the owner's pages act as when they call the operations
 * layer directly (resources/), the same the owner's cookie gives a request to the resource server; and
 * `solopod keys add`'s, whose operator holds the pod's data directory.
 */
export const ownerSessionPrincipal = (baseUrl: string): Principal => sessionPrincipal(ownerWebIdOf(baseUrl) as WebId)
