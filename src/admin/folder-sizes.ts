// The biggest folders at the top of the pod, for Pod status: each one's bytes at any depth (files and RDF as
// stored), walked through the operations layer as the owner, a chunk of members at a time.

import type { Deps } from '../deps.ts'
import { isContainerPath } from '../store/paths.ts'
import { ownerActing } from './owner-acting.ts'

type SizeDeps = Pick<Deps, 'cfg' | 'resources'>

export interface FolderSize {
  readonly path: string
  readonly bytes: number
  /** The walk stopped at WALK_LIMIT items: the folder holds at least `bytes`. */
  readonly atLeast: boolean
}

/** Items a page's walk reads at most, so Pod status answers in about a second on a large pod. */
export const WALK_LIMIT = 200_000

/** The `n` biggest folders directly under the root, biggest first. */
export async function biggestFolders(deps: SizeDeps, n = 5, limit = WALK_LIMIT): Promise<FolderSize[]> {
  const who = ownerActing(deps.cfg.baseUrl)
  const budget = { left: limit }
  const walk = async (path: string): Promise<number> => {
    let bytes = 0
    const { members } = await deps.resources.listMembers(who, path)
    for await (const chunk of members) {
      for (const m of chunk) {
        if (budget.left-- <= 0) return bytes
        bytes += isContainerPath(m.path) ? await walk(m.path) : m.meta.size
      }
    }
    return bytes
  }
  const top: FolderSize[] = []
  const { members } = await deps.resources.listMembers(who, '/')
  for await (const chunk of members) {
    for (const m of chunk) {
      if (!isContainerPath(m.path)) continue
      const bytes = await walk(m.path)
      top.push({ path: m.path, bytes, atLeast: budget.left <= 0 })
    }
  }
  return top.sort((a, b) => b.bytes - a.bytes).slice(0, n)
}
