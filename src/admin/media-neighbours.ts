// The photo, film or sound before and after one in its folder (name order), for the viewer's Previous and Next:
// a page of members on either side of it through the operations layer, the nearest media in each. A folder of
// 100,000 files costs two small pages, never a listing of the whole folder.

import type { Deps } from '../deps.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { isAcl } from '../store/acl-names.ts'
import { parentPath } from '../store/paths.ts'
import type { Member } from '../store/container-members.ts'
import { ownerActing } from './owner-acting.ts'

/** Members looked at on each side: past this many files that are not media, the viewer offers no neighbour that way. */
const LOOK_AT = 200

export const isMedia = (m: Pick<Member, 'meta'>) => {
  if (m.meta.kind === 'container') return false
  const kind = previewKind(m.meta.contentType ?? '')
  return kind === 'image' || kind === 'video' || kind === 'audio'
}

export interface Neighbours {
  readonly prev?: string
  readonly next?: string
}

export async function mediaNeighbours(deps: Pick<Deps, 'cfg' | 'resources'>, path: string): Promise<Neighbours> {
  const folder = parentPath(path)
  if (folder === undefined) return {}
  const who = ownerActing(deps.cfg.baseUrl)
  const [before, after] = await Promise.all([
    deps.resources.list(who, folder, { cursor: { before: path }, limit: LOOK_AT, countUpTo: 0 }),
    deps.resources.list(who, folder, { cursor: { after: path }, limit: LOOK_AT, countUpTo: 0 }),
  ])
  const media = (items: readonly Member[]) => items.filter(m => !isAcl(m.path) && isMedia(m))
  const prev = media(before.items).at(-1)?.path
  const next = media(after.items)[0]?.path
  return { ...(prev ? { prev } : {}), ...(next ? { next } : {}) }
}
