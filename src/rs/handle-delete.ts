// DELETE: a document, or an empty container, with its ACL (Solid Protocol §5.4).

import { HttpError } from '../http/errors.ts'
import { deleteResource, getMeta, hasChildren } from '../store/resources.ts'
import { deleteLocks } from '../store/resource-locks.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { checkWritePreconditions } from './conditional.ts'
import { checkEssentialDelete } from './essential-writes.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function handleDelete(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg, now, withResourceLocks } = ctx.deps
  const { path, url } = r.target
  // Access first, whatever the target is (docs/architecture.md, "Access before the method"): a missing target
  // needs Read on its container, so only an agent that may list it learns the name is free (policy/modes.ts).
  const authorize = (exists: boolean) =>
    ctx.access.authorize(r.principal, url, requiredModes({ method: 'DELETE', url, exists }), r.origin, challengeLinks(cfg.baseUrl, path))
  const exists = (await getMeta(store, path)) !== undefined
  await authorize(exists)
  if (path === '/' || path === '/.acl') {
    throw new HttpError(405, 'root_protected', path === '/' ? 'the storage root cannot be deleted' : "the storage root's ACL cannot be deleted",
      { headers: { allow: 'GET, HEAD, OPTIONS, PUT, PATCH' } })
  }
  await withResourceLocks(() => deleteLocks(store, path), async () => {
    const meta = await getMeta(store, path)
    if (!meta) {
      // Deleted meanwhile: the 404 is told only to an agent who may know the name is free
      if (exists) await authorize(false)
      throw new HttpError(404, 'not_found', `${path} does not exist`)
    }
    checkWritePreconditions(r.request.headers, meta)
    await checkEssentialDelete(ctx, path)
    if (isContainerPath(path) && await hasChildren(store, path)) {
      throw new HttpError(409, 'container_not_empty', `${path} still has members: delete them first`)
    }
    await deleteResource(store, cfg.baseUrl, path, now())
  })
  return new Response(null, { status: 204 })
}
