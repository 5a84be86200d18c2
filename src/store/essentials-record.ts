// The record that a start found the pod's essential resources whole (first-start.ts), so that a restart need
// not read and check them again (issue 41: the check was ~20 ms of a ~150 ms restart). The record names the
// state it was made for, the ETag of every resource the check reads: every write of a resource makes it a new
// ETag (resource-meta.ts), whatever wrote it — a request, a command, an older version of the pod that knows
// nothing of this record — so nothing has to remember to clear it. A state that is not the recorded one is
// checked again.

import type { Store } from './open-store.ts'
import { getMeta } from './resources.ts'
import { FORMAT_VERSION } from './open-store.ts'

/** A `system` key of this data directory only: export and import leave it out (export-pod.ts DIRECTORY_KEYS). */
export const ESSENTIALS_CHECKED_KEY = 'essentials-checked'

/**
 * The state of `paths` as the check sees it: each one's ETag, or that it is missing. `check` names the
 * check's own rules, so a pod whose check changes checks again; the data format and the base URL are part of
 * it too (a migration may rewrite documents in place).
 */
export async function essentialsState(store: Store, baseUrl: string, check: string, paths: readonly string[]): Promise<string> {
  const tags = await Promise.all(paths.map(async path => `${path} ${(await getMeta(store, path))?.etag ?? '-'}`))
  return [check, FORMAT_VERSION, baseUrl, ...tags].join('\n')
}

export const getEssentialsChecked = (store: Store) => store.system.get(ESSENTIALS_CHECKED_KEY) as Promise<string | undefined>

/** Not synced: a record a crash loses only costs the next start one more check. */
export const recordEssentialsChecked = (store: Store, state: string) => store.system.put(ESSENTIALS_CHECKED_KEY, state)
