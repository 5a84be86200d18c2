// Issue 39: resumable uploads into the bucket, assembled from multipart parts of a real Ceph RADOS Gateway
// (test/s3/ceph-rgw.ts) without the file ever whole on the local disk: cut midway and completed after a restart, the
// engine stopped mid-part (503, nothing lost, resumed), a cancelled or abandoned upload aborted, a signed append
// held locally until checked, bytes past the record kept, byte-identical GET and the right Repr-Digest.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cephMissing, type CephRgw } from './ceph-rgw.ts'
import { podOnCeph, startCeph, stopCeph } from './pod-on-ceph.ts'
import type { RunningPod } from '../e2e/start-server.ts'
import { openS3BlobStore, PART_SIZE } from '../../src/store/s3-blob-store.ts'
import { openS3Multipart } from '../../src/store/s3-multipart.ts'
import type { S3BlobConfig } from '../../src/config.ts'
import type { BlobStore } from '../../src/store/blob-store.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'

setDefaultTimeout(120_000)

const missing = cephMissing()
if (missing) console.log(missing)

const PREFIX = 'pod-resume'
const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const MIB = 1024 * 1024
let engine: CephRgw
let pod: RunningPod
let cfg: S3BlobConfig
let keyFile: string

beforeAll(async () => {
  if (missing) return
  engine = await startCeph()
  cfg = { bucket: engine.bucket, prefix: `${PREFIX}/`, endpoint: engine.endpoint, region: 'us-east-1', timeoutMs: 3000, sweepGraceMs: 3_600_000 }
  pod = await podOnCeph(engine, {
    prefix: PREFIX,
    // A key of the pod's own (/keys/local) for signed appends.
    seed: async dir => {
      keyFile = join(dir, 'local.jwk')
      const added = Bun.spawnSync([process.execPath, MAIN, 'keys', 'add', '--data', dir, '--name', 'local', '--out', keyFile], { stderr: 'pipe' })
      if (added.exitCode !== 0) throw new Error(`keys add failed: ${added.stderr.toString()}`)
    },
    extraArgs: ['--s3-timeout-seconds', '3'],
  })
}, 120_000)
afterAll(async () => {
  await pod?.dispose()
  await stopCeph(engine)
})

const multipart = () => openS3Multipart(cfg, { accessKeyId: engine.accessKeyId, secretAccessKey: engine.secretAccessKey })
/** ListMultipartUploads of the pod's prefix, behind its back. */
const uploadsInBucket = async (prefix = `${PREFIX}/`) => (await multipart().listUploads(prefix)).length
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64')
const idOf = (upload: string) => upload.split('/').at(-1)!
/** What the local disk holds of one upload: every file named after it, in bytes. */
const localBytes = (dataDir: string, id: string) =>
  readdirSync(join(dataDir, 'uploads'))
    .filter(n => n.startsWith(id))
    .reduce((sum, n) => sum + statSync(join(dataDir, 'uploads', n)).size, 0)

const draft = (complete: boolean) => ({ 'upload-draft-interop-version': '8', 'upload-complete': complete ? '?1' : '?0' })

async function create(path: string, length: number): Promise<string> {
  const res = await fetch(pod.baseUrl + path, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'upload-length': String(length), ...draft(false) },
  })
  expect(res.status).toBe(201)
  return res.headers.get('location')!
}

const append = (upload: string, offset: number, bytes: Uint8Array<ArrayBuffer>, complete: boolean) =>
  fetch(upload, {
    method: 'PATCH',
    headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(offset), ...draft(complete) },
    body: bytes,
  })

async function offsetOf(upload: string): Promise<number> {
  const res = await fetch(upload, { method: 'HEAD' })
  expect(res.status).toBe(204)
  return Number(res.headers.get('upload-offset'))
}

/** A PATCH announcing every remaining byte that sends `sent` of them and closes the socket. */
async function appendAndCut(upload: string, bytes: Uint8Array, offset: number, sent: number): Promise<void> {
  const u = new URL(upload)
  const head =
    `PATCH ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/partial-upload\r\nUpload-Draft-Interop-Version: 8\r\n` +
    `Upload-Complete: ?1\r\nUpload-Offset: ${offset}\r\nContent-Length: ${bytes.length - offset}\r\n\r\n`
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(u.port), '127.0.0.1', () => {
      socket.write(head)
      socket.write(bytes.subarray(offset, offset + sent), () =>
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 500),
      )
    })
    socket.on('error', reject)
  })
}

