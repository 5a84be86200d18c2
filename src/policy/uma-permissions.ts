// What a UMA access token leaves of a decision: the token was bought for some resources and modes, and
// opens no more than those, however much the rules allow its WebID.

import type { UmaPermission } from '../uma/permission.ts'
import type { AccessDecision } from './access-decision.ts'
import type { AccessMode } from './access-modes.ts'
import { coversModes } from './modes.ts'

/**
 * The token's modes on this exact URL, as far as the rules still allow its WebID (taking access away
 * works at once); what is public stays public.
 */
export function withinPermissions(d: AccessDecision, permissions: readonly UmaPermission[]): AccessDecision {
  const modes = new Set<AccessMode>(d.publicModes)
  for (const p of permissions) {
    if (p.resource !== d.target) continue
    for (const m of p.modes as AccessMode[]) if (coversModes(d.modes, [m])) modes.add(m)
  }
  if ([...d.modes].every(m => modes.has(m))) return { ...d, modes }
  return { ...d, modes, reasons: [...d.reasons, 'a UMA access token opens only the resources and modes it was issued for'] }
}
