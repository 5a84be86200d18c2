// Steps 2–3 of the pipeline (docs/architecture.md, request pipeline): authorize against the pod's ACLs, or deny with the right status.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { readTriples, getMeta } from '../store/resources.ts'
import { parseAclDocument, type Authorization } from '../policy/acl-document.ts'
import { allowedModes, findEffectiveAcl, publicModes } from '../policy/wac.ts'
import { isAcl } from '../store/acl-names.ts'
import { coversModes, formatWacAllow, type ModeRequirement } from '../policy/modes.ts'
import type { AccessMode } from '../policy/access-modes.ts'
import { makeGroupResolver } from '../policy/group-members.ts'
import { isAuthenticated, type Principal } from '../auth/principal.ts'
import { DPOP_ALGS } from '../auth/authenticate.ts'
import { parseRdf } from '../rdf/parse-rdf.ts'
import { RDF_DOCUMENT_TYPES } from '../rdf/media-types.ts'
import { log } from '../log.ts'

export interface Decision {
  readonly user: Set<AccessMode>
  readonly public: Set<AccessMode>
  /** `WAC-Allow` value for the target (WAC §6.5). */
  readonly wacAllow: string
}

/** Every challenge the pod accepts (the deny step of the request pipeline, docs/architecture.md); more schemes join as they land. */
export const AUTH_CHALLENGES = [`DPoP algs="${DPOP_ALGS}"`]

const NO_ACL: readonly Authorization[] = Object.freeze([])

// Bounds of the in-memory caches (nothing grows without bound). Negative entries count too.
const ACL_CACHE_ENTRIES = 10_000
const GROUP_CACHE_ENTRIES = 1000
export const GROUP_CACHE_TTL_MS = 60_000

export function makeAccessControl(deps: Deps) {
  const { store, cfg } = deps
  // Parsed ACLs per ACL URL; an ACL that does not exist is cached too (as NO_ACL), so inheritance
  // walks cost no store reads. Every write to an ACL path invalidates its entry.
  const acls = new LruCache<string, readonly Authorization[]>(ACL_CACHE_ENTRIES)
  // Bumped by every invalidation: a load that read the store before a write committed must not cache what it read.
  let generation = 0

  async function loadAcl(aclUrl: string): Promise<readonly Authorization[] | undefined> {
    const cached = acls.get(aclUrl)
    if (cached) return cached === NO_ACL ? undefined : cached
    const started = generation
    const path = aclUrl.slice(cfg.baseUrl.length)
    const meta = await getMeta(store, path)
    const auths = meta ? parseAclDocument(await readTriples(store, cfg.baseUrl, path), aclUrl) : NO_ACL
    if (generation === started) acls.set(aclUrl, auths)
    return auths === NO_ACL ? undefined : auths
  }

  function invalidateAcl(aclUrl: string) {
    generation++
    acls.delete(aclUrl)
  }

  const isGroupMember = makeGroupResolver(async (docUrl) => {
    const doc = await deps.fetchDoc(docUrl, { accept: 'text/turtle, application/ld+json;q=0.9', allowedTypes: [...RDF_DOCUMENT_TYPES] })
    return parseRdf(doc.body, doc.contentType, doc.url)
  }, {
    maxEntries: GROUP_CACHE_ENTRIES, ttlMs: GROUP_CACHE_TTL_MS, now: deps.now,
    onError: (groupUrl, error) => log.warn('acl.group_unavailable', { group: groupUrl, reason: error instanceof Error ? error.message : String(error) }),
  })

  async function modesOn(url: string, principal: Principal, origin: string | undefined) {
    const effective = await findEffectiveAcl(url, loadAcl)
    const ctx = { trustedOrigins: [cfg.baseUrl], isGroupMember, ...(origin ? { origin } : {}) }
    return { user: await allowedModes(effective, url, principal, ctx), public: publicModes(effective, url) }
  }

  /** Throws 401 (anonymous) or 403 unless every requirement is covered; returns the target's modes. */
  async function authorize(principal: Principal, targetUrl: string, requirements: readonly ModeRequirement[],
    origin: string | undefined, links: string): Promise<Decision> {
    const target = await modesOn(targetUrl, principal, origin)
    const wacAllow = formatWacAllow(target.user, target.public)
    for (const req of requirements) {
      const allowed = req.url === targetUrl ? target.user : (await modesOn(req.url, principal, origin)).user
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
    invalidateAcl,
    /** After any write to a pod document: its parsed ACL or the members of a local group it describes are stale. */
    forgetDocument(url: string) {
      if (isAcl(url)) invalidateAcl(url)
      isGroupMember.forget(url)
    },
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
