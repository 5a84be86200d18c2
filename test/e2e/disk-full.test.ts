// A full disk over real HTTP: the pod runs on a small tmpfs of its own; uploads that do not fit are refused with 507
// and nothing stored before is lost. Mounting needs root (as in CI); elsewhere the test says why it is skipped.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { expectRsError } from '../rs/rs-helpers.ts'

const isRoot = process.getuid?.() === 0
if (!isRoot) console.warn('disk-full.test.ts: skipped, mounting a small tmpfs needs root')

const MOUNT_MB = 12
let mount: string
let pod: RunningPod
beforeAll(async () => {
  if (!isRoot) return
  mount = mkdtempSync(join(tmpdir(), 'solopod-small-disk-'))
  const done = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${MOUNT_MB}m`, 'tmpfs', mount])
  if (done.exitCode !== 0) throw new Error(`mount failed: ${done.stderr.toString()}`)
  pod = await startPod({
    dataDir: join(mount, 'data'),
    extraArgs: ['--disk-reserve-bytes', String(1024 * 1024)],
    seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write']),
  })
})
afterAll(async () => {
  if (!isRoot) return
  await pod?.stop()
  Bun.spawnSync(['umount', mount])
  rmSync(mount, { recursive: true, force: true })
})

const blobFiles = () => readdirSync(join(pod.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter(e => e.isFile()).length
const put = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...headers }, body })

/** A body of `mb` MiB that announces no length: the pod learns it is too big only as it arrives. */
function chunked(mb: number): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(c) {
      if (sent++ >= mb * 4) return c.close()
      c.enqueue(randomBytes(256 * 1024))
    },
  })
}

describe.skipIf(!isRoot)('a full disk', () => {
  const first = randomBytes(2 * 1024 * 1024)

  test('a file that fits is stored', async () => {
    expect((await put('/pub/photo%20one.jpg', first)).status).toBe(201)
  })

  test('an announced length past the reserve → 507 insufficient_storage before a byte is written; the old version stays', async () => {
    const files = blobFiles()
    const res = await put('/pub/photo%20one.jpg', randomBytes(MOUNT_MB * 1024 * 1024))
    await expectRsError(res, 507, 'insufficient_storage')
    expect(blobFiles()).toBe(files)
    expect(Buffer.from(await (await fetch(`${pod.baseUrl}/pub/photo%20one.jpg`)).arrayBuffer()).equals(first)).toBe(true)
  })

  test('a disk that fills up mid-upload → 507, the partial file is removed, nothing stored before is lost', async () => {
    const files = blobFiles()
    const res = await put('/pub/photo%20one.jpg', chunked(MOUNT_MB * 2)).catch((err: unknown) => err)
    // The pod answers while the client is still sending: either the 507 arrives, or the connection closes under the upload.
    if (res instanceof Response) await expectRsError(res, 507, 'insufficient_storage')
    expect(blobFiles()).toBe(files)
    expect(Buffer.from(await (await fetch(`${pod.baseUrl}/pub/photo%20one.jpg`)).arrayBuffer()).equals(first)).toBe(true)
    // and the pod goes on: a small document and a small file are still written
    expect((await put('/pub/note.ttl', '<#a> <#b> "ok".', { 'content-type': 'text/turtle' })).status).toBe(201)
    expect((await put('/pub/small.bin', randomBytes(1000))).status).toBe(201)
  })

  test('after a restart the pod serves what it had', async () => {
    await pod.restart()
    expect(Buffer.from(await (await fetch(`${pod.baseUrl}/pub/photo%20one.jpg`)).arrayBuffer()).equals(first)).toBe(true)
    expect((await fetch(`${pod.baseUrl}/pub/note.ttl`)).status).toBe(200)
  })
})
