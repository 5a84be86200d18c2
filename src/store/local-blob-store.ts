// The blob store on the local disk: one file per blob under `<data>/files/<2 hex>/<id>`, written once, never changed.

import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { BlobLimits, BlobSource, BlobStore, StoredBlob } from './blob-store.ts'
import { writeBody } from './write-body.ts'
import { freeBytesAt } from './disk-space.ts'
import { syncDir } from './sync-dir.ts'
import { openLocalPartials } from './local-partial-blobs.ts'
import { log, describeCause } from '../log.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { makeDeferredRemoval } from './deferred-removal.ts'

export const FILES_DIR = 'files'

/** Ids are random hex: they name nothing about the resource, and never need escaping as file names (or object keys). */
export const BLOB_ID = /^[0-9a-f]{32}$/
const ID = BLOB_ID

export const newBlobId = () => crypto.randomUUID().replaceAll('-', '')
const newId = newBlobId

export function openLocalBlobStore(dataDir: string): BlobStore {
  const root = join(dataDir, FILES_DIR)
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const fileOf = (id: string) => {
    if (!ID.test(id)) throw new Error(`not a blob id: ${JSON.stringify(id)}`)
    return join(root, id.slice(0, 2), id)
  }
  // By all writes together: five concurrent uploads make garbage as fast as one five times as fast.
  const noteStored = collectEvery()

  const unlinkNow = (id: string) => {
    try {
      unlinkSync(fileOf(id))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('blob.remove_failed', { id, cause: describeCause(err) })
    }
  }

  function shelf(id: string): string {
    const dir = join(root, id.slice(0, 2))
    if (!existsSync(dir)) {
      mkdirSync(dir, { mode: 0o700 })
      // The new directory's entry must be on disk before a batch names a file in it.
      syncDir(root)
    }
    return dir
  }

  const freeBytes = () => freeBytesAt(root)

  async function put(body: BlobSource, limits: BlobLimits): Promise<StoredBlob> {
    const id = newId()
    const dir = shelf(id)
    const file = join(dir, id)
    const handle = await open(file, 'wx', 0o600)
    const hash = new Bun.CryptoHasher('sha256')
    const progress = { size: 0 }
    // Chunks emptied as they are written leave no garbage worth a collection (BlobLimits.ownsChunks).
    const collects = limits.ownsChunks !== true
    const written = (chunk: Uint8Array) => {
      hash.update(chunk)
      if (collects) noteStored(chunk.byteLength)
    }
    try {
      await writeBody(body, { handle, start: 0, limits, freeBytes, written }, progress)
      await handle.sync()
    } catch (err) {
      await handle.close().catch(() => undefined)
      unlinkSync(file)
      throw err
    }
    await handle.close()
    // The file's own fsync does not make its name durable: its directory's entry must be on disk too
    // before a batch names it.
    syncDir(dir)
    return { id, size: progress.size, sha256: hash.digest('hex') }
  }

  /** Written beside its final name and renamed to it once synced: a copy cut short is never taken for the blob (the sweep removes it). */
  async function putCopy(id: string, body: BlobSource): Promise<StoredBlob> {
    fileOf(id)
    const dir = shelf(id)
    const file = join(dir, id)
    const partial = `${file}.copy`
    const handle = await open(partial, 'w', 0o600)
    const hash = new Bun.CryptoHasher('sha256')
    let size = 0
    try {
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        await handle.write(chunk)
        hash.update(chunk)
        size += chunk.byteLength
      }
      await handle.sync()
    } catch (err) {
      await handle.close().catch(() => undefined)
      rmSync(partial, { force: true })
      throw err
    }
    await handle.close()
    renameSync(partial, file)
    syncDir(dir)
    return { id, size, sha256: hash.digest('hex') }
  }

  /**
   * A second name of the blob's file: a copy that takes no time and no room. A filesystem that has no hard links (or
   * a blob already gone) answers undefined, and the caller copies the bytes.
   */
  async function duplicate(id: string, known: Pick<StoredBlob, 'size' | 'sha256'>): Promise<StoredBlob | undefined> {
    const source = fileOf(id)
    const copy = newId()
    const dir = shelf(copy)
    try {
      linkSync(source, join(dir, copy))
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EMLINK' || code === 'EXDEV') return undefined
      throw err
    }
    // The new name must be on disk before a batch names it, as a written blob's
    syncDir(dir)
    return { id: copy, size: known.size, sha256: known.sha256 }
  }

  /** Moves a finished partial upload in as a new blob; its name is durable before the id is returned. */
  async function adopt(file: string): Promise<string> {
    const id = newId()
    const dir = shelf(id)
    renameSync(file, join(dir, id))
    syncDir(dir)
    return id
  }

  return {
    ...openLocalPartials(dataDir, { adopt, freeBytes, noteStored }),
    put,
    putCopy,
    duplicate,
    read: id => Bun.file(fileOf(id)),
    open: async (id, start, end) => (start === undefined ? Bun.file(fileOf(id)) : Bun.file(fileOf(id)).slice(start, end)),
    async *list() {
      for (const shelfName of readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (!shelfName.isDirectory()) continue
        const dir = join(root, shelfName.name)
        for (const name of readdirSync(dir).sort()) {
          if (!ID.test(name)) continue
          const size = statSync(join(dir, name), { throwIfNoEntry: false })?.size
          if (size !== undefined) yield { id: name, size }
        }
      }
    },
    ...makeDeferredRemoval(unlinkNow),
    discard: async id => {
      unlinkNow(id)
    },
    async sweep(areLive) {
      let removed = 0
      for (const shelfName of readdirSync(root, { withFileTypes: true })) {
        if (!shelfName.isDirectory()) continue
        const dir = join(root, shelfName.name)
        const names = readdirSync(dir)
        const ids = names.filter(n => ID.test(n))
        const answers = ids.length === 0 ? [] : await areLive(ids)
        const keep = new Set(ids.filter((_, i) => answers[i] === true))
        for (const name of names) {
          if (keep.has(name)) continue
          rmSync(join(dir, name), { force: true, recursive: true })
          removed++
        }
      }
      return removed
    },
    localFile: id => fileOf(id),
    freeBytes,
    location: root,
    remote: false,
    // The local directory is the database's disk: the health check's synced write already answers for it.
    problem: async () => undefined,
  }
}
