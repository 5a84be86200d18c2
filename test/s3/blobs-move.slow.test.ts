// Issue 39: `solopod blobs move` on a pod with 1,000 files, against a real Ceph RADOS Gateway (test/s3/ceph-rgw.ts):
// local → bucket and back while the pod serves (reads and writes during the move, nothing lost, every GET byte for
// byte), a move whose server is killed midway and run again, the refusals, `blobs check` clean after.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { cephMissing, type CephRgw } from './ceph-rgw.ts'
import { s3Args, startCeph, stopCeph } from './pod-on-ceph.ts'
import { runSolopod, spawnSolopod, finishSolopod, startPod, type RunningPod } from '../e2e/start-server.ts'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { MIB } from '../e2e/large-bodies.ts'

setDefaultTimeout(600_000)

const missing = cephMissing()
if (missing) console.log(missing)

let engine: CephRgw

beforeAll(async () => {
  if (missing) return
  engine = await startCeph()
}, 120_000)
afterAll(() => stopCeph(engine))

const toS3 = (prefix: string) => ['--to', `s3://${engine.bucket}/${prefix}`, '--s3-endpoint', engine.endpoint]

/** Bytes of file `i`: mostly small and of many sizes, every 200th a few MiB (over a multipart part). */
function bytesOf(i: number, salt = 0): Uint8Array {
  const size = i % 200 === 7 ? 3 * MIB + i * 1000 : (i * 37) % 5000
  const bytes = new Uint8Array(size)
  for (let k = 0; k < size; k += 4096) bytes[k] = (i + k + salt) & 0xff
  if (size > 0) bytes[size - 1] = (i * 13 + salt) & 0xff
  return bytes
}

const put = (pod: RunningPod, path: string, body: Uint8Array) =>
  fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: body as unknown as BodyInit })

/** The files the pod holds, by path, as the test wrote them. */
type Written = Map<string, Uint8Array>

async function writeMany(pod: RunningPod, count: number): Promise<Written> {
  const written: Written = new Map()
  for (let from = 0; from < count; from += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, count - from) }, async (_, k) => {
        const i = from + k
        const path = `/files/f${i}.bin`
        const bytes = bytesOf(i)
        const res = await put(pod, path, bytes)
        expect(res.status).toBe(201)
        written.set(path, bytes)
      }),
    )
  }
  return written
}

async function expectAllServed(pod: RunningPod, written: Written): Promise<void> {
  const entries = [...written]
  for (let from = 0; from < entries.length; from += 25) {
    await Promise.all(
      entries.slice(from, from + 25).map(async ([path, bytes]) => {
        const res = await fetch(pod.baseUrl + path)
        expect(res.status, path).toBe(200)
        const got = new Uint8Array(await res.arrayBuffer())
        expect(got.byteLength, path).toBe(bytes.byteLength)
        expect(Bun.hash(got), path).toBe(Bun.hash(bytes))
      }),
    )
  }
}

/** Reads and writes against the pod until `done` resolves: every one must succeed. */
async function busyDuring(pod: RunningPod, written: Written, done: Promise<unknown>, tag: string): Promise<{ reads: number; writes: number }> {
  let finished = false
  void done.finally(() => {
    finished = true
  })
  const paths = [...written.keys()]
  let reads = 0
  let writes = 0
  while (!finished) {
    const path = paths[(reads * 7919) % paths.length]!
    const res = await fetch(pod.baseUrl + path)
    expect(res.status, path).toBe(200)
    expect(Bun.hash(new Uint8Array(await res.arrayBuffer())), path).toBe(Bun.hash(written.get(path)!))
    reads++
    if (reads % 5 === 0) {
      const newPath = `/files/during-${tag}-${writes}.bin`
      const bytes = bytesOf(writes + 1, 99)
      const res = await put(pod, newPath, bytes)
      if (res.status !== 201)
        console.log(
          tag,
          pod
            .stdout()
            .split('\n')
            .filter(l => /"level":"(error|warn)"/.test(l))
            .slice(-3),
        )
      expect(res.status).toBe(201)
      written.set(newPath, bytes)
      writes++
    }
  }
  return { reads, writes }
}

const localBlobs = (dataDir: string) =>
  existsSync(join(dataDir, 'files'))
    ? readdirSync(join(dataDir, 'files'), { withFileTypes: true })
        .filter(d => d.isDirectory())
        .flatMap(d => readdirSync(join(dataDir, 'files', d.name)))
    : []

