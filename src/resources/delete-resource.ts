// DELETE: a document, or an empty container, with its ACL (Solid Protocol §5.4).

import { HttpError } from '../http/errors.ts'
import { deleteResource, getMeta, hasChildren } from '../store/resources.ts'
import { deleteLocks } from '../store/resource-locks.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { checkPreconditions, type Preconditions } from './preconditions.ts'
import { checkEssentialDelete } from './essential-writes.ts'
import { authorOf, decide, type Acting, type ResourcesDeps } from './acting.ts'
import { removing, type LockTable } from './lock-table.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { reservedPathError } from './resource-names.ts'

export function makeDeleteResource(deps: ResourcesDeps, locks: LockTable) {
  const { store, cfg, now, withResourceLocks } = deps
  return async function deleteOne(who: Acting, path: string, preconditions: Preconditions): Promise<void> {
    // The pod's own endpoints are never pod resources, whoever asks (as a PUT's checkWritablePath): nothing is decided.
    if (isReservedPath(path)) throw reservedPathError(path)
    // Access first, whatever the target is (docs/architecture.md, "Access before the method"): a missing target
    // needs Read on its container, so only an agent that may list it learns the name is free (policy/modes.ts).
    const authorize = (exists: boolean) => decide(deps, who, path, requiredModes({ method: 'DELETE', url: cfg.baseUrl + path, exists }))
    const exists = (await getMeta(store, path)) !== undefined
    await authorize(exists)
    if (path === '/' || path === '/.acl') {
      throw new HttpError(405, 'root_protected', path === '/' ? 'the storage root cannot be deleted' : "the storage root's ACL cannot be deleted", {
        headers: { allow: 'GET, HEAD, OPTIONS, PUT, PATCH' },
      })
    }
    await withResourceLocks(
      () => deleteLocks(store, path),
      async () => {
        const meta = await getMeta(store, path)
        if (!meta) {
          // Deleted meanwhile: the 404 is told only to an agent who may know the name is free
          if (exists) await authorize(false)
          throw new HttpError(404, 'not_found', `${path} does not exist`)
        }
        checkPreconditions(preconditions, meta)
        await locks.admit({ ...preconditions, path, ...removing(path) })
        await checkEssentialDelete(deps, path)
        if (isContainerPath(path) && (await hasChildren(store, path))) {
          throw new HttpError(409, 'container_not_empty', `${path} still has members: delete them first`)
        }
        await deleteResource(store, cfg.baseUrl, path, now(), authorOf(who))
      },
    )
  }
}
