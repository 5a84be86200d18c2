// GET and HEAD of a file: streamed from its blob (the OS copies it), with Range (RFC 9110 §14) and Repr-Digest (RFC 9530).

import type { Store } from '../store/open-store.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { HttpError } from '../http/errors.ts'
import { rangeOf } from './byte-ranges.ts'
import { blobRefusal } from './blob-unavailable.ts'

export interface BinaryRead {
  readonly store: Store
  readonly meta: ResourceMeta
  /** The strong ETag the answer carries (If-Range compares with it). */
  readonly etag: string
  readonly requestHeaders: Headers
  readonly head: boolean
  readonly headers: Headers
}

const hexToBase64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64')

export async function readBinary({ store, meta, etag, requestHeaders, head, headers }: BinaryRead): Promise<Response> {
  headers.append('accept-ranges', 'bytes')
  if (meta.sha256 !== undefined) headers.append('repr-digest', `sha-256=:${hexToBase64(meta.sha256)}:`)
  // Uploaded HTML or SVG must not run as the pod's origin (where the login pages live).
  headers.append('content-security-policy', 'sandbox')
  const blob = meta.blob
  const size = blob === undefined ? 0 : meta.size
  // The store answers (or is found slow or down: 503) before the status is sent.
  const open = (start?: number, end?: number) =>
    store.blobs.open(blob!, start, end, size).catch((err: unknown) => {
      throw blobRefusal(err)
    })
  // Range is defined for GET only (RFC 9110 §14.2): HEAD describes the whole representation.
  const answer = head ? { kind: 'whole' as const } : rangeOf(requestHeaders.get('range'), requestHeaders.get('if-range'), size, etag)
  if (answer.kind === 'unsatisfiable') {
    throw new HttpError(416, 'range_not_satisfiable', `the file has ${size} bytes; the Range asks for none of them`, {
      headers: { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' },
    })
  }
  if (answer.kind === 'partial') {
    const { first, last } = answer.range
    headers.append('content-range', `bytes ${first}-${last}/${size}`)
    headers.append('content-length', String(last - first + 1))
    return new Response(await open(first, last + 1), { status: 206, headers })
  }
  headers.append('content-length', String(size))
  if (head || blob === undefined) return new Response(null, { status: 200, headers })
  // Bun answers Range itself for a 200 with a file body (or a file's own stream), with If-Range rules of its
  // own. A Range decided against here (a stale If-Range, several ranges; rare) goes out through a plain
  // stream Bun does not recognise, so the whole file is sent as decided.
  const ranged = requestHeaders.has('range')
  const body = await open()
  return new Response(ranged && body instanceof Blob ? body.stream().pipeThrough(new TransformStream()) : body, { status: 200, headers })
}
