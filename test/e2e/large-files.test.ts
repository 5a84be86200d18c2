// Large files over real HTTP (issue 22 "Files"): a 2 GiB body and five concurrent 200 MiB ones go to disk and
// come back byte for byte while the pod's resident memory stays flat. Disk-bound: ~20-40 s on 2 cores.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { generatedBody, MIB, rssMb, sampleRss, streamedSha256 } from './large-bodies.ts'

setDefaultTimeout(300_000)

/** The pod's RSS may grow by this much while it streams files: a body held whole would be 200 MiB at least. */
const RSS_GROWTH_MB = 100
/** The 2 GiB file, five 200 MiB ones, the disk reserve (256 MiB) and room for a neighbour's work. */
const NEEDS_BYTES = 6 * 1024 * MIB
const free = (() => {
  const s = statfsSync(tmpdir())
  return s.bavail * s.bsize
})()
const enoughDisk = free >= NEEDS_BYTES
if (!enoughDisk) console.warn(`large-files.test.ts: skipped, ${tmpdir()} has ${Math.round(free / MIB)} MiB free, the test needs ${NEEDS_BYTES / MIB}`)

let pod: RunningPod
beforeAll(async () => {
  if (!enoughDisk) return
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/films/', ['Read', 'Write']) })
}, 60_000)
afterAll(() => pod?.dispose())

const put = (path: string, body: ReadableStream<Uint8Array>) => fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body })

async function readBack(path: string) {
  const res = await fetch(pod.baseUrl + path)
  expect(res.status).toBe(200)
  return { length: Number(res.headers.get('content-length')), ...(await streamedSha256(res.body)) }
}

/** Runs `work` while sampling the pod's RSS; the growth over its RSS just before (MB). */
async function rssGrowthDuring(work: () => Promise<void>): Promise<number> {
  const idle = rssMb(pod.proc.pid)
  const sampler = sampleRss(pod.proc.pid)
  let peak = idle
  try {
    await work()
  } finally {
    peak = sampler.stop()
  }
  return peak - idle
}

describe.skipIf(!enoughDisk)('issue 22: files larger than memory', () => {
  test("a 2 GiB upload streams to disk: the pod's RSS grows by less than 100 MB and the GET has the same SHA-256", async () => {
    const size = 2048 * MIB
    const body = generatedBody(size)
    const growth = await rssGrowthDuring(async () => {
      expect((await put('/films/two-gib.mp4', body.stream)).status).toBe(201)
    })
    expect(growth).toBeLessThan(RSS_GROWTH_MB)
    const back = await readBack('/films/two-gib.mp4')
    expect(back.length).toBe(size)
    expect(back.size).toBe(size)
    expect(back.sha256).toBe(await body.sha256)
    expect((await fetch(pod.baseUrl + '/films/two-gib.mp4', { method: 'DELETE' })).status).toBe(204)
  })

  test('five concurrent 200 MiB uploads: RSS grows by less than 100 MB and each reads back as sent', async () => {
    const size = 200 * MIB
    const bodies = Array.from({ length: 5 }, () => generatedBody(size))
    const growth = await rssGrowthDuring(async () => {
      const statuses = await Promise.all(bodies.map((b, i) => put(`/films/part-${i}.mp4`, b.stream).then(r => r.status)))
      expect(statuses).toEqual([201, 201, 201, 201, 201])
    })
    expect(growth).toBeLessThan(RSS_GROWTH_MB)
    for (const [i, b] of bodies.entries()) {
      const back = await readBack(`/films/part-${i}.mp4`)
      expect(back.size).toBe(size)
      expect(back.sha256).toBe(await b.sha256)
    }
  })
})
