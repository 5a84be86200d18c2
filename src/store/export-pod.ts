// `solopod export`: the whole pod as a directory (manifest, N-Quads, binaries, owner/OP state), streamed.

import { closeSync, constants, createWriteStream, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs'
import { copyFile, open } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { StreamWriter } from '../lib/n3-streams.ts'
import type { Quad } from '@rdfjs/types'
import { getFormatVersion, type Store } from './open-store.ts'
import type { ResourceKind, ResourceMeta } from './resource-meta.ts'
import { getRecordedBaseUrl } from './base-url.ts'
import { openSnapshot, type StoreSnapshot } from './store-snapshot.ts'
import { LAST_BACKUP_KEY } from './last-backup.ts'
import { ESSENTIALS_CHECKED_KEY } from './essentials-record.ts'
import { HEALTH_PROBE_KEY } from './health-probe.ts'
import { UserError } from '../lib/user-error.ts'
import { BlobStoreUnavailable } from './blob-store.ts'

/** Names inside an export directory; import-pod.ts reads the same ones. */
export const MANIFEST_FILE = 'manifest.json'
export const QUADS_FILE = 'pod.nq'
export const STATE_FILE = 'state.jsonl'
export const BLOBS_DIR = 'blobs'
/** Tells an export directory apart from any other JSON file someone points `import` at. */
export const EXPORT_KIND = 'solopod-export'

/**
 * `system` keys that describe the data directory itself, not the pod: the importer writes them
 * for the target (format of the binary that imports, base URL it is imported for), and a restored
 * pod has made no backup yet (last-backup.ts), and the health check's last write is nobody's data (health-probe.ts), and whether the essential resources were found whole
 * is the target's to find out at its first start (essentials-record.ts).
 */
export const DIRECTORY_KEYS: readonly string[] = ['format-version', 'base-url', LAST_BACKUP_KEY, HEALTH_PROBE_KEY, ESSENTIALS_CHECKED_KEY]

export interface ExportedResource extends ResourceMeta {
  readonly path: string
  /** Binaries only: file name under `blobs/` and the hex SHA-256 of its bytes. */
  readonly file?: string
  readonly sha256?: string
}

export interface ExportCounts {
  resources: number
  containers: number
  rdf: number
  binaries: number
  quads: number
  /** Lines of state.jsonl: system entries plus live records. */
  state: number
}

export interface Manifest {
  readonly kind: typeof EXPORT_KIND
  /** The data format (open-store.ts FORMAT_VERSION) of the data directory the export was taken from. */
  readonly formatVersion: number
  readonly baseUrl: string
  readonly exportedAt: string
  readonly resources: readonly ExportedResource[]
  readonly counts: ExportCounts
}

/** One line of state.jsonl. `records` values are `{ v, exp }` as stored. */
export interface StateLine {
  readonly space: 'system' | 'records'
  readonly key: string
  readonly value: unknown
}

export class ExportError extends UserError {
  override name = 'ExportError'
}

/**
 * Writes the pod in `store` to `destDir`, which must be missing or empty. Quads, blobs and the
 * manifest's resource list are streamed so memory stays flat however large the pod is. Everything
 * is read from one LevelDB snapshot, so a running pod can be exported while it takes writes: the
 * export is the pod as it was at one instant (each write wholly in or wholly out).
 */
export interface ExportOptions {
  /**
   * Hard-link the files instead of copying them, where the destination is on the same disk: for an export
   * that lives only as long as a download (the dashboard's backup). Blob files are never changed in place,
   * so a link is the same bytes; a copy is kept for exports a person keeps and may edit.
   */
  readonly linkFiles?: boolean
  /**
   * A binary whose bytes are in a bucket is not copied but handed here (its file name in the export, and what to
   * read): the dashboard's backup streams it from the bucket into the archive instead (export-archive.ts).
   */
  readonly leaveObject?: (object: LeftObject) => Promise<void>
}

/** A binary of an export left in the bucket: `blobs/<file>` is the object `id`, `size` bytes with this SHA-256. */
export interface LeftObject {
  /** The resource's path, for messages. */
  readonly path: string
  readonly file: string
  readonly id: string
  readonly size: number
  readonly sha256: string
}

export async function exportPod(store: Store, destDir: string, now: number = Date.now(), options: ExportOptions = {}): Promise<ExportCounts> {
  if (existsSync(destDir) && (!statSync(destDir).isDirectory() || readdirSync(destDir).length > 0)) {
    throw new ExportError(`${destDir} is not an empty directory; export needs a new or empty directory`)
  }
  const baseUrl = await getRecordedBaseUrl(store)
  if (baseUrl === undefined) throw new ExportError('this data directory holds no pod yet (no base URL recorded); start it once first')
  mkdirSync(join(destDir, BLOBS_DIR), { recursive: true })
  const snap = openSnapshot(store)
  // The snapshot names blobs that writes meanwhile may replace: they stay until the export is done.
  const release = store.blobs.hold()
  try {
    return await exportSnapshot(store, snap, destDir, baseUrl, now, options)
  } finally {
    release()
    await snap.close()
  }
}

async function exportSnapshot(store: Store, snap: StoreSnapshot, destDir: string, baseUrl: string, now: number, options: ExportOptions): Promise<ExportCounts> {
  const at = { snapshot: snap.snapshot }
  const counts: ExportCounts = { resources: 0, containers: 0, rdf: 0, binaries: 0, quads: 0, state: 0 }
  counts.quads = await writeQuads(snap, join(destDir, QUADS_FILE))
  counts.state = await writeState(store, at, join(destDir, STATE_FILE), now)

  // The manifest is written as a stream too: header, one resource per line, counts last.
  const manifest = await open(join(destDir, MANIFEST_FILE), 'wx')
  try {
    const head = { kind: EXPORT_KIND, formatVersion: await getFormatVersion(store), baseUrl, exportedAt: new Date(now).toISOString() }
    await manifest.write(`${JSON.stringify(head).slice(0, -1)},\n"resources":[`)
    for await (const [path, stored] of store.meta.iterator(at)) {
      // The blob id names a file of this data directory only; the export names its own copy.
      const { blob: _blob, ...meta } = stored
      const entry: ExportedResource =
        meta.kind === 'binary' ? { path, ...meta, ...(await writeBlob(store, path, stored, destDir, counts.binaries, options)) } : { path, ...meta }
      await manifest.write(`${counts.resources === 0 ? '' : ','}\n${JSON.stringify(entry)}`)
      counts.resources++
      counts[countKey(meta.kind)]++
    }
    await manifest.write(`\n],\n"counts":${JSON.stringify(counts)}}\n`)
    await manifest.sync()
  } finally {
    await manifest.close()
  }
  syncDirectory(join(destDir, BLOBS_DIR))
  syncDirectory(destDir)
  return counts
}

const countKey = (kind: ResourceKind) => (kind === 'container' ? 'containers' : kind === 'rdf' ? 'rdf' : 'binaries')

/** Every quad of the store, named graphs included, through n3's StreamWriter (backpressure kept). */
async function writeQuads(snap: StoreSnapshot, file: string): Promise<number> {
  let n = 0
  async function* counted(): AsyncGenerator<Quad> {
    for await (const q of snap.quads.match()) {
      n++
      yield q as Quad
    }
  }
  await pipeline(Readable.from(counted()), new StreamWriter({ format: 'N-Quads' }), createWriteStream(file, { flags: 'wx' }))
  await syncFile(file)
  return n
}

/** The `system` and `records` sublevels as JSON lines; expired records are left behind. */
async function writeState(store: Store, at: { snapshot: unknown }, file: string, now: number): Promise<number> {
  const out = await open(file, 'wx')
  let n = 0
  const line = async (l: StateLine) => {
    await out.write(`${JSON.stringify(l)}\n`)
    n++
  }
  try {
    for await (const [key, value] of store.system.iterator(at)) {
      if (!DIRECTORY_KEYS.includes(key)) await line({ space: 'system', key, value })
    }
    for await (const [key, value] of store.records.iterator(at)) {
      if (value.exp > now) await line({ space: 'records', key, value })
    }
    await out.sync()
  } finally {
    await out.close()
  }
  return n
}

/**
 * One binary, byte for byte, under a numbered name (paths may hold anything a file name may not); copied by
 * the kernel (or linked), never read into memory. Its SHA-256 was taken when it was stored.
 */
async function writeBlob(
  store: Store,
  path: string,
  meta: ResourceMeta,
  destDir: string,
  index: number,
  options: ExportOptions,
): Promise<{ file: string; sha256: string }> {
  const damaged = () => new ExportError(`the store lists binary ${path} but holds no file for it; the data directory is damaged`)
  if (meta.blob === undefined || meta.sha256 === undefined) throw damaged()
  const file = `${String(index).padStart(6, '0')}.bin`
  const dest = join(destDir, BLOBS_DIR, file)
  const source = store.blobs.localFile(meta.blob)
  if (source === undefined && options.leaveObject) {
    await options.leaveObject({ path, file, id: meta.blob, size: meta.size, sha256: meta.sha256 })
    return { file, sha256: meta.sha256 }
  }
  if (source === undefined) {
    await copyObject(store, path, meta.blob, meta.sha256, dest)
    return { file, sha256: meta.sha256 }
  }
  if (!existsSync(source)) throw damaged()
  if (!(options.linkFiles && tryLink(source, dest))) {
    await copyFile(source, dest, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE)
    await syncFile(dest)
  }
  return { file, sha256: meta.sha256 }
}

/**
 * An object store's blob streamed into the export (a part at a time, never whole in memory), its SHA-256 checked
 * on the way: an export restores what the records say, or fails.
 */
async function copyObject(store: Store, path: string, id: string, sha256: string, dest: string): Promise<void> {
  await pipeline(Readable.from(await checkedObject(store, path, id, sha256)), createWriteStream(dest, { flags: 'wx' }))
  await syncFile(dest)
}

/**
 * The bytes of the object `id` as they come from the bucket; it fails (after its last chunk) when they are not
 * those of `sha256`. For the export's copy and the backup's archive (export-archive.ts).
 */
export async function checkedObject(store: Store, path: string, id: string, sha256: string): Promise<AsyncIterable<Uint8Array>> {
  let opened
  try {
    opened = await store.blobs.open(id)
  } catch (err) {
    if (err instanceof BlobStoreUnavailable) throw new ExportError(`binary ${path}: ${err.message}`, { cause: err })
    throw new ExportError(`the store lists binary ${path} but its object is missing from ${store.blobs.location}; the data directory is damaged`, {
      cause: err,
    })
  }
  const stream: ReadableStream<Uint8Array> = opened instanceof Blob ? opened.stream() : opened
  return (async function* hashed(): AsyncGenerator<Uint8Array> {
    const hash = new Bun.CryptoHasher('sha256')
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk)
      yield chunk
    }
    if (hash.digest('hex') !== sha256)
      throw new ExportError(`binary ${path}: its object in ${store.blobs.location} is not the bytes recorded (solopod blobs check)`)
  })()
}

/** A hard link, when the destination is on the blob's own disk. */
function tryLink(source: string, dest: string): boolean {
  try {
    linkSync(source, dest)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EXDEV' || (err as NodeJS.ErrnoException).code === 'EPERM') return false
    throw err
  }
}

/** New files are durable only once their directory entries are on disk too. */
export function syncDirectory(dir: string) {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

async function syncFile(file: string) {
  const handle = await open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
