// A browser's cookie session as the principal of a request to the resource server: the owner's dashboard script
// (owner-cookie.ts) reads and writes the pod through the RS's own LDP endpoints, so WAC, grants and every check
// apply to it unchanged. (A visitor's cookie names nobody here: only the visitor's pages act as the visitor.)

import { checkCsrf } from '../http/csrf.ts'
import type { Authenticate } from './authenticate.ts'
import type { Principal } from './principal.ts'
import type { Store } from '../store/open-store.ts'

export interface CookiePrincipalDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
}

/**
 * A request with no Authorization header that sends `X-CSRF-Token` is a page's own request: the Origin (when
 * the browser sends one, as it does for every fetch() but a same-origin GET) must be ours, and the token must
 * equal the CSRF cookie (double submit; OWASP CSRF cheat sheet). Then `sessionOf` names who the cookie is; with
 * no live session the request goes on to `inner`. A cross-site page can neither read that cookie nor pass the
 * Origin check, and without the header the cookie is ignored: ordinary requests stay anonymous, so a link or
 * form from elsewhere never acts as anyone.
 */
export function withCookiePrincipal(
  inner: Authenticate,
  deps: CookiePrincipalDeps,
  sessionOf: (cookieHeader: string | null, now: number) => Promise<Principal | undefined>,
): Authenticate {
  return async request => {
    const sent = request.headers.get('x-csrf-token')
    const authorization = request.headers.get('authorization')
    if (sent === null || (authorization !== null && authorization.trim() !== '')) return inner(request)
    const cookieHeader = request.headers.get('cookie')
    checkCsrf({ cookieHeader, sent, origin: request.headers.get('origin'), baseUrl: deps.baseUrl })
    return (await sessionOf(cookieHeader, deps.now())) ?? inner(request)
  }
}
