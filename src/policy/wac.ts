// Web Access Control decisions: effective-ACL discovery with inheritance and subject/origin matching (WAC §4–§6).

import { HttpError } from '../http/errors.ts'
import type { Principal } from '../auth/principal.ts'
import { ACL, FOAF } from '../rdf/namespaces.ts'
import { normalizeOrigin, type Authorization } from './acl-document.ts'
import { normalizeKeyId } from '../auth/key-id.ts'
import { ACCESS_MODES, type AccessMode } from './access-modes.ts'
import { parentContainerOf } from './containment.ts'
import { aclOf, governedBy, isAcl } from '../store/acl-names.ts'
import { iriGroupMembership, unmetCondition, type AclCondition } from './acl-conditions.ts'

export type AclLoader = (aclUrl: string) => Promise<readonly Authorization[] | undefined>

export interface EffectiveAcl {
  readonly aclUrl: string
  /** The resource whose ACL this is: the target itself, or the ancestor container it is inherited from. */
  readonly governs: string
  readonly inherited: boolean
  /** Only the authorizations that apply here: accessTo <governs>, or (inherited) default <governs>. */
  readonly authorizations: readonly Authorization[]
}

/**
 * §6.2: the target's own ACL, else the nearest ancestor container's. An ACL resource is decided by the
 * ACL of the resource it governs.
 */
export async function findEffectiveAcl(resourceUrl: string, loadAcl: AclLoader): Promise<EffectiveAcl> {
  let current: string | undefined = governedBy(resourceUrl)
  let inherited = false
  while (current !== undefined) {
    const aclUrl = aclOf(current)
    const auths = await loadAcl(aclUrl)
    if (auths !== undefined) {
      const governs = current
      // §6.2 (3): an ancestor's accessTo rules stay with the ancestor; only its defaults flow down.
      // HttpSig proposal (solid/authentication-panel, HttpSig.md, "finding the key"): the ACL's own rules may also name the ACL document itself (acl:accessTo <x.acl>), to let
      // clients read it and find a key they hold; such a rule can only grant Read of the ACL (forTarget).
      const applies = inherited
        ? (a: Authorization) => a.default.includes(governs)
        : (a: Authorization) => a.accessTo.includes(governs) || (resourceUrl !== governs && a.accessTo.includes(resourceUrl))
      return { aclUrl, governs, inherited, authorizations: auths.filter(applies) }
    }
    current = parentContainerOf(current)
    inherited = true
  }
  // §6.2 (4): the root ACL must exist; denying silently would hide a broken storage.
  throw new HttpError(500, 'server_error', 'no effective ACL: the storage root has no ACL')
}

export type Requester = Pick<Principal, 'webid' | 'keys' | 'clientId' | 'issuer'>

/** An authorization that matched the requester's subject and origin, but whose condition did not hold. */
export interface UnmetCondition {
  readonly authorization: Authorization
  readonly condition: AclCondition
}

export interface AccessContext {
  /** The request's Origin header, if any. */
  readonly origin?: string
  /** Origins trusted like our own (the pod's own origin is always trusted). */
  readonly trustedOrigins: readonly string[]
  readonly isGroupMember: (groupUrl: string, principal: Requester) => Promise<boolean>
}

const EVERYONE = FOAF('Agent')
const AUTHENTICATED = ACL('AuthenticatedAgent')

/** §6.3: the union of modes of every authorization whose subject and origin match the requester. */
export async function allowedModes(effective: EffectiveAcl, targetUrl: string, principal: Requester, ctx: AccessContext): Promise<Set<AccessMode>> {
  return new Set((await matchAuthorizations(effective, targetUrl, principal, ctx)).keys())
}

/**
 * §6.3 with its reasons: each mode the requester gets, with the first matching authorization that gave it.
 * `unmet` collects the authorizations that matched but for a condition (WAC 1.1 ED §5.3.2), for the "why?".
 */
