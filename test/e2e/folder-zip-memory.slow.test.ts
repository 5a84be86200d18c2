// A 1 GiB folder zipped through a share link (issues 38 and 40): the pod's resident memory stays flat while the
// zip streams — each file goes from its stored file to the socket, never whole — and the archive has exactly the
// length client-zip predicts for those files (stored, so their bytes and headers only).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { predictLength } from 'client-zip'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { ownerScript } from './owner-script.ts'
import { generatedBody, MIB, rssMb, sampleRss, streamedSha256 } from './large-bodies.ts'

setDefaultTimeout(300_000)

/** Growth allowed over the idle pod: holding the folder, or even one of its files whole, would be 1 GiB or 128 MiB. */
const RSS_GROWTH_MB = 100
const FILES = 8
const FILE_BYTES = 128 * MIB
const NEEDS_BYTES = 2 * FILES * FILE_BYTES
const free = (() => {
  const s = statfsSync(tmpdir())
  return s.bavail * s.bsize
})()
const enoughDisk = free >= NEEDS_BYTES
if (!enoughDisk) console.warn(`folder-zip-memory.slow.test.ts: skipped, ${tmpdir()} has ${Math.round(free / MIB)} MiB free`)

let pod: RunningPod
beforeAll(async () => {
  if (!enoughDisk) return
  pod = await startPod()
  const send = await ownerScript(pod)
  for (let i = 0; i < FILES; i++) {
    const res = await send('PUT', `/big/part-${i}.bin`, generatedBody(FILE_BYTES, { hashed: false }).stream, { 'content-type': 'application/octet-stream' })
    expect(res.status).toBe(201)
  }
}, 300_000)
afterAll(async () => {
  await pod?.dispose()
})

describe.skipIf(!enoughDisk)('a 1 GiB folder as one zip', () => {
  test("streams with the pod's RSS within 100 MB of idle, the whole archive sent", async () => {
    const r = await runSolopod('links', 'add', '/big/', '--data', pod.dataDir)
    expect(r.code).toBe(0)
    const url = r.stdout.split('\n')[1]!.slice('url='.length)
    const idle = rssMb(pod.proc.pid)
    const sampler = sampleRss(pod.proc.pid)
    let peak = idle
    let sent = { size: 0 }
    try {
      const res = await fetch(`${url}?download=zip`)
      expect(res.status).toBe(200)
      sent = await streamedSha256(res.body)
    } finally {
      peak = sampler.stop()
    }
    const expected = predictLength(Array.from({ length: FILES }, (_, i) => ({ name: `part-${i}.bin`, size: FILE_BYTES })))
    expect(sent.size).toBe(Number(expected))
    console.info(`folder zip: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`)
    expect(peak - idle).toBeLessThan(RSS_GROWTH_MB)
  })
})
