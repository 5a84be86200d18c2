// Who may read the metrics: a client on the pod's own machine (a Prometheus beside it), or the owner.
// They tell the pod's load and size, so nobody else gets them.

import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { HttpError } from '../http/errors.ts'
import { dpopChallenge, httpSigChallenge } from '../auth/challenges.ts'
import { isLoopback } from '../lib/ip-address.ts'
import { MONITOR_PATHS } from '../http/pod-paths.ts'

type AccessDeps = Pick<Deps, 'cfg' | 'clientAddresses' | 'authenticate'>

/** Returns when the request may read the metrics; otherwise throws 401 (anonymous) or 403 (another agent). */
export async function checkMetricsAccess(deps: AccessDeps, request: Request): Promise<void> {
  if (isLocalClient(deps, request)) return
  const principal = await deps.authenticate(request)
  if (principal.webid === undefined) {
    throw new HttpError(401, 'unauthenticated', 'the metrics are for clients on the pod\'s machine and for its owner; authenticate as the owner',
      { headers: { 'www-authenticate': [dpopChallenge(), httpSigChallenge(MONITOR_PATHS.metrics)] } })
  }
  // A UMA token carries the permissions it was issued for, never this endpoint
  if (principal.webid !== ownerWebIdOf(deps.cfg.baseUrl) || principal.permissions !== undefined) {
    throw new HttpError(403, 'forbidden', 'the metrics are for the pod\'s owner')
  }
}

/**
 * A loopback client address, and no forwarding header: a reverse proxy on the same machine that is not named
 * in --trust-proxy connects from loopback too, for clients anywhere, and says so only in these headers.
 */
function isLocalClient(deps: AccessDeps, request: Request): boolean {
  const address = deps.clientAddresses.of(request)
  if (address === undefined || !isLoopback(address)) return false
  if (deps.cfg.trustProxy.length > 0) return true
  return !request.headers.has('forwarded') && !request.headers.has('x-forwarded-for')
}
