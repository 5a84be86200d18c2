// A file's body streamed to the blob store as it arrives: never whole in memory, access decided before the first byte.

import { HttpError } from '../http/errors.ts'
import { signedBodyCheck } from '../auth/httpsig/http-sig.ts'
import { BlobWriteError, type StoredBlob } from '../store/blob-store.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/**
 * Stores the request body as a new blob, checked against the optional size cap, the disk's reserve and a
 * signed request's Content-Digest (RFC 9530). On any refusal nothing is left behind; the caller owns the
 * blob once this returns (it names it in a write, or removes it).
 */
export async function storeBinaryBody(ctx: RsContext, r: Pick<RsRequest, 'request' | 'principal'>): Promise<StoredBlob> {
  const { store, cfg } = ctx.deps
  const declared = Number(r.request.headers.get('content-length') ?? '0')
  const digest = signedBodyCheck(r.principal, r.request)
  let blob: StoredBlob
  try {
    blob = await store.blobs.put(r.request.body ?? [], {
      ...(cfg.maxBodyBytes === undefined ? {} : { maxBytes: cfg.maxBodyBytes }),
      reserveBytes: cfg.diskReserveBytes,
      ...(Number.isSafeInteger(declared) && declared > 0 ? { expectedBytes: declared } : {}),
      observe: digest.observe,
    })
  } catch (err) {
    if (!(err instanceof BlobWriteError)) throw err
    if (err.reason === 'too_large') throw new HttpError(413, 'payload_too_large', err.message)
    throw new HttpError(507, 'insufficient_storage', err.message)
  }
  try {
    digest.verify()
  } catch (err) {
    store.blobs.discard(blob.id)
    throw err
  }
  return blob
}
