// Issue 39: `solopod blobs move` while resumable uploads are in progress, against a real Ceph RADOS Gateway
// (test/s3/ceph-rgw.ts). An upload half-sent on the local disk goes on in the bucket after a move there; one whose
// bytes are partly multipart parts in the bucket is carried home by a move back (nothing reads those parts after the
// switch); one finished during a move writes its blob where the move goes, never into the store being emptied.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cephMissing, type CephRgw } from './ceph-rgw.ts'
import { startCeph, stopCeph } from './pod-on-ceph.ts'
import { finishSolopod, spawnSolopod, startPod, type RunningPod } from '../e2e/start-server.ts'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { openS3BlobStore, PART_SIZE } from '../../src/store/s3-blob-store.ts'
import { openS3Multipart } from '../../src/store/s3-multipart.ts'
import { openStore } from '../../src/store/open-store.ts'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'
import { moveBlobs } from '../../src/store/move-blobs.ts'
import { LOCAL, MOVE_KEY, type BlobLocation } from '../../src/store/blob-location.ts'
import { writeResource } from '../../src/store/resources.ts'
import { binaryContent } from '../store/binary-content.ts'
import type { S3BlobConfig } from '../../src/config.ts'

setDefaultTimeout(300_000)

const missing = cephMissing()
if (missing) console.log(missing)

const MIB = 1024 * 1024
let engine: CephRgw
const dirs: string[] = []

