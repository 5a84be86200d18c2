// Reading a write's body: size limit first, then a signed request's Content-Digest, Content-Type required whenever there is content.

import { HttpError } from '../http/errors.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'
import { checkSignedBody } from './httpsig/http-sig.ts'
import type { Principal } from './principal.ts'

export interface RequestBody {
  readonly bytes: Uint8Array
  /** Media type without parameters, lowercased; undefined when the request has none. */
  readonly mediaType: string | undefined
  /** The Content-Type as sent, parameters kept: a binary is served back with exactly this. */
  readonly contentType: string | undefined
}

/**
 * `what` names the body in the 413, e.g. "a PATCH body" with its own limit. The principal comes with the request
 * so that no body is used before the HttpSig signature that came with it was checked against it (RFC 9530).
 */
export async function readRequestBody(
  { request, principal }: { readonly request: Request; readonly principal: Principal },
  maxBytes: number,
  what = 'the body',
): Promise<RequestBody> {
  const declared = Number(request.headers.get('content-length') ?? '0')
  const tooLarge = () => new HttpError(413, 'payload_too_large', `${what} is larger than this pod accepts (${maxBytes} bytes)`)
  if (declared > maxBytes) throw tooLarge()
  const contentType = request.headers.get('content-type')
  const mediaType = mediaTypeOf(contentType)
  // Solid Protocol §5.3: content without a Content-Type is a 400, never guessed; known before a byte is read.
  const missingType = () => new HttpError(400, 'missing_content_type', 'a request with a body needs a Content-Type header')
  if (declared > 0 && !mediaType) throw missingType()
  const bytes = request.body ? await readAtMost(request.body, maxBytes, tooLarge) : new Uint8Array()
  checkSignedBody(principal, request, bytes)
  if (bytes.byteLength > 0 && !mediaType) throw missingType()
  return { bytes, mediaType, contentType: mediaType ? contentType!.trim() : undefined }
}

/** A body without (or with a false) Content-Length is cut off as soon as it passes the limit, not buffered whole. */
export async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => HttpError): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = body.getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    total += chunk.value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(chunk.value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    bytes.set(c, offset)
    offset += c.byteLength
  }
  return bytes
}

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HttpError(400, 'invalid_rdf', 'the body is not valid UTF-8')
  }
}
