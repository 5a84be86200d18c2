// PATCH with N3 Patch or SPARQL Update (resources/patch-document.ts): Append decided before the body is read,
// the body read whole under its own limit, the rest decided by the operations layer.

import { HttpError } from '../http/errors.ts'
import { checkPatchType } from '../rdf/patch.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'
import { readRequestBody, decodeUtf8 } from '../auth/request-body.ts'
import { preconditionsOf } from './conditional.ts'
import { answerWrite } from './write-answer.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'

export async function handlePatch(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { cfg, resources } = ctx.deps
  const { path } = r.target
  await resources.admitPatch(actingOf(r), path)
  const mediaType = mediaTypeOf(r.request.headers.get('content-type'))
  if (!mediaType) throw new HttpError(400, 'missing_content_type', 'a PATCH needs a Content-Type: text/n3 or application/sparql-update')
  checkPatchType(mediaType)
  // A patch is parsed whole in memory, so it has its own, smaller limit (--max-patch-bytes).
  const body = await readRequestBody(r, cfg.maxPatchBytes, 'a PATCH body')
  const { result, wacAllow } = await resources.patch(actingOf(r), path, { mediaType, text: decodeUtf8(body.bytes) }, preconditionsOf(r.request.headers))
  return answerWrite(ctx, path, result, wacAllow)
}
