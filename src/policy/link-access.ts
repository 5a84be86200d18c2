// What a share link allows, as the one decider answers it (issue 38): the holder of a link is an agent of its
// own kind, decided here and not by the ACLs, so the path stays exactly as private as before to everyone else.
// Read on the link's file, or on its folder and everything under it; Append (upload) only on the folder itself,
// so a file drop adds new files and never appends to one already there. Nothing beside or above the path, and
// never an ACL (reading one is what acl:Control gives).

import type { LinkScope } from '../account/share-links.ts'
import { canRead, canUpload } from '../account/share-links.ts'
import { isAcl } from '../store/acl-names.ts'
import type { AccessDecision } from './access-decision.ts'
import type { AccessMode } from './access-modes.ts'

const NOTHING: ReadonlySet<AccessMode> = new Set()

/** The modes the link gives on `path` (a stored path). */
export function linkModes(link: LinkScope, path: string): Set<AccessMode> {
  const modes = new Set<AccessMode>()
  if (isAcl(path)) return modes
  const inside = path === link.path || (link.path.endsWith('/') && path.startsWith(link.path))
  if (!inside) return modes
  if (canRead(link.allows)) modes.add('read')
  if (canUpload(link.allows) && path === link.path) modes.add('append')
  return modes
}

export function decideForLink(link: LinkScope, url: string, baseUrl: string): AccessDecision {
  const path = url.startsWith(baseUrl + '/') ? url.slice(baseUrl.length) : undefined
  const modes = path === undefined ? new Set<AccessMode>() : linkModes(link, path)
  return {
    target: url,
    modes,
    publicModes: NOTHING,
    grounds: [],
    links: [],
    acl: { aclUrl: '', governs: '', inherited: false },
    reasons: [modes.size > 0 ? `share link ${link.id} allows ${link.allows} on ${link.path}` : `share link ${link.id} reaches only ${link.path}`],
  }
}
