// What a request needs before its body is read: the first check each handler makes, also the UMA ticket of a refused credential.

import type { Store } from '../store/open-store.ts'
import { getMeta } from '../store/resources.ts'
import { requiredModes, type ModeRequirement } from '../policy/modes.ts'
import { missingAncestors } from '../resources/resource-names.ts'
import { AT_LEAST_APPEND } from '../resources/patch-document.ts'

/**
 * The requirements the handler of `method` checks first on `path`, from the store as it is: a request whose
 * credential was refused never reached them, and its UMA ticket (UMA Grant §3.2) asks for the same, not a guess.
 * PATCH: Append before its body is read (what the patch needs beyond that is known only from the body).
 */
export async function firstRequirements(store: Store, method: string, path: string, url: string): Promise<ModeRequirement[]> {
  const m = method.toUpperCase()
  if (m === 'PATCH') return requiredModes({ method: m, url, exists: true, patch: AT_LEAST_APPEND })
  if (m !== 'PUT' && m !== 'DELETE') {
    // a method the RS does not take (405) has no requirement, and its refusal no ticket
    try {
      return requiredModes({ method: m, url, exists: true })
    } catch {
      return []
    }
  }
  const exists = (await getMeta(store, path)) !== undefined
  const created = m === 'PUT' && !exists ? await missingAncestors(store, path) : []
  const base = url.slice(0, url.length - path.length)
  return requiredModes({ method: m, url, exists, createdContainers: created.map(p => base + p) })
}
