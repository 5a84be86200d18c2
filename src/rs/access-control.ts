// Steps 2–3 of the pipeline (DESIGN §3): authorize against the pod's ACLs, or deny with the right status.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { coversModes, formatWacAllow, type ModeRequirement } from '../policy/modes.ts'
import type { AccessMode } from '../policy/access-modes.ts'
import { isAuthenticated, type Principal } from '../auth/principal.ts'
import { DPOP_ALGS } from '../auth/authenticate.ts'

export interface Decision {
  readonly user: ReadonlySet<AccessMode>
  readonly public: ReadonlySet<AccessMode>
  /** `WAC-Allow` value for the target (WAC §6.5). */
  readonly wacAllow: string
}

/** Every challenge the pod accepts (the deny step of the request pipeline, docs/architecture.md); more schemes join as they land. */
export const AUTH_CHALLENGES = [`DPoP algs="${DPOP_ALGS}"`]

/** Enforcement on top of the pod's one decision function (WAC ∪ grants, `deps.decider`), shared with the other roles. */
export function makeAccessControl(deps: Pick<Deps, 'decider'>) {
  const { decider } = deps
  async function modesOn(url: string, principal: Principal, origin: string | undefined, deleting?: string) {
    const d = await decider.decide(principal, url, origin, deleting)
    return { user: d.modes, public: d.publicModes }
  }

  /** Throws 401 (anonymous) or 403 unless every requirement is covered; returns the target's modes. */
  async function authorize(principal: Principal, targetUrl: string, requirements: readonly ModeRequirement[],
    origin: string | undefined, links: string): Promise<Decision> {
    const target = await modesOn(targetUrl, principal, origin)
    const wacAllow = formatWacAllow(target.user, target.public)
    for (const req of requirements) {
      const allowed = req.url === targetUrl ? target.user : (await modesOn(req.url, principal, origin, req.deleting)).user
      if (coversModes(allowed, req.modes)) continue
      throw deny(principal, req, wacAllow, links)
    }
    return { ...target, wacAllow }
  }

  /** `WAC-Allow` of a resource for a principal, for answers that made no decision of their own (docs/architecture.md, request pipeline). */
  async function wacAllowFor(principal: Principal, targetUrl: string, origin: string | undefined): Promise<string> {
    const target = await modesOn(targetUrl, principal, origin)
    return formatWacAllow(target.user, target.public)
  }

  return {
    authorize,
    wacAllowFor,
    invalidateAcl: decider.invalidateAcl,
    forgetDocument: decider.forgetDocument,
  }
}

function deny(principal: Principal, req: ModeRequirement, wacAllow: string, links: string): HttpError {
  const what = `${req.modes.join(' and ')} access to ${new URL(req.url).pathname}`
  const headers: Record<string, string | string[]> = { 'wac-allow': wacAllow, link: links }
  if (!isAuthenticated(principal)) {
    return new HttpError(401, 'unauthenticated', `${what} needs an authenticated agent; log in with a Solid-OIDC provider and send a DPoP-bound token`,
      { headers: { ...headers, 'www-authenticate': AUTH_CHALLENGES } })
  }
  return new HttpError(403, 'forbidden', `${principal.webid ?? 'this agent'} has no ${what} under this pod's access rules`, { headers })
}

export type AccessControl = ReturnType<typeof makeAccessControl>
