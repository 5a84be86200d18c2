// Reading a write's body: size limit first, Content-Type required whenever there is content.

import { HttpError } from '../http/errors.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'

export interface RequestBody {
  readonly bytes: Uint8Array
  /** Media type without parameters, lowercased; undefined when the request has none. */
  readonly mediaType: string | undefined
}

export async function readRequestBody(request: Request, maxBytes: number): Promise<RequestBody> {
  const declared = Number(request.headers.get('content-length') ?? '0')
  const tooLarge = () => new HttpError(413, 'payload_too_large', `the body is larger than this pod accepts (${maxBytes} bytes)`)
  if (declared > maxBytes) throw tooLarge()
  const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : new Uint8Array()
  if (bytes.byteLength > maxBytes) throw tooLarge()
  const contentType = request.headers.get('content-type')
  const mediaType = mediaTypeOf(contentType)
  // Solid Protocol §5.3: content without a Content-Type is a 400, never guessed.
  if (bytes.byteLength > 0 && !mediaType) throw new HttpError(400, 'missing_content_type', 'a request with a body needs a Content-Type header')
  return { bytes, mediaType }
}

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HttpError(400, 'invalid_rdf', 'the body is not valid UTF-8')
  }
}
