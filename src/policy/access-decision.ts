// The one access decision: allowed modes = WAC modes ∪ grant modes, each with the rule or grant that gave
// it, or why nothing did. The resource server enforces it; the owner's "why?" answer reads the same result.

import type { Principal } from '../auth/principal.ts'
import { findEffectiveAcl, matchAuthorizations, publicModes, type AccessContext, type AclLoader, type EffectiveAcl, type UnmetCondition } from './wac.ts'
import { describeCondition } from './acl-conditions.ts'
import { candidateGrants, grantModes, type GrantGround, type GrantIndex, type GrantLink, type GrantLinks, type GrantOutcome } from './grants.ts'
import { ACCESS_MODES, type AccessMode } from './access-modes.ts'

export interface WacGround {
  readonly source: 'wac'
  readonly mode: AccessMode
  readonly aclUrl: string
  /** The acl:Authorization's IRI (`_:label` for a blank node). */
  readonly authorization: string
  /** The resource whose ACL applied: the target, or (inherited) the container whose acl:default rules flow down. */
  readonly governs: string
  readonly inherited: boolean
}

export type Ground = WacGround | GrantGround

export interface AccessDecision {
  readonly target: string
  /** In no particular order (WAC-Allow and the explanation put them in canonical order). */
  readonly modes: ReadonlySet<AccessMode>
  /** WAC-Allow `public`: what foaf:Agent gets (grants are never public). */
  readonly publicModes: ReadonlySet<AccessMode>
  /** One ground per allowed mode and source (a mode may come from both WAC and a grant). */
  readonly grounds: readonly Ground[]
  readonly acl: { readonly aclUrl: string; readonly governs: string; readonly inherited: boolean }
  /**
   * Why a source gave nothing, when it gave nothing; and each authorization that matched the agent but
   * whose condition did not hold (WAC 1.1 ED §5.3.2), whatever else was allowed.
   */
  readonly reasons: readonly string[]
  /** The references Inherited grants looked at for this target: which counted, and why the others did not. */
  readonly links: readonly GrantLink[]
  /** Modes the rules allow the owner but the owner's app may not use here (app-scope.ts), and what it may. */
  readonly outsideAppScope?: { readonly modes: ReadonlySet<AccessMode>; readonly allowed: string }
}

/** A target's effective ACL with what it gives the public: a function of the ACLs alone, whoever asks. */
export interface AclView {
  readonly effective: EffectiveAcl
  readonly publicModes: ReadonlySet<AccessMode>
}

/** The target's AclView read through `loadAcl`. */
export async function aclViewOf(target: string, loadAcl: AclLoader): Promise<AclView> {
  const effective = await findEffectiveAcl(target, loadAcl)
  return { effective, publicModes: publicModes(effective, target) }
}

export interface DecisionSources {
  readonly loadAcl: AclLoader
  /** The target's AclView when the caller keeps them (access-decider.ts); else read through `loadAcl`. */
  readonly aclView?: (target: string) => AclView | Promise<AclView>
  readonly ctx: AccessContext
  readonly grants: GrantIndex
  readonly links: GrantLinks
  /** DELETE: the target container is asked about because this member of it is being deleted. */
  readonly deleting?: string
}

export type Requester = Pick<Principal, 'webid' | 'clientId' | 'issuer' | 'keys'>

export async function decideAccess(principal: Requester, target: string, src: DecisionSources): Promise<AccessDecision> {
  const kept = src.aclView?.(target)
  const view = kept === undefined || kept instanceof Promise ? await (kept ?? aclViewOf(target, src.loadAcl)) : kept
  const { effective } = view
  const acl = { aclUrl: effective.aclUrl, governs: effective.governs, inherited: effective.inherited }
  const unmet: UnmetCondition[] = []
  const byWac = await matchAuthorizations(effective, target, principal, src.ctx, unmet)
  // Most requesters hold no grant: the index answers that without a further await
  const candidates = candidateGrants(src.grants, principal)
  const byGrant = candidates.length === 0 ? NO_GRANT : await grantModes(src.grants, principal, target, src.links, candidates, src.deleting)
  const grounds: Ground[] = []
  for (const [mode, a] of byWac) {
    grounds.push({ source: 'wac', mode, aclUrl: effective.aclUrl, authorization: a.id, governs: effective.governs, inherited: effective.inherited })
  }
  for (const g of byGrant.grounds) grounds.push(g)
  const modes = byGrant.grounds.length === 0 ? new Set(byWac.keys()) : ordered(grounds)
  const reasons: string[] = []
  if (byWac.size === 0) reasons.push(wacReason(effective.authorizations.length, acl, src.ctx.origin))
  for (const u of unmet) reasons.push(`${nameOf(u.authorization.id, effective.aclUrl)} matches this agent, but ${describeCondition(u.condition)}`)
  if (byGrant.grounds.length === 0) {
    const ignored = byGrant.links
      .filter(l => !l.followed)
      .map(l => `; ${l.why}`)
      .join('')
    reasons.push(
      byGrant.candidates === 0
        ? 'no access grant names this agent as grantee (or as the grantee app acting for grantedBy)'
        : `${byGrant.candidates} access grant(s) name this agent, but none covers ${target}${ignored}`,
    )
  }
  return { target, modes, publicModes: view.publicModes, grounds, acl, reasons, links: byGrant.links }
}

function wacReason(applicable: number, acl: AccessDecision['acl'], origin: string | undefined): string {
  const where = acl.inherited ? `${acl.aclUrl} (the ACL of ${acl.governs}, inherited through acl:default)` : acl.aclUrl
  if (applicable === 0) return `${where} has no authorization that applies to this resource`
  return `none of the ${applicable} authorization(s) in ${where} matches this agent${origin ? ` with Origin ${origin}` : ''}`
}

const nameOf = (id: string, aclUrl: string) => (id.startsWith('_:') ? `an authorization in ${aclUrl}` : id)

const NO_GRANT: GrantOutcome = Object.freeze({ grounds: [], candidates: 0, links: [] })

const ordered = (grounds: readonly Ground[]) => new Set(ACCESS_MODES.filter(m => grounds.some(g => g.mode === m)))
