// `solopod links add|list|remove|settings`: the same actions whether the running server does them (asked on its
// control socket) or the command itself on a stopped pod's database.

import type { Store } from '../store/open-store.ts'
import { getMeta } from '../store/resources.ts'
import { ownerNamedPath } from '../policy/app-scope.ts'
import { twinPath } from '../store/paths.ts'
import { badRequest } from '../http/errors.ts'
import { LINK_PATHS } from '../http/pod-paths.ts'
import { changeLinkSettings, parseLinkDuration, type LinkSettingsChange, type ToldLinkSettings } from '../account/link-expiry.ts'
import { addShareLink, listShareLinks, removeShareLink, LINK_ALLOWS, type LinkAllows, type ShareLink } from '../account/share-links.ts'

/** What the command line asks for; `expires` as typed (`7d`, `never`), the path as the owner names it. */
export interface LinkRequest {
  readonly path: string
  readonly expires?: string
  readonly allows?: string
  readonly name?: string
  /** Hashed at once by addShareLink; never logged nor kept. */
  readonly password?: string
  readonly maxDownloads?: number
}

/** A link as the actions tell it (over the control socket too): whether it has a password, never the password's hash. */
export type ToldLink = Omit<ShareLink, 'passwordHash'> & { readonly hasPassword: boolean }

const told = ({ passwordHash, ...link }: ShareLink): ToldLink => ({ ...link, hasPassword: passwordHash !== undefined })

export interface ShareLinkActions {
  /** The link and its URL (holding the token: shown once). Throws an HttpError naming what is not usable. */
  add(request: LinkRequest): Promise<{ link: ToldLink; url: string }>
  list(): Promise<ToldLink[]>
  remove(id: string): Promise<boolean>
  /** The owner's expiry settings after the change asked for (none: as they are), as the command line writes them. */
  settings(change: LinkSettingsChange): Promise<ToldLinkSettings>
}

/** A file or folder as the owner names it (a path, encoded or not, or a URL of this pod) → its stored path, which must exist. */
async function linkedPath(store: Store, baseUrl: string, input: string): Promise<string> {
  const path = ownerNamedPath(input, baseUrl, badRequest)
  if (await getMeta(store, path)) return path
  // "/photos" for the folder /photos/ (and the other way round) is what the owner meant
  if (path !== '/' && (await getMeta(store, twinPath(path)))) return twinPath(path)
  throw badRequest(`there is nothing at ${path} on this pod: a link names a file or folder that exists`)
}

/** `pending`: the uses a running pod counted and has not written yet (share-link-uses.ts), added to the list. */
export function shareLinkActions(store: Store, baseUrl: string, now: () => number, pending?: (key: string) => number): ShareLinkActions {
  return {
    add: async r => {
      const allows = (r.allows ?? 'read') as LinkAllows
      if (!LINK_ALLOWS.includes(allows)) throw badRequest(`a link allows one of ${LINK_ALLOWS.join(', ')}`)
      const lifetime = parseLinkDuration(r.expires)
      const path = await linkedPath(store, baseUrl, r.path)
      const { link, token } = await addShareLink(
        store,
        {
          path,
          allows,
          ...(r.name !== undefined ? { name: r.name } : {}),
          ...(lifetime !== undefined ? { lifetimeMs: lifetime } : {}),
          ...(typeof r.password === 'string' ? { password: r.password } : {}),
          ...(r.maxDownloads !== undefined ? { maxDownloads: Number(r.maxDownloads) } : {}),
        },
        now(),
      )
      return { link: told(link), url: `${baseUrl}${LINK_PATHS.base}${token}/` }
    },
    list: async () => (await listShareLinks(store, now(), pending)).map(told),
    remove: id => removeShareLink(store, id, now()),
    settings: change => changeLinkSettings(store, change),
  }
}
