// Issue 39: the dashboard's backup and `solopod import` of it, for a pod whose bytes are in a real Ceph RADOS Gateway
// (test/s3/ceph-rgw.ts), with a 200 MiB file: the backup reads the object from the bucket into the archive as it is
// sent and the import streams it from the archive into the bucket, neither holding it in memory (RSS sampled) nor
// copying it to the local disk first (the folders they work in sampled); the restored pod serves it byte for byte.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cephMissing, type CephRgw } from './ceph-rgw.ts'
import { podOnCeph, s3Args, startCeph, stopCeph } from './pod-on-ceph.ts'
import { finishSolopod, freePort, spawnSolopod, startPod, type RunningPod } from '../e2e/start-server.ts'
import { FORM, form } from '../op/op-fixture.ts'
import { ownerSignedIn } from '../e2e/owner-login.ts'
import { generatedBody, MIB, rssMb, sampleRss, streamedSha256 } from '../e2e/large-bodies.ts'

setDefaultTimeout(600_000)

const missing = cephMissing()
if (missing) console.log(missing)

const SIZE = 200 * MIB
/** Growth allowed over idle (the pod) or over the same import without the file (the command). */
const RSS_GROWTH_MB = 100
/** What the working folders may hold meanwhile: the export's other files, never the file (200 MiB). */
const STAGED_MAX_BYTES = 16 * MIB
const FROM = 'backup-from'
const TO = 'backup-to'
const work = mkdtempSync(join(tmpdir(), 'solopod-s3-backup-'))
let engine: CephRgw
let pod: RunningPod

const flagsFor = (prefix: string) => s3Args(engine, prefix)

beforeAll(async () => {
  if (missing) return
  engine = await startCeph()
  pod = await podOnCeph(engine, { prefix: FROM })
}, 120_000)
afterAll(async () => {
  await pod?.dispose()
  await stopCeph(engine)
  rmSync(work, { recursive: true, force: true })
})

/** Bytes of the files below `dir` (0 when it is not there). */
function bytesBelow(dir: string): number {
  let total = 0
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return 0
  }
  for (const entry of entries) {
    try {
      const st = statSync(join(dir, entry))
      total += st.isDirectory() ? bytesBelow(join(dir, entry)) : st.size
    } catch {
      /* gone meanwhile */
    }
  }
  return total
}

/** The most `dir` held while `work` ran, sampled every 20 ms. */
async function stagedDuring<T>(dir: string, work: () => Promise<T>): Promise<{ result: T; stagedBytes: number }> {
  let most = 0
  const timer = setInterval(() => {
    most = Math.max(most, bytesBelow(dir))
  }, 20)
  try {
    const result = await work()
    return { result, stagedBytes: most }
  } finally {
    clearInterval(timer)
  }
}

/** The dashboard's backup, saved to `file`: the pod's RSS growth over `idle` and what its `tmp/` held meanwhile. */
async function backupTo(file: string, idle: number) {
  const owner = await ownerSignedIn(pod)
  const page = await owner.take(await fetch(`${pod.baseUrl}/.admin/`, { headers: { cookie: owner.header() } })).text()
  const csrf = /data-csrf="([^"]+)"/.exec(page)![1]!
  const sampler = sampleRss(pod.proc.pid)
  const { stagedBytes } = await stagedDuring(join(pod.dataDir, 'tmp'), async () => {
    const res = await fetch(`${pod.baseUrl}/.admin/backup`, {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: pod.baseUrl },
      body: form({ csrf }),
    })
    expect(res.status).toBe(200)
    await Bun.write(file, res)
  })
  return { growthMb: sampler.stop() - idle, stagedBytes }
}

/** `solopod import` of `archive` into a new data directory below `parent` (its objects under `prefix`); its peak RSS and what `parent` held. */
async function importSampled(archive: string, parent: string, prefix: string, port: number) {
  mkdirSync(parent)
  const dataDir = join(parent, 'pod')
  const { result, stagedBytes } = await stagedDuring(parent, async () => {
    const proc = spawnSolopod('import', archive, '--data', dataDir, '--base-url', `http://localhost:${port}`, ...flagsFor(prefix))
    const sampler = sampleRss(proc.pid, 10)
    const done = await finishSolopod(proc)
    return { ...done, peakMb: sampler.stop() }
  })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return { dataDir, peakMb: result.peakMb, stagedBytes }
}

describe.skipIf(missing !== undefined)('issue 39: backup and import of a 200 MiB file in Ceph RGW', () => {
  test('the backup streams it from the bucket and the import into another prefix, each within 100 MB of RSS and without a local copy; it comes back byte for byte', async () => {
    // A baseline of both with the pod's small files only: the import command's RSS without the file.
    const small = await backupTo(join(work, 'small.tar.gz'), rssMb(pod.proc.pid))
    const baseline = await importSampled(join(work, 'small.tar.gz'), join(work, 'small'), 'backup-small', await freePort())

    const body = generatedBody(SIZE)
    const put = await fetch(`${pod.baseUrl}/files/film.bin`, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: body.stream })
    expect(put.status).toBe(201)
    // Idle once the pod's reclaimer has collected the upload's garbage (lib/memory-reclaimer.ts).
    await Bun.sleep(4500)
    const backup = await backupTo(join(work, 'big.tar.gz'), rssMb(pod.proc.pid))
    console.log(
      `backup of 200 MiB from Ceph: the pod's RSS grew by ${backup.growthMb.toFixed(0)} MB, its tmp/ held at most ${(backup.stagedBytes / MIB).toFixed(1)} MiB (small backup: ${(small.stagedBytes / MIB).toFixed(1)} MiB)`,
    )
    expect(statSync(join(work, 'big.tar.gz')).size).toBeGreaterThan(SIZE)

    const port = await freePort()
    const imported = await importSampled(join(work, 'big.tar.gz'), join(work, 'big'), TO, port)
    console.log(
      `import of 200 MiB into Ceph: peak RSS ${imported.peakMb.toFixed(0)} MB (without the file ${baseline.peakMb.toFixed(0)} MB), beside the data directory at most ${(imported.stagedBytes / MIB).toFixed(1)} MiB`,
    )
    const objects = (await engine.client.list({ prefix: `${TO}/` })).contents ?? []
    expect(objects.map(o => o.size)).toContain(SIZE)

    const restored = await startPod({ dataDir: imported.dataDir, port, extraArgs: flagsFor(TO) })
    try {
      const res = await fetch(`${restored.baseUrl}/files/film.bin`)
      expect(res.status).toBe(200)
      expect(await streamedSha256(res.body)).toEqual({ sha256: await body.sha256, size: SIZE })
    } finally {
      await restored.dispose()
    }

    expect(backup.growthMb).toBeLessThanOrEqual(RSS_GROWTH_MB)
    expect(backup.stagedBytes).toBeLessThan(STAGED_MAX_BYTES)
    expect(imported.peakMb - baseline.peakMb).toBeLessThanOrEqual(RSS_GROWTH_MB)
    expect(imported.stagedBytes).toBeLessThan(STAGED_MAX_BYTES)
  })
})
