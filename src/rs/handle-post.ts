// POST to a container (Solid Protocol §5.3): the request's facts to the operations layer (resources/post-member.ts),
// 201 with the minted member's Location back.

import { LDP } from '../rdf/namespaces.ts'
import type { PostPlan } from '../resources/post-member.ts'
import type { IncomingBody } from '../resources/new-content.ts'
import { receiveBody } from './receive-body.ts'
import { preconditionsOf, submittedLocksOf } from './conditional.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'

/** `Link: <ldp#BasicContainer>; rel="type"` (or ldp#Container) on the request asks for a container. */
export function wantsContainer(linkHeader: string | null): boolean {
  if (!linkHeader) return false
  return linkHeader.split(',').some(l => {
    const m = /<([^>]*)>\s*;\s*rel\s*=\s*"?type"?/i.exec(l.trim())
    return m !== null && (m[1] === LDP('BasicContainer') || m[1] === LDP('Container'))
  })
}

export async function handlePost(ctx: RsContext, r: RsRequest): Promise<Response> {
  const plan = await planPost(ctx, r)
  // A body refused while it arrives leaves nothing behind (receiveBody); one received is the commit's to keep or drop.
  return commitPost(ctx, r, plan, await receiveBody(ctx, r, plan.container))
}

/** Everything POST decides from the headers; a resumable upload asks this before its first byte and again at its end. */
export function planPost(ctx: RsContext, r: RsRequest): Promise<PostPlan> {
  return ctx.deps.resources.planPost(actingOf(r), r.target.path, wantsContainer(r.request.headers.get('link')), submittedLocksOf(r.request.headers))
}

/** Creates the member from a received body as `planPost` planned; the layer discards the body when the write is refused. */
export async function commitPost(ctx: RsContext, r: RsRequest, plan: PostPlan, body: IncomingBody): Promise<Response> {
  const { headers } = r.request
  const created = await ctx.deps.resources.commitPost(actingOf(r), r.target.path, plan, body, {
    slug: headers.get('slug'),
    preconditions: preconditionsOf(headers),
  })
  return new Response(null, {
    status: 201,
    headers: { location: ctx.deps.cfg.baseUrl + created.path, etag: `"${created.result.meta.etag}"`, 'wac-allow': plan.wacAllow },
  })
}
