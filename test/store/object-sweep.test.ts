// The regular sweep of orphans while the pod serves (store/object-sweep.ts) sweeps only the stores that are buckets:
// their sweep keeps objects younger than a grace period, a local directory's removes every file not yet named, so
// sweeping the local directory while a move from a bucket copies into it removed the file of a write in flight.
// The "bucket" here is a second local store that says it is remote (the selection is what is tested; the bucket's
// own sweep and grace period are tested against Ceph in test/s3/).

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'
import { sweepObjectsRegularly } from '../../src/store/object-sweep.ts'
import type { BlobStore } from '../../src/store/blob-store.ts'
import { versionBlobKey, versionKey } from '../../src/store/versions.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-object-sweep-'))
  dirs.push(d)
  return d
}
const NO_LIMITS = { reserveBytes: 0 }
const stream = (text: string) => new Response(text).body!
const exists = async (blobs: BlobStore, id: string) => {
  try {
    await (await blobs.read(id)).arrayBuffer()
    return true
  } catch {
    return false
  }
}
/** One run of the regular sweep (it sweeps at once), and how many it removed. */
async function sweepOnce(store: Awaited<ReturnType<typeof openStore>>): Promise<number> {
  let swept = 0
  const stop = sweepObjectsRegularly(store, { everyMs: 3_600_000, onSwept: n => void (swept = n) })
  await stop()
  return swept
}

describe('the regular sweep of orphans', () => {
  test('a pod on its local directory: a stored file no record names yet (a write in flight) is left', async () => {
    const store = await openStore(tempDir())
    try {
      const blob = await store.blobs.put(stream('in flight'), NO_LIMITS)
      expect(await sweepOnce(store)).toBe(0)
      expect(await exists(store.blobs, blob.id)).toBe(true)
    } finally {
      await store.close()
    }
  })

  test('while a move from a bucket copies into the local directory: the bucket is swept, the local write in flight is left', async () => {
    const store = await openStore(tempDir())
    try {
      const bucket: BlobStore = { ...openLocalBlobStore(tempDir()), remote: true }
      const orphan = await bucket.put(stream('left by a crash'), NO_LIMITS)
      await store.blobs.startMoving(openLocalBlobStore(tempDir()), { from: bucket, moved: store.movedBlobs })
      const inFlight = await store.blobs.put(stream('in flight'), NO_LIMITS)
      expect(await sweepOnce(store)).toBe(1)
      expect(await exists(bucket, orphan.id)).toBe(false)
      expect(await exists(store.blobs, inFlight.id)).toBe(true)
    } finally {
      await store.close()
    }
  })

  test("a bucket's object only a version holds (issue 36: a replaced or deleted file's bytes) is kept; an orphan beside it goes", async () => {
    const store = await openStore(tempDir(), { keepVersions: true })
    try {
      const bucket: BlobStore = { ...openLocalBlobStore(tempDir()), remote: true }
      const held = await bucket.put(stream('the bytes a version holds'), NO_LIMITS)
      const orphan = await bucket.put(stream('left by a crash'), NO_LIMITS)
      await store.versionBlobs.put(versionBlobKey(held.id, versionKey('/a.bin', 1, 2)), '')
      await store.blobs.startMoving(openLocalBlobStore(tempDir()), { from: bucket, moved: store.movedBlobs })
      expect(await sweepOnce(store)).toBe(1)
      expect(await exists(bucket, held.id)).toBe(true)
      expect(await exists(bucket, orphan.id)).toBe(false)
    } finally {
      await store.close()
    }
  })
})