beforeAll(async () => {
  if (missing) return
  engine = await startCeph()
}, 120_000)
afterAll(async () => {
  await stopCeph(engine)
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const cfgOf = (prefix: string): S3BlobConfig => ({
  bucket: engine.bucket,
  prefix: `${prefix}/`,
  endpoint: engine.endpoint,
  region: 'us-east-1',
  timeoutMs: 5000,
  sweepGraceMs: 3_600_000,
})
const multipartUploads = async (prefix: string) =>
  (await openS3Multipart(cfgOf(prefix), { accessKeyId: engine.accessKeyId, secretAccessKey: engine.secretAccessKey }).listUploads(`${prefix}/`)).length
const objectCount = async (prefix: string) => (await engine.client.list({ prefix: `${prefix}/` })).contents?.length ?? 0
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const draft = (complete: boolean) => ({ 'upload-draft-interop-version': '8', 'upload-complete': complete ? '?1' : '?0' })

describe.skipIf(missing !== undefined)('issue 39: blobs move with resumable uploads in progress', () => {
  let pod: RunningPod | undefined
  afterAll(async () => {
    await pod?.dispose()
  })

  test('half-sent on the local disk, moved to the bucket, sent on as parts there, moved back: carried home and completed byte for byte', async () => {
    pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']), extraArgs: ['--keep-versions-days', '0'] })
    const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + 3 * MIB + 11))
    const created = await fetch(pod.baseUrl + '/files/moved-upload.bin', {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'upload-length': String(bytes.length), ...draft(false) },
    })
    expect(created.status).toBe(201)
    const upload = created.headers.get('location')!
    const id = upload.split('/').at(-1)!
    const append = (from: number, to: number, complete: boolean) =>
      fetch(upload, {
        method: 'PATCH',
        headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(from), ...draft(complete) },
        body: bytes.slice(from, to),
      })
    const offset = async () => {
      const res = await fetch(upload, { method: 'HEAD' })
      expect(res.status).toBe(204)
      return Number(res.headers.get('upload-offset'))
    }
    const move = async (...to: string[]) => {
      const out = await finishSolopod(spawnSolopod('blobs', 'move', '--data', pod!.dataDir, ...to))
      expect(out.code, out.stderr).toBe(0)
      return out
    }

    // Local → bucket: the upload is one file on the local disk, which the bucket's uploads read as it is.
    const first = PART_SIZE + 2 * MIB
    expect((await append(0, first, false)).status).toBe(204)
    await move('--to', `s3://${engine.bucket}/moving`, '--s3-endpoint', engine.endpoint)
    expect(await offset()).toBe(first)
    const second = 2 * PART_SIZE + 2 * MIB
    expect((await append(first, second, false)).status).toBe(204)
    expect(await offset()).toBe(second)
    // Its bytes are parts in the bucket now: two whole parts, the rest on the local disk.
    expect(await multipartUploads('moving')).toBe(1)

    // Bucket → local: nothing reads those parts after the switch, so the move carries the upload home first.
    const back = await move('--to', 'local')
    expect(await multipartUploads('moving')).toBe(0)
    expect(readdirSync(join(pod.dataDir, 'uploads')).filter(n => n.startsWith(id))).toEqual([id])
    expect(await offset()).toBe(second)
    const done = await append(second, bytes.length, true)
    expect(done.status).toBe(201)
    const got = new Uint8Array(await (await fetch(pod.baseUrl + '/files/moved-upload.bin')).arrayBuffer())
    expect(got.length).toBe(bytes.length)
    expect(sha256(got)).toBe(sha256(bytes))
    // The carried object went with the rest of the old copies.
    expect(await objectCount('moving')).toBe(0)
    expect(back.stderr).toContain('carried 1 resumable uploads in progress to the data directory')
  })

  test('an upload with parts in the bucket finished while a move to the local disk copies: its blob is written there, not into the bucket being emptied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-move-upload-'))
    dirs.push(dir)
    const store = await openStore(dir, { s3: cfgOf('finishing') })
    try {
      const up = randomBytes(16).toString('hex')
      const bytes = new Uint8Array(randomBytes(PART_SIZE + 5 * MIB))
      await store.blobs.startPartial(up)
      await store.blobs.appendPartial(up, [bytes], { reserveBytes: 0 })
      expect(await multipartUploads('finishing')).toBe(1)
      let finished: ReturnType<typeof store.blobs.finishPartial> | undefined
      await moveBlobs(store, LOCAL, {
        configured: { kind: 's3', bucket: engine.bucket, prefix: 'finishing/', endpoint: engine.endpoint, region: 'us-east-1' },
        open: () => openLocalBlobStore(dir),
        settleMs: 0,
        reserveBytes: 0,
        // Once the move has begun (new bytes go to the local disk), the upload completes.
        progress: () => void (finished ??= store.blobs.finishPartial(up)),
      })
      const blob = await finished!
      expect(blob.size).toBe(bytes.length)
      expect(blob.sha256).toBe(sha256(bytes))
      expect(store.blobs.location).toBe(openLocalBlobStore(dir).location)
      expect(sha256(new Uint8Array(await store.blobs.read(blob.id).arrayBuffer()))).toBe(sha256(bytes))
      expect(await multipartUploads('finishing')).toBe(0)
      expect(await objectCount('finishing')).toBe(0)
    } finally {
      await store.close()
    }
  })

  test('a move between two buckets stopped midway and run again after a restart: an upload begun during it sends its parts on to its own bucket and completes byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-move-buckets-'))
    dirs.push(dir)
    const keys = { accessKeyId: engine.accessKeyId, secretAccessKey: engine.secretAccessKey }
    const fromLocation: BlobLocation = { kind: 's3', bucket: engine.bucket, prefix: 'bb-from/', endpoint: engine.endpoint, region: 'us-east-1' }
    const toLocation: BlobLocation = { ...fromLocation, prefix: 'bb-to/' }
    const up = randomBytes(16).toString('hex')
    const bytes = new Uint8Array(randomBytes(2 * PART_SIZE + 3 * MIB))
    const first = PART_SIZE + MIB
    let store = await openStore(dir, { s3: cfgOf('bb-from') })
    try {
      // One named file, so that the move has a copy to make; the copy is where it stops (as a killed command would).
      await writeResource(
        store,
        'http://localhost:3000',
        '/f.bin',
        await binaryContent(store, 'application/octet-stream', new Uint8Array(randomBytes(1000))),
        1,
      )
      const target = openS3BlobStore(dir, cfgOf('bb-to'), keys)
      const stop = new Error('stopped midway')
      await expect(
        moveBlobs(store, toLocation, {
          configured: fromLocation,
          open: () => ({
            ...target,
            putCopy: async () => {
              // Begun once the move is under way: new uploads start in the target, and this one sends a part there.
              await store.blobs.startPartial(up)
              await store.blobs.appendPartial(up, [bytes.slice(0, first)], { reserveBytes: 0 })
              throw stop
            },
          }),
          settleMs: 0,
          reserveBytes: 0,
          progress: () => undefined,
        }),
      ).rejects.toThrow('stopped midway')
      expect(await multipartUploads('bb-to')).toBe(1)
      expect(await multipartUploads('bb-from')).toBe(0)
    } finally {
      await store.close()
    }
    // The pod restarts with the move unfinished: it serves from both buckets.
    store = await openStore(dir, { s3: cfgOf('bb-from') })
    try {
      expect((await store.system.get(MOVE_KEY)) as object).toMatchObject({ phase: 'copying' })
      expect(store.blobs.partialSize(up)).toBe(first)
      const more = await store.blobs.appendPartial(up, [bytes.slice(first, 2 * PART_SIZE + MIB)], { reserveBytes: 0 })
      expect(more.size).toBe(2 * PART_SIZE + MIB)
      await moveBlobs(store, toLocation, {
        configured: fromLocation,
        open: () => openS3BlobStore(dir, cfgOf('bb-to'), keys),
        settleMs: 0,
        reserveBytes: 0,
        progress: () => undefined,
      })
      await store.blobs.appendPartial(up, [bytes.slice(2 * PART_SIZE + MIB)], { reserveBytes: 0 })
      const blob = await store.blobs.finishPartial(up)
      expect(blob.size).toBe(bytes.length)
      expect(blob.sha256).toBe(sha256(bytes))
      expect(sha256(new Uint8Array(await store.blobs.read(blob.id).arrayBuffer()))).toBe(sha256(bytes))
      expect(await multipartUploads('bb-to')).toBe(0)
    } finally {
      await store.close()
    }
  })

  test('a move to a local disk without room for the uploads it would carry home is refused before a byte is copied; with room it carries them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-move-room-'))
    dirs.push(dir)
    const store = await openStore(dir, { s3: cfgOf('cramped') })
    try {
      const up = randomBytes(16).toString('hex')
      const bytes = new Uint8Array(randomBytes(PART_SIZE + MIB))
      await store.blobs.startPartial(up)
      await store.blobs.appendPartial(up, [bytes], { reserveBytes: 0 })
      expect(await multipartUploads('cramped')).toBe(1)
      const reserveBytes = 4 * MIB
      const moveWith = (free: number) =>
        moveBlobs(store, LOCAL, {
          configured: { kind: 's3', bucket: engine.bucket, prefix: 'cramped/', endpoint: engine.endpoint, region: 'us-east-1' },
          open: () => ({ ...openLocalBlobStore(dir), freeBytes: () => free }),
          settleMs: 0,
          reserveBytes,
          progress: () => undefined,
        })
      // No file is named, so only the upload's 9 MiB need room.
      await expect(moveWith(reserveBytes + bytes.length - 1)).rejects.toThrow(
        `the files to move take 9.0 MB and the disk of ${openLocalBlobStore(dir).location} has 13.0 MB free, of which the pod keeps 4.0 MB (--disk-reserve-bytes): free some space first; nothing was moved`,
      )
      expect(await multipartUploads('cramped')).toBe(1)
      expect(store.blobs.remote).toBe(true)
      expect(store.blobs.partialSize(up)).toBe(bytes.length)

      const report = await moveWith(reserveBytes + bytes.length)
      expect(report.already).toBe(false)
      expect(store.blobs.remote).toBe(false)
      expect(await multipartUploads('cramped')).toBe(0)
      const blob = await store.blobs.finishPartial(up)
      expect(blob.sha256).toBe(sha256(bytes))
    } finally {
      await store.close()
    }
  })
})