async function objectCount(prefix: string): Promise<number> {
  let n = 0
  let token: string | undefined
  do {
    const page = await engine.client.list({ prefix: `${prefix}/`, maxKeys: 1000, ...(token ? { continuationToken: token } : {}) })
    n += page.contents?.length ?? 0
    token = page.isTruncated ? page.nextContinuationToken : undefined
  } while (token)
  return n
}

const SUMMARY = /^moved (\d+) files, [\d.]+ MB, verified\n$/

describe.skipIf(missing !== undefined)('issue 39: solopod blobs move, against Ceph RGW', () => {
  let pod: RunningPod | undefined
  afterAll(async () => {
    await pod?.dispose()
  })

  test('1,000 files go from the data directory to the bucket and back while the pod serves; every GET byte for byte, blobs check clean', async () => {
    pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']), extraArgs: ['--keep-versions-days', '0'] })
    const written = await writeMany(pod, 1000)
    expect(localBlobs(pod.dataDir).length).toBeGreaterThanOrEqual(1000)

    const move = spawnSolopod('blobs', 'move', '--data', pod.dataDir, ...toS3('moved'))
    const finished = finishSolopod(move)
    const busy = await busyDuring(pod, written, finished, 'up')
    const out = await finished
    expect(out.stderr).not.toContain(engine.secretAccessKey)
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toMatch(SUMMARY)
    expect(busy.writes).toBeGreaterThan(0)
    // Every file, those written during the move too, is served, and the bytes are in the bucket alone.
    await expectAllServed(pod, written)
    expect(localBlobs(pod.dataDir)).toEqual([])
    expect(await objectCount('moved')).toBe(written.size)
    expect(pod.stdout()).not.toContain(engine.secretAccessKey)

    // Restarted, the pod needs the flags naming where its bytes are now.
    await pod.stop()
    const stale = await runSolopod('blobs', 'check', '--data', pod.dataDir)
    expect(stale.code).toBe(2)
    expect(stale.stderr).toContain(`this pod's files were moved to s3://${engine.bucket}/moved/`)
    const check = await runSolopod('blobs', 'check', '--data', pod.dataDir, ...s3Args(engine, 'moved'))
    expect(check.stdout).toContain('solopod: all blobs are in order')
    const port = pod.port
    pod = await startPod({ dataDir: pod.dataDir, port, extraArgs: ['--keep-versions-days', '0', ...s3Args(engine, 'moved')] })

    const back = spawnSolopod('blobs', 'move', '--data', pod.dataDir, '--to', 'local')
    const backDone = finishSolopod(back)
    await busyDuring(pod, written, backDone, 'down')
    const backOut = await backDone
    expect(backOut.code, backOut.stderr).toBe(0)
    expect(backOut.stdout).toMatch(SUMMARY)
    await expectAllServed(pod, written)
    expect(await objectCount('moved')).toBe(0)
    expect(localBlobs(pod.dataDir).length).toBe(written.size)

    // Asked again: nothing to move.
    const again = await runSolopod('blobs', 'move', '--data', pod.dataDir, '--to', 'local')
    expect(again.code).toBe(0)
    expect(again.stdout).toContain("the pod's files are already in the data directory")

    await pod.stop()
    const local = await runSolopod('blobs', 'check', '--data', pod.dataDir)
    expect(local.stdout).toContain('solopod: all blobs are in order')
  })

  test('a move whose server is killed midway is run again and finishes: nothing lost, blobs check clean', async () => {
    const killed = await startPod({
      seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']),
      extraArgs: ['--keep-versions-days', '0'],
    })
    try {
      const written = await writeMany(killed, 1000)
      const move = spawnSolopod('blobs', 'move', '--data', killed.dataDir, ...toS3('killed'))
      const moveDone = finishSolopod(move)
      const deadline = Date.now() + 60_000
      while ((await objectCount('killed')) < 200 && Date.now() < deadline) await Bun.sleep(50)
      await killed.stop('SIGKILL')
      const cut = await moveDone
      expect(cut.code).toBe(2)
      const copiedBefore = await objectCount('killed')
      expect(copiedBefore).toBeGreaterThan(0)
      expect(copiedBefore).toBeLessThan(1000)

      // Half moved, the pod starts with its old flags (or the new ones) and serves everything from both stores.
      await killed.restart()
      await expectAllServed(killed, written)
      const file = `/files/after-kill.bin`
      expect((await put(killed, file, bytesOf(5, 7))).status).toBe(201)
      written.set(file, bytesOf(5, 7))

      const resumed = await runSolopod('blobs', 'move', '--data', killed.dataDir, ...toS3('killed'))
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stderr).toContain('resuming the move')
      const moved = Number(SUMMARY.exec(resumed.stdout)?.[1])
      expect(moved).toBeLessThan(1000)
      await expectAllServed(killed, written)
      expect(await objectCount('killed')).toBe(written.size)
      expect(localBlobs(killed.dataDir)).toEqual([])
      await killed.stop()
      const check = await runSolopod('blobs', 'check', '--data', killed.dataDir, ...s3Args(engine, 'killed'))
      expect(check.stdout).toContain('solopod: all blobs are in order')
    } finally {
      await killed.dispose()
    }
  })

  test('a stopped pod is moved by the command itself', async () => {
    const stopped = await startPod({
      seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']),
      extraArgs: ['--keep-versions-days', '0'],
    })
    try {
      const written = await writeMany(stopped, 40)
      await stopped.stop()
      const out = await runSolopod('blobs', 'move', '--data', stopped.dataDir, ...toS3('stopped'))
      expect(out.code, out.stderr).toBe(0)
      expect(out.stdout).toBe('moved 40 files, ' + SUMMARY.exec(out.stdout)![0].split(', ')[1] + ', verified\n')
      expect(localBlobs(stopped.dataDir)).toEqual([])
      const again = await startPod({ dataDir: stopped.dataDir, port: stopped.port, extraArgs: ['--keep-versions-days', '0', ...s3Args(engine, 'stopped')] })
      try {
        await expectAllServed(again, written)
      } finally {
        await again.stop()
      }
    } finally {
      await stopped.dispose()
    }
  })

  describe('refusals: one sentence, exit 2', () => {
    let idle: RunningPod
    beforeAll(async () => {
      idle = await startPod()
    })
    afterAll(async () => {
      await idle?.dispose()
    })
    test.each([
      ['a --to that is no store', ['--to', 'ftp://x'], '--to must be local or s3://BUCKET[/prefix], got "ftp://x"'],
      ['an S3 --to without its endpoint', ['--to', 's3://bucket-x'], '--to s3://… needs --s3-endpoint URL'],
      ['no --to', [], 'blobs move needs --to local or --to s3://BUCKET[/prefix] --s3-endpoint URL'],
    ])('%s', async (_, args, sentence) => {
      const out = await runSolopod('blobs', 'move', '--data', idle.dataDir, ...args)
      expect(out.code).toBe(2)
      expect(out.stderr).toContain(sentence)
      expect(out.stderr.trim().split('\n')).toHaveLength(1)
    })

    test('a bucket nobody answers for', async () => {
      const out = await runSolopod(
        'blobs',
        'move',
        '--data',
        idle.dataDir,
        '--to',
        `s3://${engine.bucket}/x`,
        '--s3-endpoint',
        'http://127.0.0.1:9',
        '--s3-timeout-seconds',
        '2',
      )
      expect(out.code).toBe(2)
      expect(out.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^solopod: cannot move the files there: the object store s3:\/\/.* is unavailable \(.+\)$/),
      ])
    })

    test('wrong keys', async () => {
      const proc = Bun.spawn(
        [process.execPath, join(import.meta.dir, '..', '..', 'src', 'main.ts'), 'blobs', 'move', '--data', idle.dataDir, ...toS3('x'), '--log-level', 'warn'],
        { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, AWS_SECRET_ACCESS_KEY: 'not-the-secret-at-all-0000000000000000000' } },
      )
      const out = await finishSolopod(proc)
      expect(out.code).toBe(2)
      expect(out.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^solopod: cannot move the files there: the object store s3:\/\/.* is unavailable \((SignatureDoesNotMatch|AccessDenied|InvalidAccessKeyId)\)$/,
        ),
      ])
      expect(out.stderr).not.toContain('not-the-secret')
      expect(idle.stdout()).not.toContain('not-the-secret')
    })

    test('no keys for an S3 target', async () => {
      const proc = Bun.spawn(
        [process.execPath, join(import.meta.dir, '..', '..', 'src', 'main.ts'), 'blobs', 'move', '--data', idle.dataDir, ...toS3('x'), '--log-level', 'warn'],
        { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' } },
      )
      const out = await finishSolopod(proc)
      expect(out.code).toBe(2)
      expect(out.stderr.trim()).toBe(`solopod: --to s3://${engine.bucket} needs the bucket's keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`)
    })
  })
})
