// A file's body streamed to the blob store as it arrives: never whole in memory, access decided before the first byte.

import { signedBodyCheck } from '../auth/httpsig/http-sig.ts'
import type { StoredBlob } from '../store/blob-store.ts'
import { storeFile } from '../resources/receive-content.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/**
 * Stores the request body as a new blob (resources/receive-content.ts), checked also against a signed request's
 * Content-Digest (RFC 9530). On any refusal nothing is left behind; the caller owns the blob once this returns.
 */
export async function storeBinaryBody(ctx: RsContext, r: Pick<RsRequest, 'request' | 'principal'>): Promise<StoredBlob> {
  const declared = Number(r.request.headers.get('content-length') ?? '0')
  const digest = signedBodyCheck(r.principal, r.request)
  const blob = await storeFile(ctx.deps, r.request.body ?? new Uint8Array(), {
    ...(Number.isSafeInteger(declared) && declared > 0 ? { expectedBytes: declared } : {}),
    observe: digest.observe,
    // The request's body stream is read here alone: its chunks are emptied as they are stored (store/write-body.ts).
    ownsChunks: r.request.body !== null,
  })
  try {
    digest.verify()
  } catch (err) {
    ctx.deps.store.blobs.discard(blob.id)
    throw err
  }
  return blob
}
