// "Send it": for each person (or the public) an item is shared with, the link to send and what they will
// see there. Shown on the share page (share-page.ts).

import type { Entry } from './acl-entries.ts'
import { VISIT_PATHS } from '../http/pod-paths.ts'
import { readablePath } from '../lib/readable-path.ts'

export interface ShareLink {
  /** Who receives it, as the share table names them. */
  readonly who: string
  readonly link: string
  /** What the recipient will see, in a sentence. */
  readonly sees: string
}

const DOING: Record<string, string> = { read: 'open and download it', append: 'add files', write: 'change and delete', control: 'change who has access' }
const doing = (modes: readonly string[]) => {
  const list = ['read', 'append', 'write', 'control'].filter(m => modes.includes(m) && !(m === 'append' && modes.includes('write'))).map(m => DOING[m]!)
  return list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`
}

/** The visitor page of `path` on this pod: it opens at once for the public, after a sign-in with one's own pod for a person. */
export const visitorLink = (baseUrl: string, path: string) => `${baseUrl}${VISIT_PATHS.files}?path=${encodeURIComponent(path)}`

/** One line per recipient of `entries` (the item's effective access) who may read; the owner and keys (programs) have no link. */
export function shareLinks(baseUrl: string, path: string, entries: readonly Entry[], owner: string): ShareLink[] {
  const link = visitorLink(baseUrl, path)
  const what = readablePath(path)
  const out: ShareLink[] = []
  for (const e of entries) {
    if (!(e.modes.includes('read') && (e.thisItem || path.endsWith('/')))) continue
    const may = doing(e.modes)
    const onlyApps =
      e.conditions.length > 0 || e.origins.length > 0
        ? " Their access is limited to certain apps, so the pod's own pages will not open it for them: send them the app instead."
        : ''
    if (e.kind === 'public')
      out.push({ who: 'Everyone (public)', link, sees: `Anyone with the link sees ${what} without signing in, and may ${may}.${onlyApps}` })
    else if (e.kind === 'authenticated')
      out.push({ who: 'Anyone signed in', link, sees: `Anyone who signs in with their own Solid pod sees ${what}, and may ${may}.${onlyApps}` })
    else if (e.kind === 'agent' && e.value !== owner)
      out.push({ who: e.value, link, sees: `They sign in with their own pod (as ${e.value}) and see ${what}; they may ${may}.${onlyApps}` })
    else if (e.kind === 'group')
      out.push({ who: `Members of ${e.value}`, link, sees: `Each member signs in with their own pod and sees ${what}; they may ${may}.${onlyApps}` })
  }
  return out
}