export async function matchAuthorizations(
  effective: EffectiveAcl,
  targetUrl: string,
  principal: Requester,
  ctx: AccessContext,
  unmet?: UnmetCondition[],
): Promise<Map<AccessMode, Authorization>> {
  checkTarget(effective, targetUrl)
  const originOk = originFilter(ctx, targetUrl)
  const keys = principal.keys.map(normalizeKeyId)
  const allowed = new Map<AccessMode, Authorization>()
  let aclReader: Authorization | undefined
  for (const a of effective.authorizations) {
    const readsAcl = namesAclOnly(effective, targetUrl, a)
    // adds nothing: skip, above all a remote group lookup
    if (readsAcl ? aclReader !== undefined || !a.modes.has('read') : ![...a.modes].some(m => !allowed.has(m))) continue
    if (!originOk(a)) continue
    if (!(await matchesSubject(a, principal, keys, ctx))) continue
    // WAC 1.1 ED §5.3.2: all conditions must hold; checked last, as a client group may need a document
    const condition = a.conditions.length === 0 ? undefined : await unmetCondition(a.conditions, principal, iriGroupMembership(ctx.isGroupMember))
    if (condition) {
      unmet?.push({ authorization: a, condition })
      continue
    }
    if (readsAcl) aclReader = a
    else for (const m of a.modes) if (!allowed.has(m)) allowed.set(m, a)
  }
  return forTarget(allowed, targetUrl, aclReader)
}

/** An authorization in an ACL that names the ACL document itself, not the resource it governs. */
const namesAclOnly = (effective: EffectiveAcl, targetUrl: string, a: Authorization) =>
  targetUrl !== effective.governs && !effective.inherited && !a.accessTo.includes(effective.governs)

/**
 * §6.5 WAC-Allow `public`: what foaf:Agent gets, regardless of any Origin. A rule with a condition is not
 * the public's: the anonymous requester has no client id or issuer to satisfy one.
 */
export function publicModes(effective: EffectiveAcl, targetUrl: string): Set<AccessMode> {
  checkTarget(effective, targetUrl)
  const allowed = new Map<AccessMode, Authorization>()
  let aclReader: Authorization | undefined
  for (const a of effective.authorizations) {
    if (!a.agentClasses.includes(EVERYONE) || a.conditions.length > 0) continue
    if (!namesAclOnly(effective, targetUrl, a)) for (const m of a.modes) allowed.set(m, a)
    else if (a.modes.has('read')) aclReader ??= a
  }
  return new Set(forTarget(allowed, targetUrl, aclReader).keys())
}

// §6.4: an ACL resource is fully open to whoever controls the resource it governs, and closed to all others
// but those a rule naming the ACL itself lets read it (the HttpSig proposal lets a client find the keys an ACL names).
function forTarget(allowed: Map<AccessMode, Authorization>, targetUrl: string, aclReader?: Authorization): Map<AccessMode, Authorization> {
  if (!isAcl(targetUrl)) return allowed
  const control = allowed.get('control')
  if (control) return new Map(ACCESS_MODES.map(m => [m, control]))
  return new Map(aclReader ? [['read', aclReader]] : [])
}

// A mismatched pair would apply one resource's rules to another: refuse instead of guessing.
function checkTarget(effective: EffectiveAcl, targetUrl: string) {
  const subject = governedBy(targetUrl)
  const ok = effective.inherited ? subject.startsWith(effective.governs) && subject !== effective.governs : subject === effective.governs
  if (!ok) throw new HttpError(500, 'server_error', 'the effective ACL was found for another resource')
}

// Our origin rule (acl:origin, WAC §4.3): rules listing acl:origin match only those origins; rules without any match
// all; no Origin header (non-browser client), our own origin and trusted origins pass every rule.
function originFilter(ctx: AccessContext, targetUrl: string): (a: Authorization) => boolean {
  if (ctx.origin === undefined) return () => true
  const origin = normalizeOrigin(ctx.origin)
  if (origin === new URL(targetUrl).origin || ctx.trustedOrigins.some(t => normalizeOrigin(t) === origin)) return () => true
  return a => a.origins.length === 0 || a.origins.includes(origin)
}

// §6.3 subject match, cheapest checks first; group documents only when nothing else matched.
async function matchesSubject(a: Authorization, p: Requester, keys: readonly string[], ctx: AccessContext): Promise<boolean> {
  if (a.agentClasses.includes(EVERYONE)) return true
  const authenticated = p.webid !== undefined || keys.length > 0
  if (authenticated && a.agentClasses.includes(AUTHENTICATED)) return true
  if (p.webid !== undefined && a.agents.includes(p.webid)) return true
  if (keys.some(k => a.keys.includes(k))) return true // §7.2: a key subject matches its proven holder
  if (!authenticated) return false // groups list WebIDs and keys; an anonymous requester is in none
  for (const g of a.agentGroups) if (await ctx.isGroupMember(g, p)) return true
  return false
}
