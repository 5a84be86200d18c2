// How many parts of an upload into the bucket are sent at once (store/s3-blob-store.ts PARTS_IN_FLIGHT_OWNED), against
// a local stand-in for the engine that holds each part's answer a moment: a request's body (chunks the pod owns) has
// two parts under way, so the upload does not wait on the engine between parts, while the store's slots for a second
// part last (SECOND_PARTS_AT_ONCE); any other body (an import's entry) one. Either way the object is the body, byte
// for byte, its parts in order.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openS3BlobStore, PART_SIZE, PARTS_IN_FLIGHT_OWNED, SECOND_PARTS_AT_ONCE } from '../../src/store/s3-blob-store.ts'

/** By object key: its parts, the parts being sent now and the most at once, and the object once completed. */
interface Upload {
  readonly parts: Map<number, Uint8Array>
  sendingNow: number
  mostAtOnce: number
  object?: Uint8Array
}
const uploads = new Map<string, Upload>()
/** The most uploads seen sending two parts at the same moment. */
let mostUploadsSendingTwo = 0
const uploadOf = (key: string) => uploads.get(key) ?? uploads.set(key, { parts: new Map(), sendingNow: 0, mostAtOnce: 0 }).get(key)!
const engine = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const url = new URL(req.url)
    const up = uploadOf(url.pathname)
    if (req.method === 'POST' && url.searchParams.has('uploads')) {
      return new Response('<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>')
    }
    if (req.method === 'PUT' && url.searchParams.has('partNumber')) {
      up.sendingNow++
      up.mostAtOnce = Math.max(up.mostAtOnce, up.sendingNow)
      const twoAtOnce = [...uploads.values()].filter(u => u.sendingNow >= 2).length
      mostUploadsSendingTwo = Math.max(mostUploadsSendingTwo, twoAtOnce)
      const bytes = new Uint8Array(await req.arrayBuffer())
      // Held long enough that a second part, if the pod sends one meanwhile, arrives while this one waits.
      await Bun.sleep(60)
      up.sendingNow--
      const n = Number(url.searchParams.get('partNumber'))
      up.parts.set(n, bytes)
      return new Response(null, { headers: { etag: `"etag-${n}"` } })
    }
    if (req.method === 'POST' && url.searchParams.has('uploadId')) {
      up.object = Buffer.concat([...up.parts.keys()].sort((a, b) => a - b).map(n => up.parts.get(n)!))
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

/** The one upload the stand-in saw since the last call (the store names each object by a new id). */
function onlyUpload(): Upload {
  expect(uploads.size).toBe(1)
  const [up] = uploads.values()
  uploads.clear()
  return up!
}

describe('parts of an upload into the bucket sent at once', () => {
  test(`a request's body (chunks the pod owns): ${PARTS_IN_FLIGHT_OWNED} parts under way, the object byte for byte`, async () => {
    uploads.clear()
    const stored = await store.put(body(), { reserveBytes: 0, ownsChunks: true })
    expect(stored.size).toBe(SIZE)
    const up = onlyUpload()
    expect(PARTS_IN_FLIGHT_OWNED).toBeGreaterThan(1)
    expect(up.mostAtOnce).toBe(PARTS_IN_FLIGHT_OWNED)
    expect([...up.parts.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])
    expect(Buffer.compare(up.object!, expected)).toBe(0)
    expect(stored.sha256).toBe(new Bun.CryptoHasher('sha256').update(expected).digest('hex'))
  })

  test("any other body (an import's entry, whose chunks the caller holds): one part at a time, the same object", async () => {
    uploads.clear()
    const stored = await store.put(body(), { reserveBytes: 0 })
    expect(stored.size).toBe(SIZE)
    const up = onlyUpload()
    expect(up.mostAtOnce).toBe(1)
    expect(Buffer.compare(up.object!, expected)).toBe(0)
  })

  test(`many uploads at once: at most ${SECOND_PARTS_AT_ONCE} of them send a second part at the same moment; the slots come back when they end`, async () => {
    uploads.clear()
    mostUploadsSendingTwo = 0
    const at = SECOND_PARTS_AT_ONCE + 3
    const stored = await Promise.all(Array.from({ length: at }, () => store.put(body(), { reserveBytes: 0, ownsChunks: true })))
    expect(stored.map(s => s.size)).toEqual(Array(at).fill(SIZE))
    const all = [...uploads.values()]
    expect(all).toHaveLength(at)
    expect(mostUploadsSendingTwo).toBe(SECOND_PARTS_AT_ONCE)
    expect(all.every(up => up.mostAtOnce <= PARTS_IN_FLIGHT_OWNED)).toBe(true)
    for (const up of all) expect(Buffer.compare(up.object!, expected)).toBe(0)
    uploads.clear()
    // Every slot is back: the uploads that follow, as many as there are slots, each send two parts at once again.
    await Promise.all(Array.from({ length: SECOND_PARTS_AT_ONCE }, () => store.put(body(), { reserveBytes: 0, ownsChunks: true })))
    expect([...uploads.values()].map(up => up.mostAtOnce)).toEqual(Array(SECOND_PARTS_AT_ONCE).fill(PARTS_IN_FLIGHT_OWNED))
  })
})
