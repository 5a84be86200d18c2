// A part of an upload into the bucket when the environment names a proxy (HTTPS_PROXY, HTTP_PROXY): the pod's own
// PUT (store/socket-put.ts) connects straight to the engine, so such a pod sends its parts through Bun's fetch, which
// goes through the proxy. Here the engine's address answers nothing, and the stand-in proxy answers as the engine.

import { afterAll, describe, expect, test } from 'bun:test'
import { openS3Multipart } from '../../src/store/s3-multipart.ts'

const asked: { method: string; url: string; bytes: Uint8Array; authorization: string | null }[] = []
const proxy = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    asked.push({ method: req.method, url: req.url, bytes: new Uint8Array(await req.arrayBuffer()), authorization: req.headers.get('authorization') })
    return new Response(null, { headers: { etag: '"through-the-proxy"' } })
  },
})
// Nothing listens on port 9 (discard) of this machine: a part sent straight there fails.
const ENGINE = 'http://127.0.0.1:9'
const open = () =>
  openS3Multipart(
    { bucket: 'b', prefix: '', endpoint: ENGINE, region: 'us-east-1', timeoutMs: 5000, sweepGraceMs: 60_000 },
    { accessKeyId: 'test-key', secretAccessKey: 'test-secret' },
  )
const part = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 255)
const never = new AbortController().signal
afterAll(() => {
  delete process.env.HTTP_PROXY
  void proxy.stop(true)
})

describe('parts sent when the environment names a proxy', () => {
  test('HTTP_PROXY set: the part and a small object go through it, signed, byte for byte', async () => {
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`
    const s3 = open()
    asked.length = 0
    expect(await s3.sendPart('dir/file.bin', 'up-1', 2, part, never)).toEqual({ n: 2, size: part.byteLength, etag: '"through-the-proxy"' })
    await s3.sendObject('small.bin', part.subarray(0, 10), never)
    expect(asked.map(a => [a.method, a.url])).toEqual([
      ['PUT', `${ENGINE}/b/dir/file.bin?partNumber=2&uploadId=up-1`],
      ['PUT', `${ENGINE}/b/small.bin`],
    ])
    expect(asked[0]!.bytes).toEqual(part)
    expect(asked[1]!.bytes).toEqual(part.subarray(0, 10))
    expect(asked[0]!.authorization).toStartWith('AWS4-HMAC-SHA256 Credential=test-key/')
    delete process.env.HTTP_PROXY
  })

  test('no proxy named: the part goes straight to the engine (which does not answer here): 503 as the store unavailable', async () => {
    const s3 = open()
    asked.length = 0
    await expect(s3.sendPart('k', 'up-1', 1, part, never)).rejects.toThrow("the pod's object store did not store a part")
    expect(asked).toHaveLength(0)
  })
})
