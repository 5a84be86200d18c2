// Resumable uploads, the upload resource (IETF draft-ietf-httpbis-resumable-upload §4.3–§4.6): its offset (HEAD),
// appends and completion (PATCH), cancellation (DELETE), for the agent that started it only.

import { HttpError } from '../http/errors.ts'
import { RS_PATHS } from '../http/pod-paths.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'
import { deleteUpload, getUpload, putUpload, type StoredUpload, type UploadRecord } from '../store/upload-records.ts'
import { resolveTarget } from '../store/target.ts'
import { commitPut, planPut } from './handle-put.ts'
import { commitPost, planPost } from './handle-post.ts'
import { discardBody, fileBody, type IncomingBody } from '../resources/new-content.ts'
import { withRefusalLinks } from './refusal-links.ts'
import { agentOf } from './upload-creation.ts'
import { appendToUpload, inconsistentLength, storeRefusal } from './upload-append.ts'
import { interopVersionOf, PARTIAL_UPLOAD, PROBLEM_TYPES, uploadCompleteOf, uploadLimit, uploadState, byteCountOf, INTEROP_VERSIONS } from './upload-fields.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

const ID = /^[0-9a-f]{32}$/

const notFound = () => new HttpError(404, 'not_found', 'no such upload: it was never made, was cancelled, or expired')

export async function handleUploadResource(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, now } = ctx.deps
  const id = r.target.path.slice(RS_PATHS.uploads.length)
  const method = r.request.method.toUpperCase()
  if (!['GET', 'HEAD', 'PATCH', 'DELETE'].includes(method)) {
    throw new HttpError(405, 'method_not_allowed', `an upload resource takes HEAD, PATCH and DELETE, not ${method}`, {
      headers: { allow: 'HEAD, PATCH, DELETE, OPTIONS' },
    })
  }
  if (!ID.test(id)) throw notFound()
  const found = await getUpload(store, id, now())
  if (!found) throw notFound()
  // §12: only the agent that started the upload may see or change it; the unguessable URL alone is not enough.
  if (found.upload.agent !== agentOf(r.principal)) throw new HttpError(403, 'upload_not_yours', 'this upload was started by another agent')
  if (method === 'PATCH') checkAppendHeaders(r.request.headers)
  return ctx.uploads.exclusive(id, async signal => {
    // Read again once alone: the request this one took over has recorded its offset by now.
    const current = await getUpload(store, id, now())
    if (!current) throw notFound()
    if (method === 'DELETE') {
      await deleteUpload(store, id)
      return new Response(null, { status: 204 })
    }
    const upload = await checkPartial(ctx, id, current.upload, current.expiresAt)
    if (method === 'PATCH') return append(ctx, r, id, upload, signal)
    return new Response(null, { status: 204, headers: stateOf(ctx, r.request.headers, { upload, expiresAt: current.expiresAt }) })
  })
}

/** §4.4.1: an append says where it starts and whether it ends the upload, with the draft's media type. */
function checkAppendHeaders(headers: Headers) {
  if (mediaTypeOf(headers.get('content-type')) !== PARTIAL_UPLOAD) {
    throw new HttpError(415, 'unsupported_media_type', `an append to an upload is sent as ${PARTIAL_UPLOAD}`)
  }
  if (byteCountOf(headers, 'upload-offset') === undefined) throw new HttpError(400, 'invalid_request', 'an append needs Upload-Offset, a non-negative integer')
  if (uploadCompleteOf(headers) === undefined) throw new HttpError(400, 'invalid_request', 'an append needs Upload-Complete, ?0 or ?1')
}

/**
 * The file must hold exactly the recorded offset: bytes past it were written but never acknowledged (a
 * crash before the record), and go; fewer mean the state is lost (§4.1.1), and the upload with it. Bytes past it
 * that cannot go (parts already in the bucket) are recorded instead: the offset is what the pod holds.
 */
async function checkPartial(ctx: RsContext, id: string, upload: UploadRecord, expiresAt: number): Promise<UploadRecord> {
  if (upload.completed) return upload
  const size = ctx.deps.store.blobs.partialSize(id)
  if (size === undefined || size < upload.offset) {
    await deleteUpload(ctx.deps.store, id)
    throw notFound()
  }
  if (size === upload.offset) return upload
  const kept = await ctx.deps.store.blobs.truncatePartial(id, upload.offset)
  if (kept === upload.offset) return upload
  const recorded = { ...upload, offset: kept }
  await putUpload(ctx.deps.store, id, recorded, expiresAt)
  return recorded
}

