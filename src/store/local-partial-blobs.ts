// Partial uploads on the local disk (resumable uploads): one file per upload under `<data>/uploads/<id>`,
// appended to until finished, then moved among the blobs.

import { existsSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { open, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { BlobWriteError, type AppendLimits, type AppendResult, type BlobSource, type PartialBlobs, type StoredBlob } from './blob-store.ts'
import { writeBody } from './write-body.ts'
import { syncDir } from './sync-dir.ts'
import { log, describeCause } from '../log.ts'

/** Never under `files/`: the start-up sweep of blobs removes every file there that no resource names. */
export const UPLOADS_DIR = 'uploads'
const ID = /^[0-9a-f]{32}$/

interface RunningHash {
  readonly hash: Bun.CryptoHasher
  size: number
}

/**
 * `noteStored` is the blob store's own collector (lib/collect-every.ts): appends turn a body into garbage chunk by
 * chunk as puts do, and counting both together keeps one rhythm of collections.
 */
export function openLocalPartials(
  dataDir: string,
  blobs: { adopt(file: string): Promise<string>; freeBytes(): number; noteStored(bytes: number): void },
): PartialBlobs {
  const root = join(dataDir, UPLOADS_DIR)
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const fileOf = (id: string) => {
    if (!ID.test(id)) throw new Error(`not an upload id: ${JSON.stringify(id)}`)
    return join(root, id)
  }
  /**
   * The SHA-256 of each upload so far, kept while the process lives so that finishing does not read the
   * file again; one that does not match the file (after a restart, or a refused append) is dropped and
   * the file is hashed when it is finished.
   */
  const hashes = new Map<string, RunningHash>()
  const sizeOf = (id: string) => {
    try {
      return statSync(fileOf(id)).size
    } catch {
      return undefined
    }
  }

  async function appendPartial(id: string, body: BlobSource, limits: AppendLimits): Promise<AppendResult> {
    const start = sizeOf(id)
    if (start === undefined) throw new Error(`no partial upload ${id}`)
    let running = hashes.get(id)
    if (running && running.size !== start) {
      hashes.delete(id)
      running = undefined
    }
    const handle = await open(fileOf(id), 'r+')
    const progress = { size: start }
    // Chunks emptied as they are written leave no garbage worth a collection (BlobLimits.ownsChunks).
    const collects = limits.ownsChunks !== true
    const written = (chunk: Uint8Array) => {
      if (running) {
        running.hash.update(chunk)
        running.size += chunk.byteLength
      }
      if (collects) blobs.noteStored(chunk.byteLength)
    }
    let ended: boolean
    try {
      ended = await writeBody(body, { handle, start, limits, freeBytes: blobs.freeBytes, written }, progress)
    } catch (err) {
      if (err instanceof BlobWriteError) {
        // A refused append leaves the upload as it was before it.
        hashes.delete(id)
        await handle.truncate(start)
        await handle.sync()
        await handle.close()
        throw err
      }
      // The body failed midway (the client went away): what arrived stays, for the client to resume from.
      ended = false
    }
    // Resumable Uploads §4.1: an offset the pod acknowledges must be one it keeps.
    await handle.sync()
    await handle.close()
    return { size: progress.size, ended }
  }

  async function hashFile(file: string): Promise<string> {
    const hash = new Bun.CryptoHasher('sha256')
    for await (const chunk of Bun.file(file).stream() as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
    return hash.digest('hex')
  }

  return {
    async startPartial(id) {
      const handle = await open(fileOf(id), 'wx', 0o600)
      await handle.close()
      syncDir(root)
      hashes.set(id, { hash: new Bun.CryptoHasher('sha256'), size: 0 })
    },
    appendPartial,
    partialSize: sizeOf,
    async truncatePartial(id, size) {
      hashes.delete(id)
      await truncate(fileOf(id), size)
      return size
    },
    async finishPartial(id): Promise<StoredBlob> {
      const file = fileOf(id)
      const size = statSync(file).size
      const running = hashes.get(id)
      hashes.delete(id)
      const sha256 = running && running.size === size ? running.hash.digest('hex') : await hashFile(file)
      const blobId = await blobs.adopt(file)
      syncDir(root)
      return { id: blobId, size, sha256 }
    },
    removePartial(id) {
      hashes.delete(id)
      try {
        unlinkSync(fileOf(id))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('upload.remove_failed', { id, cause: describeCause(err) })
      }
    },
    async sweepPartials(areLive) {
      if (!existsSync(root)) return 0
      const names = readdirSync(root)
      const ids = names.filter(n => ID.test(n))
      const answers = ids.length === 0 ? [] : await areLive(ids)
      const keep = new Set(ids.filter((_, i) => answers[i] === true))
      let removed = 0
      for (const name of names) {
        if (keep.has(name)) continue
        hashes.delete(name)
        rmSync(join(root, name), { force: true, recursive: true })
        removed++
      }
      return removed
    },
  }
}
