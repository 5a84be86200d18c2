// Who may read the metrics: a client on the pod's own machine (a Prometheus beside it), or the owner.
// They tell the pod's load and size, so nobody else gets them: not another agent, and not a script's
// client credential or an app the owner limited to some folders, though their tokens carry the owner's WebID.

import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { HttpError } from '../http/errors.ts'
import { dpopChallenge, httpSigChallenge } from '../auth/challenges.ts'
import { MONITOR_PATHS } from '../http/pod-paths.ts'
import { CLIENT_CREDENTIAL_PREFIX } from '../account/client-credentials.ts'
import type { Principal } from '../auth/principal.ts'

type AccessDeps = Pick<Deps, 'cfg' | 'clientAddresses' | 'authenticate' | 'appScopes'>

/** Returns when the request may read the metrics; otherwise throws 401 (anonymous) or 403 (another agent, or a delegate limited to less). */
export async function checkMetricsAccess(deps: AccessDeps, request: Request): Promise<void> {
  // The real TCP peer, or the address a trusted proxy wrote: a proxied stranger is never local (http/client-address.ts)
  if (deps.clientAddresses.isLocal(request)) return
  const principal = await deps.authenticate(request)
  if (principal.webid === undefined) {
    throw new HttpError(401, 'unauthenticated', "the metrics are for clients on the pod's machine and for its owner; authenticate as the owner", {
      headers: { 'www-authenticate': [dpopChallenge(), httpSigChallenge(MONITOR_PATHS.metrics)] },
    })
  }
  // A UMA token carries the permissions it was issued for, never this endpoint
  if (principal.webid !== ownerWebIdOf(deps.cfg.baseUrl) || principal.permissions !== undefined) {
    throw new HttpError(403, 'forbidden', "the metrics are for the pod's owner")
  }
  const limitedTo = await delegateLimit(deps, principal)
  if (limitedTo) throw new HttpError(403, 'forbidden', `the metrics are for the pod's owner; ${limitedTo}`)
}

/**
 * Why a token of the owner's WebID is not the owner here, or undefined: a client credential is made for a
 * script's work on the pod's data (`solopod clients add`), not its operation; an app limited to folders
 * reaches nothing beyond them, and the metrics are in none.
 */
async function delegateLimit(deps: AccessDeps, principal: Principal): Promise<string | undefined> {
  if (principal.clientId === undefined) return undefined
  if (principal.clientId.startsWith(CLIENT_CREDENTIAL_PREFIX)) return "a client credential is for scripts that read and write the pod's data"
  if (await deps.appScopes.foldersOf(principal.clientId)) return 'this app is limited to some folders'
  return undefined
}
