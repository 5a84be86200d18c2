// `solopod blobs move` on the store (store/move-blobs.ts), without an engine: the target is a second local blob store
// behind a bucket's location (the `open` seam). Reads and writes during the move, the switch, a move stopped midway
// and run again, a copy whose bytes differ, the flags checked against the recorded location.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { writeResource } from '../../src/store/resources.ts'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'
import { moveBlobs, type MoveOptions } from '../../src/store/move-blobs.ts'
import { LOCAL, LOCATION_KEY, MOVE_KEY, type BlobLocation } from '../../src/store/blob-location.ts'
import type { BlobStore } from '../../src/store/blob-store.ts'
import { binaryContent, storedBytes } from './binary-content.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-move-'))
  dirs.push(d)
  return d
}
const BASE = 'http://localhost:3000'
const BUCKET: BlobLocation = { kind: 's3', bucket: 'elsewhere', prefix: 'pod/', endpoint: 'http://127.0.0.1:1', region: 'us-east-1' }
const bytesOf = (i: number) => new TextEncoder().encode(`file ${i} `.repeat(i + 1))
const filesIn = (dir: string) =>
  readdirSync(join(dir, 'files'), { withFileTypes: true })
    .filter(d => d.isDirectory())
    .flatMap(d => readdirSync(join(dir, 'files', d.name)))

async function podWithFiles(count: number): Promise<{ dir: string; store: Store }> {
  const dir = tempDir()
  const store = await openStore(dir)
  for (let i = 0; i < count; i++) await writeResource(store, BASE, `/f${i}.bin`, await binaryContent(store, 'application/octet-stream', bytesOf(i)), 1)
  return { dir, store }
}

function options(target: BlobStore, over: Partial<MoveOptions> = {}): MoveOptions {
  return { configured: LOCAL, open: () => target, settleMs: 0, progress: () => undefined, reserveBytes: 0, ...over }
}

