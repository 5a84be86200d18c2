// The resource server's "authorize" (docs/architecture.md, the request pipeline, 3): the pod's one decision, or a refusal with the right status.

import type { Config } from '../config.ts'
import type { TicketBook } from '../uma/permission-tickets.ts'
import type { AccessDecider } from './access-decider.ts'
import { HttpError } from '../http/errors.ts'
import { coversModes, formatWacAllow, type ModeRequirement } from './modes.ts'
import type { AccessMode } from './access-modes.ts'
import type { AccessDecision } from './access-decision.ts'
import { isAuthenticated, type Principal } from '../auth/principal.ts'
import { ACCEPT_SIGNATURE } from '../auth/httpsig/http-sig.ts'
import { bearerChallenge, dpopChallenge, httpSigChallenge, umaChallenge } from '../auth/challenges.ts'

export interface Decision {
  readonly user: ReadonlySet<AccessMode>
  readonly public: ReadonlySet<AccessMode>
  /** `WAC-Allow` value for the target (WAC §6.5). */
  readonly wacAllow: string
  /** What the rules allow the owner here but the owner's app may not use (policy/app-scope.ts). */
  readonly outsideAppScope?: AccessDecision['outsideAppScope']
}

/** The fixed challenges of a 401; UMA's (a fresh ticket each time) comes first and HttpSig's (realm = the path) last, see challengesFor. */
export const AUTH_CHALLENGES = [dpopChallenge()]
/** The challenges of a 401 for `path`: the fixed ones, then HttpSig's, whose realm is the requested path. */
export const challengesFor = (path: string) => [...AUTH_CHALLENGES, httpSigChallenge(path)]

/** Enforcement on top of the pod's one decision function (WAC ∪ grants, `deps.decider`), shared with the other roles. */
export function makeAccessControl(deps: {
  readonly decider: AccessDecider
  readonly tickets: Pick<TicketBook, 'issue'>
  readonly cfg: Pick<Config, 'baseUrl'>
}) {
  const { decider, cfg } = deps
  async function modesOn(url: string, principal: Principal, origin: string | undefined, deleting?: string) {
    const d = await decider.decide(principal, url, origin, deleting)
    const wacAllow = formatWacAllow(d.modes, d.publicModes)
    return { user: d.modes, public: d.publicModes, wacAllow, ...(d.outsideAppScope ? { outsideAppScope: d.outsideAppScope } : {}) }
  }

  /** The UMA challenge of a refused request: a fresh ticket for everything it needed. */
  async function challengeFor(requirements: readonly ModeRequirement[]): Promise<string> {
    return umaChallenge(cfg.baseUrl, await deps.tickets.issue(requirements.map(r => ({ resource: r.url, modes: r.modes }))))
  }

  /** Throws 401 (anonymous) or 403 unless every requirement is covered; returns the target's modes. */
  async function authorize(
    principal: Principal,
    targetUrl: string,
    requirements: readonly ModeRequirement[],
    origin: string | undefined,
    links: string,
  ): Promise<Decision> {
    const target = await modesOn(targetUrl, principal, origin)
    const { wacAllow } = target
    for (const req of requirements) {
      const on = req.url === targetUrl ? target : await modesOn(req.url, principal, origin, req.deleting)
      if (coversModes(on.user, req.modes)) continue
      throw await deny(principal, req, on, targetUrl, wacAllow, links, () => challengeFor(requirements))
    }
    return target
  }

  /** `WAC-Allow` of a resource for a principal, for answers that made no decision of their own (docs/architecture.md, request pipeline). */
  async function wacAllowFor(principal: Principal, targetUrl: string, origin: string | undefined): Promise<string> {
    return (await modesOn(targetUrl, principal, origin)).wacAllow
  }

  return {
    authorize,
    challengeFor,
    wacAllowFor,
  }
}

/** `uma` makes a ticket: only the answers that carry one ask for it (a plain 403 does not). */
async function deny(
  principal: Principal,
  req: ModeRequirement,
  on: Decision,
  targetUrl: string,
  wacAllow: string,
  links: string,
  uma: () => Promise<string>,
): Promise<HttpError> {
  const what = `${req.modes.join(' and ')} access to ${new URL(req.url).pathname}`
  // A share link's holder is told nothing of what lies beyond the link: the same answer as for nothing there
  if (principal.link) return new HttpError(404, 'not_found', `${new URL(req.url).pathname} does not exist`)
  const headers: Record<string, string | string[]> = { 'wac-allow': wacAllow, link: links }
  if (!isAuthenticated(principal)) {
    return new HttpError(
      401,
      'unauthenticated',
      `${what} needs an authenticated agent; log in with a Solid-OIDC provider and send a DPoP-bound token, obtain a UMA access token with the ticket, or sign the request (HttpSig)`,
      // RFC 9421 §5.1: Accept-Signature says what an HttpSig signature must cover
      { headers: { ...headers, 'www-authenticate': [await uma(), ...challengesFor(new URL(targetUrl).pathname)], 'accept-signature': ACCEPT_SIGNATURE } },
    )
  }
  // RFC 6750 §3.1: a UMA access token that does not cover the request; the ticket lets the client get one that does
  if (principal.permissions && !principal.permissions.some(p => p.resource === req.url && coversModes(new Set(p.modes as AccessMode[]), req.modes))) {
    return new HttpError(
      403,
      'insufficient_scope',
      `the UMA access token does not permit ${what}; it is valid only for the resource and modes it was issued for`,
      { headers: { ...headers, 'www-authenticate': [await uma(), bearerChallenge({ code: 'insufficient_scope' })] } },
    )
  }
  // The rules would allow it, the owner's choice for this app does not: say so, and where it is changed
  const scope = on.outsideAppScope
  if (scope && req.modes.every(m => on.user.has(m) || scope.modes.has(m))) {
    return new HttpError(
      403,
      'outside_app_scope',
      `this app may not have ${what}: the owner allowed it only ${scope.allowed}; the owner can change that on the dashboard's Apps and sessions page`,
      { headers },
    )
  }
  return new HttpError(403, 'forbidden', `${principal.webid ?? 'this agent'} has no ${what} under this pod's access rules`, { headers })
}

export type AccessControl = ReturnType<typeof makeAccessControl>
