// Issue 39's proof at size: a 2 GiB file PUT through the pod into a real Ceph RADOS Gateway (test/s3/ceph-rgw.ts),
// streamed from a generator (never whole in the test's memory or the pod's), with the pod's RSS sampled while it
// goes up and while it comes down (each at most idle + 100 MB); the GET is byte for byte what was sent (SHA-256s
// compared as the bytes stream), and a Range near the end is 206 with the object's own bytes. ~1-2 min.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { cephMissing, type CephRgw } from './ceph-rgw.ts'
import { podOnCeph, startCeph, stopCeph } from './pod-on-ceph.ts'
import type { RunningPod } from '../e2e/start-server.ts'
import { generatedBody, MIB, rssMb, sampleRss, streamedSha256 } from '../e2e/large-bodies.ts'

setDefaultTimeout(600_000)

const missing = cephMissing()
if (missing) console.log(missing)

const SIZE = 2048 * MIB
/** The pod's RSS may grow by this much while the file streams up, and again while it streams down. */
const RSS_GROWTH_MB = 100
const PREFIX = 'big'
let engine: CephRgw
let pod: RunningPod

beforeAll(async () => {
  if (missing) return
  // The OSD holds objects in RAM: room for the file and RGW's own.
  engine = await startCeph({ memstoreBytes: 4 * 1024 ** 3 })
  pod = await podOnCeph(engine, { prefix: PREFIX, extraArgs: ['--log-level', 'warn'] })
}, 120_000)
afterAll(async () => {
  await pod?.dispose()
  await stopCeph(engine)
})

/** The pod's objects in the bucket: id → size. */
async function objects(): Promise<Map<string, number>> {
  const listed = await engine.client.list({ prefix: `${PREFIX}/` })
  return new Map((listed.contents ?? []).map(o => [o.key.slice(PREFIX.length + 1), o.size ?? -1]))
}

/** Runs `work` with the pod's RSS sampled: how far above `idle` it went. */
async function growthDuring(idle: number, what: string, work: () => Promise<void>): Promise<number> {
  const sampler = sampleRss(pod.proc.pid)
  let growth = Number.NaN
  try {
    await work()
  } finally {
    growth = sampler.stop() - idle
    console.log(`2 GiB ${what} through Ceph RGW: the pod's RSS grew by ${growth.toFixed(0)} MB (idle ${idle.toFixed(0)} MB)`)
  }
  return growth
}

describe.skipIf(missing !== undefined)('issue 39: a 2 GiB file in Ceph RGW', () => {
  test("goes up streamed and comes back byte for byte (whole, and a Range near the end: 206), the pod's RSS at most idle + 100 MB each way", async () => {
    // The pod settles after its start (the memory reclaimer's first collections) before idle is read.
    await Bun.sleep(2000)
    const idle = rssMb(pod.proc.pid)
    const body = generatedBody(SIZE)
    const before = await objects()
    const upGrowth = await growthDuring(idle, 'upload', async () => {
      const res = await fetch(`${pod.baseUrl}/files/film.bin`, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: body.stream })
      expect(res.status).toBe(201)
    })
    // One new object, of the file's size: stored whole (multipart) before the record named it.
    const added = [...(await objects())].filter(([id]) => !before.has(id))
    expect(added).toEqual([[expect.any(String), SIZE]])
    const id = added[0]![0]

    const head = await fetch(`${pod.baseUrl}/files/film.bin`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(SIZE))

    const downGrowth = await growthDuring(idle, 'download', async () => {
      const res = await fetch(`${pod.baseUrl}/files/film.bin`)
      expect(res.status).toBe(200)
      expect(await streamedSha256(res.body)).toEqual({ sha256: await body.sha256, size: SIZE })
    })

    // The last 3 MiB and a few bytes, against the object's own bytes read from the bucket behind the pod's back.
    const [from, to] = [SIZE - 3 * MIB - 11, SIZE - 1]
    const ranged = await fetch(`${pod.baseUrl}/files/film.bin`, { headers: { range: `bytes=${from}-${to}` } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes ${from}-${to}/${SIZE}`)
    const got = new Uint8Array(await ranged.arrayBuffer())
    expect(got.byteLength).toBe(to - from + 1)
    const straight = new Uint8Array(
      await engine.client
        .file(`${PREFIX}/${id}`)
        .slice(from, to + 1)
        .arrayBuffer(),
    )
    expect(Bun.hash(got)).toBe(Bun.hash(straight))

    expect(upGrowth).toBeLessThanOrEqual(RSS_GROWTH_MB)
    expect(downGrowth).toBeLessThanOrEqual(RSS_GROWTH_MB)
  })
})
