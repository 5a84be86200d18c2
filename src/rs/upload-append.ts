// Resumable uploads, appending (IETF draft-ietf-httpbis-resumable-upload §4.4): a request's content streamed onto the
// partial upload, made durable, and the new offset recorded before it is acknowledged.

import { HttpError } from '../http/errors.ts'
import { signedBodyCheck } from '../auth/httpsig/http-sig.ts'
import { BlobWriteError, PartialUploadLost } from '../store/blob-store.ts'
import { blobRefusal } from '../resources/blob-unavailable.ts'
import { deleteUpload, putUpload, type UploadRecord } from '../store/upload-records.ts'
import { byteCountOf, PROBLEM_TYPES, uploadCompleteOf } from './upload-fields.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export const inconsistentLength = (why: string) =>
  new HttpError(400, 'inconsistent_upload_length', why, { extra: { type: PROBLEM_TYPES.inconsistent_upload_length } })

/**
 * `err` as the client's refusal: the bytes of the upload gone from the object store (PartialUploadLost) end the upload
 * resource too, 404 like one that expired (§4.4: a client starts again), with its own code; the store unavailable 503.
 */
export async function storeRefusal(ctx: RsContext, id: string, err: unknown): Promise<unknown> {
  if (!(err instanceof PartialUploadLost)) return blobRefusal(err)
  await deleteUpload(ctx.deps.store, id)
  return new HttpError(404, 'upload_lost', err.message, { cause: err })
}

/**
 * §4.1.3: the length the request announces (Upload-Length, or Content-Length with Upload-Complete: ?1), which
 * must agree with itself and with what the upload already knows.
 */
export function announcedLength(headers: Headers, upload: UploadRecord): number | undefined {
  const given = byteCountOf(headers, 'upload-length')
  const contentLength = headers.get('content-length')
  const byContent =
    uploadCompleteOf(headers) === true && contentLength !== null && /^\d+$/.test(contentLength) ? upload.offset + Number(contentLength) : undefined
  const known = [upload.length, given, byContent].filter((n): n is number => n !== undefined)
  if (known.some(n => n !== known[0])) throw inconsistentLength(`the upload's length was given as ${[...new Set(known)].join(' and ')}`)
  if (known[0] !== undefined && known[0] < upload.offset)
    throw inconsistentLength(`the length ${known[0]} is less than the ${upload.offset} bytes already stored`)
  return known[0]
}

/**
 * Appends the request's content at the upload's offset. A body cut off midway keeps what arrived (§4.4.2);
 * a signed body (RFC 9530 Content-Digest) keeps nothing unless it arrived whole and matches. Returns the
 * upload as recorded now, and whether the body arrived whole.
 */
export async function appendToUpload(
  ctx: RsContext,
  r: Pick<RsRequest, 'request' | 'principal'>,
  id: string,
  before: UploadRecord,
  signal: AbortSignal,
): Promise<{ upload: UploadRecord; ended: boolean }> {
  const { store, cfg, now } = ctx.deps
  const length = announcedLength(r.request.headers, before)
  const declared = Number(r.request.headers.get('content-length') ?? 'NaN')
  const expected = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined
  if (length !== undefined && expected !== undefined && before.offset + expected > length) {
    throw inconsistentLength(`${expected} more bytes at offset ${before.offset} go past the upload's length, ${length}`)
  }
  const expiresAt = () => now() + cfg.uploadExpirySeconds * 1000
  // Activity keeps the upload alive: the sweep must not take it while this append runs.
  await putUpload(store, id, { ...before, ...(length === undefined ? {} : { length }) }, expiresAt())
  const cap = Math.min(length ?? Infinity, cfg.maxBodyBytes ?? Infinity)
  const digest = signedBodyCheck(r.principal, r.request)
  let result
  try {
    result = await store.blobs.appendPartial(id, r.request.body ?? [], {
      ...(cap === Infinity ? {} : { maxBytes: cap }),
      reserveBytes: cfg.diskReserveBytes,
      ...(expected === undefined ? {} : { expectedBytes: expected }),
      observe: digest.observe,
      // The request's body stream is read here alone: its chunks are emptied as they are stored (store/write-body.ts).
      ownsChunks: r.request.body !== null,
      signal,
      ...(r.principal.signedBody === undefined ? {} : { heldUntilChecked: true }),
    })
  } catch (err) {
    if (!(err instanceof BlobWriteError)) throw await storeRefusal(ctx, id, err)
    if (err.reason === 'disk_full') throw new HttpError(507, 'insufficient_storage', err.message)
    if (length !== undefined && length === cap) throw inconsistentLength(`the content goes past the upload's length, ${length}`)
    throw new HttpError(413, 'payload_too_large', err.message)
  }
  // A body that stopped before its Content-Length is cut off, however the stream ended.
  const ended = result.ended && (expected === undefined || result.size - before.offset === expected)
  if (r.principal.signedBody !== undefined) {
    try {
      if (!ended) throw new HttpError(400, 'invalid_request', 'a signed body must arrive whole to be checked against its Content-Digest')
      digest.verify()
    } catch (err) {
      await store.blobs.truncatePartial(id, before.offset)
      throw err
    }
  }
  const upload: UploadRecord = { ...before, offset: result.size, ...(length === undefined ? {} : { length }) }
  await putUpload(store, id, upload, expiresAt())
  // The bucket went down midway: what arrived is recorded, and the client resumes from it once it answers again.
  if (result.failed) throw blobRefusal(result.failed)
  return { upload, ended }
}
