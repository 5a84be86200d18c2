// What every operation of the layer is built with, and who it acts for.

import type { Config } from '../config.ts'
import type { Principal } from '../auth/principal.ts'
import type { Store } from '../store/open-store.ts'
import type { AccessControl } from '../policy/access-control.ts'
import type { ModeRequirement } from '../policy/modes.ts'
import type { WithResourceLocks } from '../store/resource-locks.ts'
import type { ChangeAuthor } from '../store/versions.ts'

export interface ResourcesDeps {
  readonly cfg: Pick<Config, 'baseUrl' | 'maxBodyBytes' | 'maxRdfBytes' | 'diskReserveBytes'> & { readonly memoryBudgetBytes?: number }
  readonly store: Store
  readonly now: () => number
  readonly withResourceLocks: WithResourceLocks
  readonly access: Pick<AccessControl, 'authorize'>
}

/** Who acts, and from which page origin when a browser sends one (WAC's acl:origin). */
export interface Acting {
  readonly principal: Principal
  readonly origin?: string | undefined
}

/**
 * The one decision for `needs` on `path` (a stored path): the target's modes (its `wacAllow`), or the resource
 * server's refusal (401 `unauthenticated`, 403 `forbidden` …, policy/access-control.ts). The refusal names no
 * Link: each face adds its own (the RS its ACL and type links, rs/refusal-links.ts).
 */
export const decide = (deps: ResourcesDeps, who: Acting, path: string, needs: readonly ModeRequirement[]) =>
  deps.access.authorize(who.principal, deps.cfg.baseUrl + path, needs, who.origin, '')

/** Who made a change, as the versions it keeps record it (store/versions.ts): agent, app, and the credential's scheme (the face). */
export const authorOf = (who: Acting): ChangeAuthor => {
  const { webid, clientId, scheme } = who.principal
  return { ...(webid !== undefined ? { agent: webid } : {}), ...(clientId !== undefined ? { client: clientId } : {}), via: scheme }
}
