// A signed-in visitor's pages (visit/) read and write the pod through the resource server's own LDP
// endpoints with the visitor's cookie, so WAC, grants and every check apply exactly as to their apps.

import type { Authenticate } from './authenticate.ts'
import { getVisitorSession } from '../account/visitor-sessions.ts'
import { withCookiePrincipal, type CookiePrincipalDeps } from './cookie-principal.ts'

/** A live visitor session (cookie + CSRF token, cookie-principal.ts) makes the principal that visitor's WebID. */
export function withVisitorCookie(inner: Authenticate, deps: CookiePrincipalDeps): Authenticate {
  return withCookiePrincipal(inner, deps, async (cookieHeader, now) => {
    const session = await getVisitorSession(deps.store, deps.baseUrl, cookieHeader, now)
    return session && { webid: session.webid, issuer: session.issuer, keys: [], scheme: 'visitor' }
  })
}
