// The owner's dashboard script (/.admin/) reads and writes the pod through the resource server's own LDP endpoints
// with the owner's login cookie, so WAC, grants, ACL validation and owner-lockout apply unchanged. (A visitor's
// cookie names nobody here: only the visitor's pages act as the visitor.)

import { checkCsrf } from '../http/csrf.ts'
import type { Authenticate } from './authenticate.ts'
import { getLoginSession } from '../account/owner-session.ts'
import type { Principal } from './principal.ts'
import type { WebId } from '../account/ids.ts'
import type { Store } from '../store/open-store.ts'
import { ownerWebIdOf } from '../config.ts'

export interface OwnerCookieDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
}

/**
 * A request with no Authorization header that sends `X-CSRF-Token` is a page's own request: the Origin (when
 * the browser sends one, as it does for every fetch() but a same-origin GET) must be ours, and the token must
 * equal the CSRF cookie (double submit; OWASP CSRF cheat sheet). Then the owner's login session is who the cookie
 * is; with none the request goes on to `inner` (the RS answers 401 and the dashboard shows its sign-in link). A
 * cross-site page can neither read that cookie nor pass the Origin check, and without the header the cookie is
 * ignored: ordinary requests stay anonymous, so a link or form from elsewhere never acts as anyone.
 */
export function withOwnerCookie(inner: Authenticate, deps: OwnerCookieDeps): Authenticate {
  return async request => {
    const sent = request.headers.get('x-csrf-token')
    // Most requests send no CSRF token: their Authorization (a DPoP request's is ~1 KB) is not copied out here too
    if (sent === null) return inner(request)
    const authorization = request.headers.get('authorization')
    if (authorization !== null && authorization.trim() !== '') return inner(request)
    const cookieHeader = request.headers.get('cookie')
    checkCsrf({ cookieHeader, sent, origin: request.headers.get('origin'), baseUrl: deps.baseUrl })
    const session = await getLoginSession(deps.store, deps.baseUrl, cookieHeader, deps.now())
    return session ? sessionPrincipal(session.webid) : inner(request)
  }
}

const sessionPrincipal = (webid: WebId): Principal => ({ webid, keys: [], scheme: 'session' })

/**
 * The owner signed in to the dashboard: the principal the owner's pages act as when they call the operations
 * layer directly (resources/), the same the owner's cookie gives a request to the resource server; and
 * `solopod keys add`'s, whose operator holds the pod's data directory.
 */
export const ownerSessionPrincipal = (baseUrl: string): Principal => sessionPrincipal(ownerWebIdOf(baseUrl) as WebId)
