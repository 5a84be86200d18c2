// How many parts of an upload into the bucket are sent at once (store/s3-blob-store.ts PARTS_IN_FLIGHT_OWNED), against
// a local stand-in for the engine that holds each part's answer a moment: a request's body (chunks the pod owns) has
// two parts under way, so the upload does not wait on the engine between parts; any other body (an import's entry)
// one. Either way the object is the body, byte for byte, its parts in order.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openS3BlobStore, PART_SIZE, PARTS_IN_FLIGHT_OWNED } from '../../src/store/s3-blob-store.ts'

/** Parts by upload, kept to compare the assembled object with the body. */
const parts = new Map<number, Uint8Array>()
let sendingNow = 0
let mostAtOnce = 0
let objects: Uint8Array[] = []
const engine = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const url = new URL(req.url)
    if (req.method === 'POST' && url.searchParams.has('uploads')) {
      return new Response('<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>')
    }
    if (req.method === 'PUT' && url.searchParams.has('partNumber')) {
      sendingNow++
      mostAtOnce = Math.max(mostAtOnce, sendingNow)
      const bytes = new Uint8Array(await req.arrayBuffer())
      // Held long enough that a second part, if the pod sends one meanwhile, arrives while this one waits.
      await Bun.sleep(60)
      sendingNow--
      const n = Number(url.searchParams.get('partNumber'))
      parts.set(n, bytes)
      return new Response(null, { headers: { etag: `"etag-${n}"` } })
    }
    if (req.method === 'POST' && url.searchParams.has('uploadId')) {
      const ordered = [...parts.keys()].sort((a, b) => a - b).map(n => parts.get(n)!)
      objects.push(Buffer.concat(ordered))
      return new Response('<CompleteMultipartUploadResult><ETag>"whole"</ETag></CompleteMultipartUploadResult>')
    }
    return new Response('<Error><Code>NotImplemented</Code></Error>', { status: 501 })
  },
})
const dataDir = mkdtempSync(join(tmpdir(), 'solopod-parts-in-flight-'))
afterAll(() => {
  void engine.stop(true)
  rmSync(dataDir, { recursive: true, force: true })
})

const store = openS3BlobStore(
  dataDir,
  { bucket: 'b', prefix: 'pod/', endpoint: `http://127.0.0.1:${engine.port}`, region: 'us-east-1', timeoutMs: 10_000, sweepGraceMs: 60_000 },
  { accessKeyId: 'test-key', secretAccessKey: 'test-secret' },
)

/** Four and a half parts in ~64 KiB chunks, each chunk a new buffer (an owned chunk is emptied once copied). */
const SIZE = 4 * PART_SIZE + PART_SIZE / 2
const byteAt = (i: number) => (i * 131 + (i >>> 13)) & 255
function body(): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= SIZE) return controller.close()
      const chunk = new Uint8Array(Math.min(65_536, SIZE - at))
      for (let i = 0; i < chunk.byteLength; i++) chunk[i] = byteAt(at + i)
      at += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
}
const expected = Uint8Array.from({ length: SIZE }, (_, i) => byteAt(i))

function reset() {
  parts.clear()
  objects = []
  mostAtOnce = 0
}

describe('parts of an upload into the bucket sent at once', () => {
  test(`a request's body (chunks the pod owns): ${PARTS_IN_FLIGHT_OWNED} parts under way, the object byte for byte`, async () => {
    reset()
    const stored = await store.put(body(), { reserveBytes: 0, ownsChunks: true })
    expect(stored.size).toBe(SIZE)
    expect(PARTS_IN_FLIGHT_OWNED).toBeGreaterThan(1)
    expect(mostAtOnce).toBe(PARTS_IN_FLIGHT_OWNED)
    expect([...parts.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])
    expect(objects).toHaveLength(1)
    expect(Buffer.compare(objects[0]!, expected)).toBe(0)
    expect(stored.sha256).toBe(new Bun.CryptoHasher('sha256').update(expected).digest('hex'))
  })

  test("any other body (an import's entry, whose chunks the caller holds): one part at a time, the same object", async () => {
    reset()
    const stored = await store.put(body(), { reserveBytes: 0 })
    expect(stored.size).toBe(SIZE)
    expect(mostAtOnce).toBe(1)
    expect(objects).toHaveLength(1)
    expect(Buffer.compare(objects[0]!, expected)).toBe(0)
  })
})
