// A part of an upload into the bucket (store/s3-multipart.ts `sendPart`) against a local stand-in for the engine: an
// answer of 500 or 503 (InternalError, SlowDown) is the engine asking for the request again, and the part is sent once
// more from the same bytes; a second such answer, or a refusal (403), fails the upload as the store being unavailable.

import { afterAll, describe, expect, test } from 'bun:test'
import { openS3Multipart } from '../../src/store/s3-multipart.ts'
import { BlobStoreUnavailable } from '../../src/store/blob-store.ts'

const errorXml = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>m</Message></Error>`
/** What the stand-in answers next, in order; then 200 with an ETag. */
let script: { status: number; code: string }[] = []
const bodies: Uint8Array[] = []
const engine = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    bodies.push(new Uint8Array(await req.arrayBuffer()))
    const next = script.shift()
    return next ? new Response(errorXml(next.code), { status: next.status }) : new Response(null, { headers: { etag: '"part-etag"' } })
  },
})
afterAll(() => void engine.stop(true))

const s3 = openS3Multipart(
  { bucket: 'b', prefix: '', endpoint: `http://127.0.0.1:${engine.port}`, region: 'us-east-1', timeoutMs: 5000, sweepGraceMs: 60_000 },
  { accessKeyId: 'test-key', secretAccessKey: 'test-secret' },
)
const part = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) & 255)
const never = new AbortController().signal

describe('a part sent to the engine', () => {
  test.each([
    [503, 'SlowDown'],
    [500, 'InternalError'],
  ])('%d %s once: the part is sent again, byte for byte, and stored', async (status, code) => {
    script = [{ status, code }]
    bodies.length = 0
    expect(await s3.sendPart('k', 'up-1', 3, part, never)).toEqual({ n: 3, size: part.byteLength, etag: '"part-etag"' })
    expect(bodies).toEqual([part, part])
  })

  test('503 twice: the upload fails as the store unavailable, after two tries', async () => {
    script = [
      { status: 503, code: 'SlowDown' },
      { status: 503, code: 'SlowDown' },
    ]
    bodies.length = 0
    const failed = s3.sendPart('k', 'up-1', 1, part, never)
    await expect(failed).rejects.toBeInstanceOf(BlobStoreUnavailable)
    await expect(failed).rejects.toThrow("the pod's object store did not store a part")
    expect(bodies).toHaveLength(2)
  })

  test('a refusal (403 AccessDenied) is not tried again', async () => {
    script = [{ status: 403, code: 'AccessDenied' }]
    bodies.length = 0
    await expect(s3.sendPart('k', 'up-1', 1, part, never)).rejects.toBeInstanceOf(BlobStoreUnavailable)
    expect(bodies).toHaveLength(1)
  })
})
