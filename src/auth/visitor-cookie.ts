// Who a signed-in visitor is: the principal their visitor session names, which the visitor's pages (visit/) act as
// in the operations layer, and which a request to the resource server with their cookie and CSRF token gets, so
// WAC, grants and every check apply to them exactly as to their apps.

import type { Authenticate } from './authenticate.ts'
import { getVisitorSession, type VisitorSession } from '../account/visitor-sessions.ts'
import { withCookiePrincipal, type CookiePrincipalDeps } from './cookie-principal.ts'
import type { Principal } from './principal.ts'

/** The visitor's WebID, as their own provider (the issuer) confirmed it at sign-in; no keys. */
export const visitorPrincipal = (session: Pick<VisitorSession, 'webid' | 'issuer'>): Principal =>
  ({ webid: session.webid, issuer: session.issuer, keys: [], scheme: 'visitor' })

/** A live visitor session (cookie + CSRF token, cookie-principal.ts) makes the principal that visitor's WebID. */
export function withVisitorCookie(inner: Authenticate, deps: CookiePrincipalDeps): Authenticate {
  return withCookiePrincipal(inner, deps, async (cookieHeader, now) => {
    const session = await getVisitorSession(deps.store, deps.baseUrl, cookieHeader, now)
    return session && visitorPrincipal(session)
  })
}
