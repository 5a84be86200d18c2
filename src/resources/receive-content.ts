// A write's body as the layer receives it from any face: a file streamed to the blob store (never whole in
// memory), RDF read whole up to its own limit. Whether it is a file is decided from the Content-Type alone.

import { HttpError } from '../http/errors.ts'
import { isRdfType, mediaTypeOf } from '../rdf/media-types.ts'
import { readAtMost } from '../auth/request-body.ts'
import { BlobWriteError, type BlobLimits, type StoredBlob } from '../store/blob-store.ts'
import { fileBody, type IncomingBody } from './new-content.ts'
import { blobRefusal } from './blob-unavailable.ts'
import type { ResourcesDeps } from './acting.ts'

/** A body a face hands the layer: bytes it holds, or a stream it receives (an upload's part). */
export type OutgoingBody = Uint8Array | string | ReadableStream<Uint8Array>

/** The Content-Type of a body that is a file (streamed to the blob store), or undefined for RDF and containers. */
export function fileTypeOf(contentType: string | null, container: boolean): string | undefined {
  const type = contentType?.trim()
  const mediaType = mediaTypeOf(type ?? null)
  return !container && type && mediaType && !isRdfType(mediaType) ? type : undefined
}

/**
 * Stores `body` as a new blob, under the pod's size cap and above the disk's reserve. On a refusal nothing is
 * left behind; the caller owns the blob once this returns (it names it in a write, or discards it).
 */
export async function storeFile(
  deps: Pick<ResourcesDeps, 'cfg' | 'store'>,
  body: OutgoingBody,
  options: Pick<BlobLimits, 'expectedBytes' | 'observe' | 'ownsChunks'> = {},
): Promise<StoredBlob> {
  const { cfg, store } = deps
  try {
    return await store.blobs.put(typeof body === 'string' ? [new TextEncoder().encode(body)] : body instanceof Uint8Array ? [body] : body, {
      ...(cfg.maxBodyBytes === undefined ? {} : { maxBytes: cfg.maxBodyBytes }),
      reserveBytes: cfg.diskReserveBytes,
      ...options,
    })
  } catch (err) {
    if (!(err instanceof BlobWriteError)) throw blobRefusal(err)
    if (err.reason === 'too_large') throw new HttpError(413, 'payload_too_large', err.message)
    throw new HttpError(507, 'insufficient_storage', err.message)
  }
}

/** `body` of a write declared as `contentType`: a file to the blob store, anything else (a container's too) read as RDF. */
export async function receiveContent(deps: ResourcesDeps, container: boolean, contentType: string | null, body: OutgoingBody): Promise<IncomingBody> {
  const fileType = fileTypeOf(contentType, container)
  if (fileType !== undefined) return fileBody(fileType, await storeFile(deps, body))
  const maxBytes = Math.min(deps.cfg.maxRdfBytes, deps.cfg.maxBodyBytes ?? Infinity)
  const tooLarge = () => new HttpError(413, 'payload_too_large', `the body is larger than this pod accepts (${maxBytes} bytes)`)
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body instanceof Uint8Array ? body : await readAtMost(body, maxBytes, tooLarge)
  if (bytes.byteLength > maxBytes) throw tooLarge()
  const mediaType = mediaTypeOf(contentType)
  if (bytes.byteLength > 0 && !mediaType) throw new HttpError(400, 'missing_content_type', 'a request with a body needs a Content-Type header')
  return { rdf: { bytes, mediaType, contentType: mediaType ? contentType!.trim() : undefined } }
}
