// A folder the owner names for an app (consent page, dashboard) exists afterwards: an app limited to it
// could not create it itself, as that needs Append on the folder above.

import type { Store } from './open-store.ts'
import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource } from './resources.ts'
import { ancestorPaths } from './paths.ts'
import { writeLocks, type WithResourceLocks } from './resource-locks.ts'

/** Creates the container `path` (and missing ancestors) unless it exists; true when it was created. */
export function ensureFolder(store: Store, baseUrl: string, path: string, now: number, withLocks: WithResourceLocks): Promise<boolean> {
  return withLocks(
    () => writeLocks(store, path),
    async () => {
      if (await getMeta(store, path)) return false
      // Solid Protocol §3.1: no document may share a name with the folder or any folder above it
      for (const folder of [path, ...ancestorPaths(path)]) {
        const asDocument = folder.slice(0, -1)
        if (asDocument !== '' && (await getMeta(store, asDocument))) {
          throw new HttpError(
            409,
            'name_conflict',
            `${decodeURI(asDocument)} is a document, so the folder ${decodeURI(path)} cannot be made; choose another folder`,
          )
        }
      }
      await writeResource(store, baseUrl, path, { kind: 'container', contentType: 'text/turtle', triples: [], size: 0 }, now)
      return true
    },
  )
}
