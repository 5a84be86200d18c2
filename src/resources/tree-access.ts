// What an operation on a whole tree needs of the one decider: the modes the resource server would require
// of the single requests it stands for (a DELETE of each item, a PUT creating each item), every one of them.

import type { Principal } from '../auth/principal.ts'
import type { AccessControl } from '../policy/access-control.ts'
import { requiredModes, type ModeRequirement } from '../policy/modes.ts'
import { isAcl } from '../store/acl-names.ts'

/** The pieces the layer decides with (built once in deps.ts). */
export interface Deciding {
  readonly baseUrl: string
  readonly access: Pick<AccessControl, 'authorize'>
}

/**
 * DELETE of each of `paths` (stored paths): Write on the item and on its container, Read on a folder
 * (policy/modes.ts). An ACL among them needs nothing more: a DELETE takes a resource's ACL with it, as
 * the resource server's does. Decided per item, not once at the top: an item's own ACL (or a folder's
 * below the top) may take from a principal what the top gives.
 */
export const deletionNeeds = (baseUrl: string, paths: readonly string[], exists = true): ModeRequirement[] =>
  paths.filter(p => !isAcl(p)).flatMap(p => requiredModes({ method: 'DELETE', url: baseUrl + p, exists }))

/**
 * PUT creating each of `paths` where nothing is (its container exists, or is one of `paths`): Write on it,
 * Append on its container; an ACL among them (a move or a restore writes access rules there) needs Control
 * of what it governs (WAC §6.4), as a PUT of that ACL would.
 */
export const creationNeeds = (baseUrl: string, paths: readonly string[]): ModeRequirement[] =>
  paths.flatMap(p => requiredModes({ method: 'PUT', url: baseUrl + p, exists: false }))

/** GET of each of `paths` (stored paths): Read on it, as reading each of them (a folder: listing it) would need. */
export const readingNeeds = (baseUrl: string, paths: readonly string[]): ModeRequirement[] =>
  paths.flatMap(p => requiredModes({ method: 'GET', url: baseUrl + p, exists: true }))

/**
 * Throws the resource server's refusal (401 for the public, 403 `forbidden` … for an agent, policy/access-control.ts)
 * unless `principal` holds every need; `target` is the path the operation names. Each distinct need is asked once.
 */
export async function requireAll(d: Deciding, principal: Principal, target: string, needs: readonly ModeRequirement[], origin?: string): Promise<void> {
  const seen = new Set<string>()
  const distinct = needs.filter(n => {
    const key = `${n.url} ${n.modes.join(',')} ${n.deleting ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  // No Link header here: the faces above render the refusal their own way.
  await d.access.authorize(principal, d.baseUrl + target, distinct, origin, '')
}
