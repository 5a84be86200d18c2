// PUT (Solid Protocol §5.3): the request's facts to the operations layer (resources/put-resource.ts), its answer back.

import { isContainerPath } from '../store/paths.ts'
import type { PutPlan } from '../resources/put-resource.ts'
import type { IncomingBody } from '../resources/new-content.ts'
import { receiveBody } from './receive-body.ts'
import { preconditionsOf } from './conditional.ts'
import { answerWrite } from './write-answer.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'
import { checkParentExists, withTypeFromName } from './mounted-drive.ts'

export async function handlePut(ctx: RsContext, given: RsRequest): Promise<Response> {
  const r = { ...given, request: withTypeFromName(given.request, given.principal, given.target.path) }
  // Read from the headers once, judged by the layer when planned and again under the locks
  const preconditions = preconditionsOf(r.request.headers)
  const plan = await planPut(ctx, r, preconditions)
  checkParentExists(r.principal, plan)
  // A body refused while it arrives leaves nothing behind (receiveBody); one received is the commit's to keep or drop.
  return commitPut(ctx, r, plan, await receiveBody(ctx, r, isContainerPath(r.target.path)), preconditions)
}

/** Everything PUT decides from the headers. A resumable upload asks this before its first byte and again when it completes. */
export function planPut(ctx: RsContext, r: RsRequest, preconditions = preconditionsOf(r.request.headers)): Promise<PutPlan> {
  return ctx.deps.resources.planPut(actingOf(r), r.target.path, { preconditions, contentType: r.request.headers.get('content-type') })
}

/** Writes a received body as `planPut` planned; the layer discards the body when the write is refused. */
export async function commitPut(
  ctx: RsContext,
  r: RsRequest,
  plan: PutPlan,
  body: IncomingBody,
  preconditions = preconditionsOf(r.request.headers),
): Promise<Response> {
  const result = await ctx.deps.resources.commitPut(actingOf(r), r.target.path, plan, body, preconditions)
  return answerWrite(ctx, r.target.path, result, plan.wacAllow)
}
