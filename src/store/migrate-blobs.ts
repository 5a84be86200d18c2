// Binary bodies leave LevelDB for files (data format 1 → 2), and files no resource names are removed at start.

import type { ClassicLevel } from 'classic-level'
import type { BlobStore } from './blob-store.ts'
import { inSublevel, type Sub } from './sublevel.ts'
import type { ResourceMeta } from './resource-meta.ts'
import { log } from '../log.ts'
import { isHeldByVersion } from './version-record.ts'

interface Format1 {
  readonly db: ClassicLevel<string, unknown>
  readonly meta: Sub<ResourceMeta>
  readonly blobRefs: Sub<string>
  readonly blobs: BlobStore
  /** Format 1 kept each binary's bytes here, keyed by path. */
  readonly legacy: Sub<Uint8Array>
}

/**
 * One resource at a time, each in its own synced batch (metadata naming the new file, the old body
 * deleted): a crash midway leaves some resources moved and the rest still in LevelDB, and the next
 * start carries on. Nothing is held in memory but one body.
 */
export async function moveBlobsToFiles({ db, meta, blobRefs, blobs, legacy }: Format1): Promise<void> {
  let moved = 0
  for await (const path of legacy.keys()) {
    const bytes = await legacy.get(path)
    const m = await meta.get(path)
    const batch = db.batch()
    if (m?.kind === 'binary' && bytes !== undefined) {
      const stored = await blobs.put([bytes], { reserveBytes: 0 })
      batch.put(path, { ...m, size: stored.size, blob: stored.id, sha256: stored.sha256 }, inSublevel(meta))
      batch.put(stored.id, path, inSublevel(blobRefs))
      moved++
    }
    batch.del(path, inSublevel(legacy))
    await batch.write({ sync: true })
  }
  if (moved > 0) log.info('store.blobs_moved_to_files', { resources: moved })
}

/** Whether each blob is named by a resource or the trash (blob-refs) or held by a version (version-blobs). */
export const namedBlobs =
  (blobRefs: Sub<string>, versionBlobs: Sub<string>) =>
  async (ids: readonly string[]): Promise<readonly boolean[]> => {
    const paths = await blobRefs.getMany(ids as string[])
    return Promise.all(paths.map((p, i) => p !== undefined || isHeldByVersion(versionBlobs, ids[i]!)))
  }

/** Keeps the files a resource or the trash names or a version holds; removes the rest. */
export async function sweepBlobs(blobs: BlobStore, blobRefs: Sub<string>, versionBlobs: Sub<string>): Promise<number> {
  return blobs.sweep(namedBlobs(blobRefs, versionBlobs))
}
