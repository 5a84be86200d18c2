// What the owner lets each of their apps reach: everything (no record, as every consent before scopes
// existed), only some folders, to read or to read and write, or nothing at all (no folders: the app only
// learns who the owner is). Asked on every request of an owner app.

import type { Store } from '../store/open-store.ts'
import { deleteRecord, putRecord, readRecords } from '../store/records.ts'
import { ensureFolder } from '../store/ensure-folder.ts'
import type { WithResourceLocks } from '../store/resource-locks.ts'
import { readChildren } from '../store/resources.ts'
import type { FolderRow } from '../http/access-choice-form.ts'

const KIND = 'app-scope'

/**
 * The scope value by which a client says it only wants to know who the person is (sign-in, no data):
 * the consent page then proposes "Only confirm who I am", which is an app scope of no folders. A value of
 * this pod's own (OAuth 2.0 scope tokens are the server's to define, RFC 6749 §3.3); other providers
 * ignore it (OIDC Core §3.1.2.1), so a client may send it anywhere. The pod's visitor sign-in sends it.
 */
export const IDENTITY_SCOPE = 'identity'

/** `write` is read, append and write: a folder an app may change it may also read. Never Control. */
export type FolderRight = 'read' | 'write'
export const FOLDER_RIGHTS: readonly FolderRight[] = ['read', 'write']

export interface FolderScope {
  /** A container's path on this pod as stored (percent-encoded, ending in `/`). */
  readonly path: string
  readonly right: FolderRight
}

export interface AppScope {
  readonly clientId: string
  readonly folders: readonly FolderScope[]
  readonly setAt: number
}

export interface AppScopes {
  /** The folders `clientId` is limited to (none: only who the owner is), or undefined for full access. */
  foldersOf(clientId: string): Promise<readonly FolderScope[] | undefined>
  /**
   * Limits the app to `folders`, or (undefined) gives it full access again; takes effect on its next
   * request. A folder that does not exist is made: the app could not make it, as that needs Append above it.
   */
  set(clientId: string, folders: readonly FolderScope[] | undefined, now: number): Promise<void>
  list(): Promise<readonly AppScope[]>
}

/**
 * Built once by the wiring: every scope is held in memory (one per app the owner limited), loaded on
 * first use; only `set` (in this process) changes them, so memory and store agree.
 */
export function makeAppScopes(store: Store, baseUrl: string, withLocks: WithResourceLocks): AppScopes {
  let loaded: Promise<Map<string, AppScope>> | undefined
  const all = () => (loaded ??= readRecords<AppScope>(store, KIND, 0).then(rs => new Map(rs.map(r => [r.key, r.value]))))
  return {
    async foldersOf(clientId) {
      return (await all()).get(clientId)?.folders
    },
    async set(clientId, folders, now) {
      const scopes = await all()
      if (folders === undefined) {
        await deleteRecord(store, KIND, clientId)
        scopes.delete(clientId)
        return
      }
      for (const f of folders) await ensureFolder(store, baseUrl, f.path, now, withLocks)
      const scope: AppScope = { clientId, folders: [...folders], setAt: now }
      await putRecord(store, KIND, clientId, scope)
      scopes.set(clientId, scope)
    },
    async list() {
      return [...(await all()).values()]
    },
  }
}

/** The folders listed to choose from: at most this many. */
const MAX_LISTED = 60

/**
 * The rows of a form that chooses an app's folders: what it has or is proposed first (with that right),
 * then the pod's other top-level folders (not given).
 */
export async function folderChoices(store: Store, chosen: readonly FolderRow[]): Promise<FolderRow[]> {
  const top = (await readChildren(store, '/')).filter(c => c.meta.kind === 'container').map(c => c.path)
  const rows = [...chosen]
  for (const path of top) if (rows.length < MAX_LISTED && !rows.some(r => r.path === path)) rows.push({ path, right: 'none' })
  return rows
}
