// The owner's dashboard (/.admin/) reads and writes the pod through the resource server's own LDP
// endpoints with the owner's login cookie, so WAC, ACL validation and owner-lockout apply unchanged.

import { checkCsrf } from '../http/csrf.ts'
import type { Store } from '../store/open-store.ts'
import type { Authenticate } from './authenticate.ts'
import { getLoginSession } from '../account/owner-session.ts'

interface OwnerCookieDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
}

/**
 * Wraps the token authenticator. A request with no Authorization header that sends `X-CSRF-Token`
 * is a dashboard request: the session cookie must be live, the Origin (when the browser sends one,
 * as it does for every fetch() but a same-origin GET) must be ours, and the token must equal the
 * CSRF cookie (double submit; OWASP CSRF cheat sheet). A cross-site page can neither read that
 * cookie nor pass the Origin check, and without the header the cookie is ignored: ordinary
 * requests stay anonymous, so a link or form from elsewhere never acts as the owner.
 */
export function withOwnerCookie(inner: Authenticate, deps: OwnerCookieDeps): Authenticate {
  return async (request) => {
    const sent = request.headers.get('x-csrf-token')
    const authorization = request.headers.get('authorization')
    if (sent === null || (authorization !== null && authorization.trim() !== '')) return inner(request)
    const cookieHeader = request.headers.get('cookie')
    checkCsrf({ cookieHeader, sent, origin: request.headers.get('origin'), baseUrl: deps.baseUrl })
    const session = await getLoginSession(deps.store, deps.baseUrl, cookieHeader, deps.now())
    // No live session: the dashboard shows its sign-in link on the 401 the RS answers for anonymous
    if (!session) return inner(request)
    return { webid: session.webid, keys: [], scheme: 'session' }
  }
}
