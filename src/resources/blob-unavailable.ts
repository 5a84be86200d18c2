// The object store holding files being slow or down, as the answer a client can act on: 503 with Retry-After.

import { HttpError } from '../http/errors.ts'
import { BlobStoreUnavailable } from '../store/blob-store.ts'

/** `err` as the 503 when it is the blob store's being unavailable; anything else as it is. */
export function blobRefusal(err: unknown): unknown {
  if (!(err instanceof BlobStoreUnavailable)) return err
  return new HttpError(503, 'blob_store_unavailable', err.message, { cause: err, headers: { 'retry-after': String(err.retryAfter) } })
}