function stateOf(ctx: RsContext, headers: Headers, { upload, expiresAt }: StoredUpload): Record<string, string> {
  const { cfg, now } = ctx.deps
  const version = interopVersionOf(headers) ?? INTEROP_VERSIONS.at(-1)!
  const limit = uploadLimit(version, { ...(cfg.maxBodyBytes === undefined ? {} : { maxSize: cfg.maxBodyBytes }), secondsLeft: (expiresAt - now()) / 1000 })
  return uploadState({
    offset: upload.offset,
    complete: upload.completed !== undefined,
    ...(upload.length === undefined ? {} : { length: upload.length }),
    limit,
  })
}

async function append(ctx: RsContext, r: RsRequest, id: string, upload: UploadRecord, signal: AbortSignal): Promise<Response> {
  const { headers } = r.request
  const offset = byteCountOf(headers, 'upload-offset')!
  const completes = uploadCompleteOf(headers)!
  const hasContent = headers.get('content-length') !== '0' && r.request.body !== null
  if (upload.completed) {
    // §4.4.2: a completed upload is never changed.
    if (hasContent) throw inconsistentLength('the upload is complete: nothing can be appended to it')
    throw new HttpError(400, 'completed_upload', 'the upload is complete already', { extra: { type: PROBLEM_TYPES.completed_upload } })
  }
  if (offset !== upload.offset) {
    throw new HttpError(409, 'mismatching_upload_offset', `the upload holds ${upload.offset} bytes; an append must start there, not at ${offset}`, {
      headers: { 'upload-offset': String(upload.offset), 'upload-complete': '?0' },
      extra: { type: PROBLEM_TYPES.mismatching_upload_offset, 'expected-offset': upload.offset, 'provided-offset': offset },
    })
  }
  const { upload: now, ended } = await appendToUpload(ctx, r, id, upload, signal)
  const expiresAt = ctx.deps.now() + ctx.deps.cfg.uploadExpirySeconds * 1000
  if (!completes || !ended) return new Response(null, { status: 204, headers: stateOf(ctx, headers, { upload: now, expiresAt }) })
  if (now.length !== undefined && now.offset !== now.length)
    throw inconsistentLength(`the upload ends at ${now.offset} bytes, not at its length, ${now.length}`)
  return complete(ctx, r, id, now, expiresAt)
}

/**
 * §4.4.2: the upload is complete; the write the creation request asked for happens now, through the same
 * PUT or POST path (access, preconditions and names decided again: §12, time of check and time of use).
 * Its answer is the write's, with `Upload-Complete: ?1` whatever the outcome.
 */
async function complete(ctx: RsContext, r: RsRequest, id: string, upload: UploadRecord, expiresAt: number): Promise<Response> {
  const { store, cfg } = ctx.deps
  // An object store down: 503, and the partial upload stays on the local disk to be completed again later.
  const blob = await store.blobs.finishPartial(id).catch(async (err: unknown) => {
    throw await storeRefusal(ctx, id, err)
  })
  const body: IncomingBody = fileBody(upload.headers['content-type']!, blob)
  const target = resolveTarget(cfg.baseUrl, cfg.baseUrl + upload.path)
  const original: RsRequest = { ...r, target, request: new Request(target.url, { method: upload.method, headers: upload.headers }) }
  const done = { ...upload, offset: blob.size }
  let response: Response
  try {
    response =
      upload.method === 'PUT'
        ? await planPut(ctx, original).then(
            plan => commitPut(ctx, original, plan, body),
            err => {
              discardBody(store, body)
              throw err
            },
          )
        : await planPost(ctx, original).then(
            plan => commitPost(ctx, original, plan, body),
            err => {
              discardBody(store, body)
              throw err
            },
          )
  } catch (thrown) {
    // The write's refusal names the written resource's links, not the upload resource's.
    const err = withRefusalLinks(thrown, cfg.baseUrl, upload.path)
    if (!(err instanceof HttpError)) throw err
    await putUpload(store, id, { ...done, completed: { status: err.status } }, expiresAt)
    throw new HttpError(err.status as never, err.code, err.description, {
      cause: err.cause,
      headers: { ...err.headers, 'upload-complete': '?1', 'upload-offset': String(blob.size) },
      extra: err.extra,
    })
  }
  const location = response.headers.get('location')
  await putUpload(store, id, { ...done, completed: { status: response.status, ...(location ? { location } : {}) } }, expiresAt)
  response.headers.set('upload-complete', '?1')
  response.headers.set('upload-offset', String(blob.size))
  return response
}
