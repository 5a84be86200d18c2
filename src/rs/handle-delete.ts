// DELETE (Solid Protocol §5.4): through the operations layer (resources/delete-resource.ts), 204 when done.

import { preconditionsOf } from './conditional.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'

export async function handleDelete(ctx: RsContext, r: RsRequest): Promise<Response> {
  await ctx.deps.resources.delete(actingOf(r), r.target.path, preconditionsOf(r.request.headers))
  return new Response(null, { status: 204 })
}
