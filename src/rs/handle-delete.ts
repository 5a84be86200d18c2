// DELETE (Solid Protocol §5.4): through the operations layer (resources/delete-resource.ts), 204 when done.

import { isContainerPath } from '../store/paths.ts'
import { preconditionsOf, submittedLocksOf } from './conditional.ts'
import { isMountedDrive } from './mounted-drive.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'

export async function handleDelete(ctx: RsContext, r: RsRequest): Promise<Response> {
  // RFC 4918 §9.6.1: to a WebDAV client a folder's DELETE takes everything in it. A mounted drive (HTTP Basic) speaks
  // WebDAV, as does a request that says `Depth: infinity`; every other client keeps Solid's rule (409 while not empty).
  if (isContainerPath(r.target.path) && (isMountedDrive(r.principal) || r.request.headers.get('depth')?.trim().toLowerCase() === 'infinity')) {
    await ctx.deps.resources.deleteTree(actingOf(r), r.target.path, undefined, submittedLocksOf(r.request.headers))
    return new Response(null, { status: 204 })
  }
  await ctx.deps.resources.delete(actingOf(r), r.target.path, preconditionsOf(r.request.headers))
  return new Response(null, { status: 204 })
}
