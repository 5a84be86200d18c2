// "Why may X do Y?": the pod's own decision for an agent and a resource, with the rule or grant behind
// each mode, or why nothing applied. The same decision function the resource server enforces.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { resolveTarget } from '../store/target.ts'
import { ANONYMOUS, type Principal } from '../auth/principal.ts'
import type { ClientId, WebId } from '../account/ids.ts'
import type { AccessDecider } from '../policy/access-decider.ts'
import type { Ground } from '../policy/access-decision.ts'
import { ACCESS_MODES } from '../policy/access-modes.ts'
import { linksOpening } from './links-page.ts'

export interface AccessQuery {
  readonly agent?: string
  readonly resource?: string
  readonly origin?: string
  readonly client?: string
  /** The OpenID provider that vouched for the agent: acl:IssuerCondition rules (WAC 1.1 ED §4.4.2) judge it. */
  readonly issuer?: string
}

const bad = (description: string) => new HttpError(400, 'invalid_request', description)

/**
 * `agent=public` is the anonymous requester. A `did:key:` is a key holder; any other absolute URL is
 * asked about both as a WebID and as a key URL (an HttpSig key), since the two never share an IRI.
 * `client` (a client id) asks about that app acting for the agent, `issuer` about an identity from that issuer.
 */
export function principalFor(q: AccessQuery): Principal {
  if (!q.agent) throw bad('agent is required: a WebID, a key URL, or public')
  if (q.agent === 'public') {
    if (q.client || q.issuer) throw bad('client and issuer need an agent (the app acts for, the issuer vouches for), not public')
    return ANONYMOUS
  }
  if (q.agent.startsWith('did:key:')) return { keys: [q.agent], scheme: 'HttpSig' }
  if (!URL.canParse(q.agent) || !/^https?:$/.test(new URL(q.agent).protocol)) throw bad('agent must be an http(s) URL (WebID or key URL), a did:key, or public')
  if (q.client !== undefined && !URL.canParse(q.client)) throw bad('client must be a client id URL')
  if (q.issuer !== undefined && !URL.canParse(q.issuer)) throw bad('issuer must be an OpenID provider URL')
  return {
    webid: q.agent as WebId,
    keys: [q.agent],
    scheme: 'DPoP',
    ...(q.client ? { clientId: q.client as ClientId } : {}),
    ...(q.issuer ? { issuer: q.issuer } : {}),
  }
}

/** A pod resource URL in the one canonical form the resource server decides on (its request target). */
export function resourceFor(baseUrl: string, resource: string | undefined): string {
  if (!resource || !URL.canParse(resource)) throw bad(`resource is required: an absolute URL on this pod (${baseUrl}/…)`)
  if (new URL(resource).origin !== baseUrl) throw bad(`resource must be on this pod (${baseUrl}/…)`)
  return resolveTarget(baseUrl, resource).url
}

type Explained =
  | { source: 'wac'; acl: string; authorization: string; inheritedFrom?: string }
  | { source: 'grant'; grant: string; scope: string; as: string; via?: string }

const explainGround = (g: Ground): Explained =>
  g.source === 'wac'
    ? { source: 'wac', acl: g.aclUrl, authorization: g.authorization, ...(g.inherited ? { inheritedFrom: g.governs } : {}) }
    : { source: 'grant', grant: g.grant, scope: g.scope, as: g.as, ...(g.via ? { via: g.via } : {}) }

export async function explainAccess(deps: Pick<Deps, 'cfg' | 'store' | 'now'>, decider: AccessDecider, q: AccessQuery) {
  const principal = principalFor(q)
  const resource = resourceFor(deps.cfg.baseUrl, q.resource)
  const d = await decider.decide(principal, resource, q.origin || undefined)
  // Anyone holding a share link is an agent of its own kind, whoever asks: the links that open the resource now
  const shareLinks = (await linksOpening(deps, resource.slice(deps.cfg.baseUrl.length))).map(({ link, modes }) => ({
    id: link.id,
    name: link.name,
    path: link.path,
    allows: link.allows,
    modes,
    ...(link.expiresAt !== undefined ? { expiresAt: new Date(link.expiresAt).toISOString() } : {}),
    ...(link.passwordHash !== undefined ? { password: true } : {}),
  }))
  const because: Record<string, Explained[]> = {}
  for (const g of d.grounds) (because[g.mode] ??= []).push(explainGround(g))
  return {
    agent: q.agent,
    ...(q.client ? { client: q.client } : {}),
    ...(q.issuer ? { issuer: q.issuer } : {}),
    resource,
    ...(q.origin ? { origin: q.origin } : {}),
    modes: ACCESS_MODES.filter(m => d.modes.has(m)),
    public: ACCESS_MODES.filter(m => d.publicModes.has(m)),
    acl: { url: d.acl.aclUrl, governs: d.acl.governs, inherited: d.acl.inherited },
    because,
    // Which references of Inherited grants counted (followed) and which did not, with why
    ...(d.links.length
      ? {
          links: d.links.map(l => ({ grant: l.grant, from: l.from, predicate: l.predicate, to: l.to, followed: l.followed, ...(l.why ? { why: l.why } : {}) })),
        }
      : {}),
    ...(d.reasons.length ? { whyNot: d.reasons } : {}),
    ...(shareLinks.length ? { shareLinks } : {}),
  }
}