async function expectStored(path: string, bytes: Uint8Array) {
  const res = await fetch(pod.baseUrl + path)
  expect(res.status).toBe(200)
  const got = new Uint8Array(await res.arrayBuffer())
  expect(got.length).toBe(bytes.length)
  expect(sha256(got)).toBe(sha256(bytes))
  expect(res.headers.get('repr-digest')).toBe(`sha-256=:${sha256(bytes)}:`)
}

async function until(what: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms
  while (!(await what()) && Date.now() < deadline) await Bun.sleep(200)
  expect(await what()).toBe(true)
}

describe.skipIf(missing !== undefined)('issue 39: resumable uploads assembled from multipart parts in the bucket', () => {
  test('cut midway, then completed after a restart of the pod: parts in the bucket, less than a part on the local disk, one object byte for byte', async () => {
    const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + 5 * MIB + 7))
    const before = await uploadsInBucket()
    const upload = await create('/files/resumed.bin', bytes.length)
    await appendAndCut(upload, bytes, 0, PART_SIZE + 3 * MIB)
    // What the pod read before the cut (while a part is sent, the body waits: the rest may be lost in the socket).
    const offset = await offsetOf(upload)
    expect(offset).toBeGreaterThanOrEqual(PART_SIZE)
    expect(offset).toBeLessThanOrEqual(PART_SIZE + 3 * MIB)
    expect(await uploadsInBucket()).toBe(before + 1)
    expect(localBytes(pod.dataDir, idOf(upload))).toBeLessThan(PART_SIZE)

    await pod.restart()
    expect(await offsetOf(upload)).toBe(offset)
    const res = await append(upload, offset, bytes.slice(offset), true)
    expect(res.status).toBe(201)
    expect(res.headers.get('upload-offset')).toBe(String(bytes.length))
    // The running hash did not survive the restart: the object was read back for it.
    await expectStored('/files/resumed.bin', bytes)
    expect(await uploadsInBucket()).toBe(before)
    expect(readdirSync(join(pod.dataDir, 'uploads')).filter(n => n.startsWith(idOf(upload)))).toEqual([])
  })

  test('an upload that never reaches a whole part is one small object; no multipart upload is started', async () => {
    const bytes = new Uint8Array(randomBytes(3 * MIB + 1))
    const before = await uploadsInBucket()
    const upload = await create('/files/small.bin', bytes.length)
    expect((await append(upload, 0, bytes.slice(0, MIB), false)).status).toBe(204)
    expect((await append(upload, MIB, bytes.slice(MIB), true)).status).toBe(201)
    expect(await uploadsInBucket()).toBe(before)
    await expectStored('/files/small.bin', bytes)
  })

  test('the engine stopped mid-part: 503 blob_store_unavailable with Retry-After, what arrived kept; resumed once it returns', async () => {
    const bytes = new Uint8Array(randomBytes(PART_SIZE + 4 * MIB))
    const upload = await create('/files/down.bin', bytes.length)
    expect((await append(upload, 0, bytes.slice(0, 5 * MIB), false)).status).toBe(204)
    await engine.stopGateway()
    try {
      const started = Date.now()
      const res = await append(upload, 5 * MIB, bytes.slice(5 * MIB, 10 * MIB), false)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('30')
      expect(await res.text()).toStartWith('blob_store_unavailable:')
      expect(Date.now() - started).toBeLessThan(10_000)
      // The whole part waits on the local disk, fsynced and recorded.
      expect(await offsetOf(upload)).toBe(PART_SIZE)
      // Appending more while the bucket is down changes nothing.
      const again = await append(upload, PART_SIZE, bytes.slice(PART_SIZE, PART_SIZE + MIB), false)
      expect(again.status).toBe(503)
      expect(await offsetOf(upload)).toBe(PART_SIZE)
    } finally {
      await engine.startGateway()
    }
    const res = await append(upload, PART_SIZE, bytes.slice(PART_SIZE), true)
    expect(res.status).toBe(201)
    await expectStored('/files/down.bin', bytes)
  })

  test('a signed append whose Content-Digest does not match is refused and nothing of it is kept or sent; a matching one is held until checked', async () => {
    const key = { key: privateKeyOf(JSON.parse(await Bun.file(keyFile).text()) as Record<string, unknown>), alg: 'ecdsa-p256-sha256', keyid: '/keys/local#key' }
    const signedFetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: Uint8Array<ArrayBuffer> }, digestOf?: Uint8Array) =>
      fetch(url, {
        ...init,
        headers: await signedHeaders(url, { ...key, method: init.method, headers: init.headers, ...(digestOf ? { body: digestOf } : {}) }),
      })
    const bytes = new Uint8Array(randomBytes(PART_SIZE + 2 * MIB))
    const before = await uploadsInBucket()
    const created = await signedFetch(pod.baseUrl + '/files/signed.bin', {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'upload-length': String(bytes.length), ...draft(false) },
    })
    expect(created.status).toBe(201)
    const upload = created.headers.get('location')!
    const patch = (offset: number, body: Uint8Array<ArrayBuffer>, complete: boolean, digestOf: Uint8Array = body) =>
      signedFetch(
        upload,
        { method: 'PATCH', headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(offset), ...draft(complete) }, body },
        digestOf,
      )
    // A whole part and more, signed for other bytes.
    const first = bytes.slice(0, PART_SIZE + MIB)
    const refused = await patch(0, first, false, new Uint8Array(first.length))
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_signature"')
    expect(await uploadsInBucket()).toBe(before)
    expect(localBytes(pod.dataDir, idOf(upload)) - statSync(join(pod.dataDir, 'uploads', `${idOf(upload)}.json`)).size).toBe(0)
    // Matching (at offset 0 still): kept on the local disk whole until checked, sent on as parts by the next append.
    const kept = await patch(0, first, false)
    expect(kept.status).toBe(204)
    expect(kept.headers.get('upload-offset')).toBe(String(first.length))
    expect(await uploadsInBucket()).toBe(before)
    const done = await patch(first.length, bytes.slice(first.length), true)
    expect(done.status).toBe(201)
    await expectStored('/files/signed.bin', bytes)
    expect(await uploadsInBucket()).toBe(before)
  })

  test("its multipart upload aborted behind the pod's back (the bucket's lifecycle rule): the next append is refused 404 upload_lost, the upload and its files go, another upload goes on", async () => {
    const bytes = new Uint8Array(randomBytes(2 * PART_SIZE))
    const mp = multipart()
    const before = new Set((await mp.listUploads(`${PREFIX}/`)).map(u => u.uploadId))
    const other = await create('/files/unaffected.bin', 2 * MIB)
    expect((await append(other, 0, bytes.slice(0, MIB), false)).status).toBe(204)
    const upload = await create('/files/aborted.bin', bytes.length)
    const first = PART_SIZE + MIB
    expect((await append(upload, 0, bytes.slice(0, first), false)).status).toBe(204)
    const started = (await mp.listUploads(`${PREFIX}/`)).filter(u => !before.has(u.uploadId))
    expect(started).toHaveLength(1)
    await mp.abort(started[0]!.key, started[0]!.uploadId)

    // The rest fills the next part, which the bucket no longer takes.
    const res = await append(upload, first, bytes.slice(first), true)
    expect(res.status).toBe(404)
    expect(await res.text()).toStartWith('upload_lost: ')
    expect(res.headers.get('upload-complete')).toBeNull()
    expect((await fetch(upload, { method: 'HEAD' })).status).toBe(404)
    expect(readdirSync(join(pod.dataDir, 'uploads')).filter(n => n.startsWith(idOf(upload)))).toEqual([])
    expect((await fetch(pod.baseUrl + '/files/aborted.bin')).status).toBe(404)
    // Nothing else is touched: the other upload completes.
    expect((await append(other, MIB, bytes.slice(MIB, 2 * MIB), true)).status).toBe(201)
    await expectStored('/files/unaffected.bin', bytes.slice(0, 2 * MIB))
  })

  test('a cancelled upload is aborted in the bucket (ListMultipartUploads shows none) and its local files go', async () => {
    const bytes = new Uint8Array(randomBytes(PART_SIZE + MIB))
    const before = await uploadsInBucket()
    const upload = await create('/files/cancelled.bin', bytes.length * 2)
    expect((await append(upload, 0, bytes, false)).status).toBe(204)
    expect(await uploadsInBucket()).toBe(before + 1)
    expect((await fetch(upload, { method: 'DELETE' })).status).toBe(204)
    await until(async () => (await uploadsInBucket()) === before)
    expect(readdirSync(join(pod.dataDir, 'uploads')).filter(n => n.startsWith(idOf(upload)))).toEqual([])
    expect((await fetch(upload, { method: 'HEAD' })).status).toBe(404)
  })
})

