// Who may use /.admin: the owner's login session (cookie), and only from the pod's own pages.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { checkCsrf, checkSameOrigin } from '../http/csrf.ts'
import { getLoginSession, type LoginSession } from '../account/owner-session.ts'
import { getOwnerAccount } from '../account/owner-account.ts'
import { OP_PATHS } from '../http/pod-paths.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now'>

/** The session of the request's cookie, if any (pages redirect to the login page without one). */
export const findOwnerSession = (deps: AdminDeps, request: Request) =>
  getLoginSession(deps.store, deps.cfg.baseUrl, request.headers.get('cookie'), deps.now())

/**
 * The owner API: a session cookie, an Origin that is ours when a browser sends one (our CORS
 * answers every origin, so a same-site page could otherwise read this API), and for changes the
 * CSRF token in `X-CSRF-Token` (double submit; GET /.admin/api/csrf hands it out).
 */
export async function requireOwner(deps: AdminDeps, request: Request): Promise<LoginSession> {
  const origin = request.headers.get('origin')
  checkSameOrigin(origin, deps.cfg.baseUrl)
  const session = await findOwnerSession(deps, request)
  if (!session) throw await loginRequired(deps)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    checkCsrf({ cookieHeader: request.headers.get('cookie'), sent: request.headers.get('x-csrf-token'), origin, baseUrl: deps.cfg.baseUrl })
  }
  return session
}

/** Before the first password there is no way to sign in: say how to set one instead. */
async function loginRequired(deps: AdminDeps): Promise<HttpError> {
  if (!(await getOwnerAccount(deps.store))?.passwordHash) {
    return new HttpError(401, 'login_required', 'no owner password is set yet; open the setup link the server printed at start, ' +
      "or run solopod setup-link with the server's --data directory on the machine that runs it")
  }
  return new HttpError(401, 'login_required', `sign in as the owner first at ${deps.cfg.baseUrl}${OP_PATHS.login}`)
}