describe('solopod blobs move (store)', () => {
  test('every named blob is copied under its id, the pod reads and writes meanwhile, the switch is recorded and the old copies go', async () => {
    const { dir, store } = await podWithFiles(15)
    const bucketDir = tempDir()
    const target = openLocalBlobStore(bucketDir)
    let during: Promise<void> | undefined
    const report = await moveBlobs(
      store,
      BUCKET,
      options(target, {
        // A write and a read while the move copies: the new file goes to the target, an old one is read where it is.
        progress: () => {
          during ??= (async () => {
            await writeResource(store, BASE, '/during.bin', await binaryContent(store, 'application/octet-stream', 'written during'), 2)
            expect(new TextDecoder().decode(await storedBytes(store, '/during.bin'))).toBe('written during')
            expect(await storedBytes(store, '/f14.bin')).toEqual(bytesOf(14))
          })()
        },
      }),
    )
    await during
    expect(report).toMatchObject({ files: 15, missing: [], already: false })
    expect(report.deleted).toBe(15)
    for (let i = 0; i < 15; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
    expect(new TextDecoder().decode(await storedBytes(store, '/during.bin'))).toBe('written during')
    expect(filesIn(dir)).toEqual([])
    expect(filesIn(bucketDir)).toHaveLength(16)
    expect(await store.system.get(LOCATION_KEY)).toEqual(BUCKET)
    expect(await store.system.get(MOVE_KEY)).toBeUndefined()
    expect(await Array.fromAsync(store.movedBlobs.keys())).toEqual([])
    // Asked again: nothing to do.
    expect(await moveBlobs(store, BUCKET, options(target))).toMatchObject({ files: 0, already: true })
    await store.close()
    // Started again with the flags of before, the pod refuses, naming the flags to use.
    await expect(openStore(dir)).rejects.toThrow(
      `this pod's files were moved to s3://elsewhere/pod/ at http://127.0.0.1:1 (solopod blobs move); start it with --blob-store s3://elsewhere/pod/ --s3-endpoint http://127.0.0.1:1`,
    )
  })

  test('a move stopped midway leaves the pod serving from both stores, and run again it carries on', async () => {
    const { dir, store } = await podWithFiles(20)
    const bucketDir = tempDir()
    const target = openLocalBlobStore(bucketDir)
    const stop = new AbortController()
    let copies = 0
    const counting: BlobStore = {
      ...target,
      putCopy: async (id, body) => {
        const stored = await target.putCopy(id, body)
        if (++copies === 8) stop.abort()
        return stored
      },
    }
    await expect(moveBlobs(store, BUCKET, options(counting, { signal: stop.signal }))).rejects.toThrow()
    expect(filesIn(bucketDir)).toHaveLength(8)
    expect(filesIn(dir)).toHaveLength(20)
    expect((await store.system.get(MOVE_KEY)) as object).toMatchObject({ phase: 'copying' })
    try {
      // Meanwhile every file is served (eight from the target, the rest from the data directory).
      for (let i = 0; i < 20; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
      expect(store.blobs.from).toBeDefined()
      const said: string[] = []
      const report = await moveBlobs(store, BUCKET, options(target, { progress: line => said.push(line) }))
      expect(said[0]).toContain('resuming the move')
      expect(report).toMatchObject({ files: 12, deleted: 20 })
      for (let i = 0; i < 20; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
      expect(filesIn(dir)).toEqual([])
      expect(filesIn(bucketDir)).toHaveLength(20)
    } finally {
      await store.close()
    }
    // A restart midway (the records say `copying`) is test/s3/blobs-move.slow.test.ts, against a real bucket.
  })

  test('a copy that reads back other bytes than were sent switches nothing', async () => {
    const { dir, store } = await podWithFiles(3)
    const target = openLocalBlobStore(tempDir())
    const lying: BlobStore = { ...target, putCopy: async (id, body) => ({ ...(await target.putCopy(id, body)), sha256: '0'.repeat(64) }) }
    try {
      await expect(moveBlobs(store, BUCKET, options(lying))).rejects.toThrow(/has other bytes than were sent; nothing was switched, run the move again$/)
      expect(await store.system.get(LOCATION_KEY)).toBeUndefined()
      expect(filesIn(dir)).toHaveLength(3)
      for (let i = 0; i < 3; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
    } finally {
      await store.close()
    }
  })

  test('a move onto a disk without room for the files and the reserve is refused before a byte is copied', async () => {
    const { dir, store } = await podWithFiles(6)
    const bucketDir = tempDir()
    const target = openLocalBlobStore(bucketDir)
    const needed = [0, 1, 2, 3, 4, 5].reduce((sum, i) => sum + bytesOf(i).length, 0)
    const reserveBytes = 1024 * 1024
    const cramped: BlobStore = { ...target, remote: false, freeBytes: () => needed + reserveBytes - 1 }
    try {
      await expect(moveBlobs(store, BUCKET, options(cramped, { reserveBytes }))).rejects.toThrow(
        `the files to move take 0.0 MB and the disk of ${target.location} has 1.0 MB free, of which the pod keeps 1.0 MB (--disk-reserve-bytes): free some space first; nothing was moved`,
      )
      expect(await store.system.get(MOVE_KEY)).toBeUndefined()
      expect(await Array.fromAsync(store.movedBlobs.keys())).toEqual([])
      expect(store.blobs.from).toBeUndefined()
      expect(filesIn(bucketDir)).toEqual([])
      expect(filesIn(dir)).toHaveLength(6)
      // One byte more and the files fit beside the reserve.
      const report = await moveBlobs(store, BUCKET, options({ ...cramped, freeBytes: () => needed + reserveBytes }, { reserveBytes }))
      expect(report).toMatchObject({ files: 6, missing: [], deleted: 6 })
      for (let i = 0; i < 6; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
    } finally {
      await store.close()
    }
  })

  test('a disk that fills while the move copies stops it before the reserve is taken, and run again it carries on', async () => {
    const { store } = await podWithFiles(12)
    const bucketDir = tempDir()
    const target = openLocalBlobStore(bucketDir)
    let copies = 0
    let free = 10 * 1024 * 1024
    const filling: BlobStore = {
      ...target,
      remote: false,
      freeBytes: () => free,
      putCopy: async (id, body) => {
        const stored = await target.putCopy(id, body)
        // Other writes of the pod take the disk meanwhile.
        if (++copies === 5) free = 512 * 1024
        return stored
      },
    }
    try {
      await expect(moveBlobs(store, BUCKET, options(filling, { reserveBytes: 1024 * 1024 }))).rejects.toThrow(
        `the disk of ${target.location} has 0.5 MB free, of which the pod keeps 1.0 MB (--disk-reserve-bytes): free some space first; the move stays resumable`,
      )
      expect((await store.system.get(MOVE_KEY)) as object).toMatchObject({ phase: 'copying' })
      expect(copies).toBeGreaterThanOrEqual(5)
      expect(copies).toBeLessThan(12)
      for (let i = 0; i < 12; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
      free = 10 * 1024 * 1024
      const copiedBefore = copies
      const report = await moveBlobs(store, BUCKET, options(filling, { reserveBytes: 1024 * 1024 }))
      expect(report).toMatchObject({ files: 12 - copiedBefore, missing: [] })
      for (let i = 0; i < 12; i++) expect(await storedBytes(store, `/f${i}.bin`)).toEqual(bytesOf(i))
      expect(filesIn(bucketDir)).toHaveLength(12)
    } finally {
      await store.close()
    }
  })

  test('a move to another place while one is unfinished is refused', async () => {
    const { store } = await podWithFiles(2)
    try {
      await store.system.put(MOVE_KEY, { from: LOCAL, to: BUCKET, phase: 'deleting' })
      await expect(moveBlobs(store, { ...BUCKET, bucket: 'other' }, options(openLocalBlobStore(tempDir())))).rejects.toThrow(
        'a move to s3://elsewhere/pod/ at http://127.0.0.1:1 is unfinished; run solopod blobs move with that --to first',
      )
    } finally {
      await store.close()
    }
  })
})