describe.skipIf(missing !== undefined)('issue 39: the partial uploads of the S3 blob store, against the engine', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  const open = (prefix: string): { store: BlobStore; dir: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-s3-partials-'))
    dirs.push(dir)
    const store = openS3BlobStore(dir, { ...cfg, prefix: `${prefix}/` }, { accessKeyId: engine.accessKeyId, secretAccessKey: engine.secretAccessKey })
    return { store, dir }
  }
  const id = () => randomBytes(16).toString('hex')
  const limits = { reserveBytes: 0 }

  test('a signed append is held on the local disk, whole parts too, until checked: cut back, nothing of it is kept or sent', async () => {
    const { store, dir } = open('held')
    const up = id()
    await store.startPartial(up)
    const first = new Uint8Array(randomBytes(MIB))
    expect((await store.appendPartial(up, [first], limits)).size).toBe(MIB)
    const signed = new Uint8Array(randomBytes(2 * PART_SIZE))
    expect((await store.appendPartial(up, [signed], { ...limits, heldUntilChecked: true })).size).toBe(MIB + 2 * PART_SIZE)
    expect(await uploadsInBucket('held/')).toBe(0)
    // Its digest did not match: cut back to before it, every byte of it.
    expect(await store.truncatePartial(up, MIB)).toBe(MIB)
    expect(store.partialSize(up)).toBe(MIB)
    expect(localBytes(dir, up)).toBeLessThan(PART_SIZE)
    // A signed append that matched is sent as parts by what comes next.
    expect((await store.appendPartial(up, [signed], { ...limits, heldUntilChecked: true })).size).toBe(MIB + 2 * PART_SIZE)
    expect((await store.appendPartial(up, [first], limits)).size).toBe(2 * MIB + 2 * PART_SIZE)
    expect(await uploadsInBucket('held/')).toBe(1)
    expect(localBytes(dir, up)).toBeLessThan(PART_SIZE)
    const blob = await store.finishPartial(up)
    const all = Buffer.concat([first, signed, first])
    expect(blob.size).toBe(all.length)
    expect(blob.sha256).toBe(createHash('sha256').update(all).digest('hex'))
    expect(Buffer.from(await store.read(blob.id).arrayBuffer()).equals(all)).toBe(true)
  })

  test('bytes past the record that are parts already cannot be cut: truncatePartial reports the size it kept', async () => {
    const { store, dir } = open('past')
    const up = id()
    await store.startPartial(up)
    const bytes = new Uint8Array(randomBytes(PART_SIZE + MIB))
    await store.appendPartial(up, [bytes], limits)
    // As after a crash before the record took the new offset (it still says 0).
    expect(await store.truncatePartial(up, 0)).toBe(PART_SIZE)
    expect(store.partialSize(up)).toBe(PART_SIZE)
    // The state read again from the disk (a restart) says the same, and finishes into those bytes.
    const restarted = openS3BlobStore(dir, { ...cfg, prefix: 'past/' }, { accessKeyId: engine.accessKeyId, secretAccessKey: engine.secretAccessKey })
    expect(restarted.partialSize(up)).toBe(PART_SIZE)
    const blob = await restarted.finishPartial(up)
    expect(blob.sha256).toBe(createHash('sha256').update(bytes.subarray(0, PART_SIZE)).digest('hex'))
  })

  test('an abandoned upload is aborted by the sweep of partial uploads; a live one stays', async () => {
    const { store, dir } = open('swept')
    const [gone, kept] = [id(), id()]
    for (const up of [gone, kept]) {
      await store.startPartial(up)
      await store.appendPartial(up, [new Uint8Array(PART_SIZE + 10)], limits)
    }
    expect(await uploadsInBucket('swept/')).toBe(2)
    // What crashes leave of the live one: the tail before its part was recorded, and a next tail not yet recorded.
    writeFileSync(join(dir, 'uploads', kept), new Uint8Array(PART_SIZE + 10))
    writeFileSync(join(dir, 'uploads', `${kept}.2`), 'x')
    expect(await store.sweepPartials(async ids => ids.map(i => i === kept))).toBe(1)
    expect(await uploadsInBucket('swept/')).toBe(1)
    expect(readdirSync(join(dir, 'uploads')).filter(n => n.startsWith(gone))).toEqual([])
    // The older tail goes; the later one is left to the append that may be writing it (it overwrites it anyway).
    expect(
      readdirSync(join(dir, 'uploads'))
        .filter(n => n.startsWith(kept))
        .sort(),
    ).toEqual([`${kept}.1`, `${kept}.2`, `${kept}.json`])
    expect(store.partialSize(kept)).toBe(PART_SIZE + 10)
  })
})
