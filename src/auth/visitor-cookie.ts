// A signed-in visitor's pages (visit/) read and write the pod through the resource server's own LDP
// endpoints with the visitor's cookie, so WAC, grants and every check apply exactly as to their apps.

import { checkCsrf } from '../http/csrf.ts'
import type { Store } from '../store/open-store.ts'
import type { Authenticate } from './authenticate.ts'
import { getVisitorSession } from '../account/visitor-sessions.ts'

interface VisitorCookieDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
}

/**
 * As the owner's cookie (owner-cookie.ts): only a request without Authorization that sends
 * `X-CSRF-Token` equal to the CSRF cookie, with our Origin, counts; then a live visitor session makes the
 * principal that visitor's WebID. A link or form from elsewhere never acts as the visitor.
 */
export function withVisitorCookie(inner: Authenticate, deps: VisitorCookieDeps): Authenticate {
  return async (request) => {
    const sent = request.headers.get('x-csrf-token')
    const authorization = request.headers.get('authorization')
    if (sent === null || (authorization !== null && authorization.trim() !== '')) return inner(request)
    const cookieHeader = request.headers.get('cookie')
    checkCsrf({ cookieHeader, sent, origin: request.headers.get('origin'), baseUrl: deps.baseUrl })
    const session = await getVisitorSession(deps.store, deps.baseUrl, cookieHeader, deps.now())
    if (!session) return inner(request)
    return { webid: session.webid, issuer: session.issuer, keys: [], scheme: 'visitor' }
  }
}
