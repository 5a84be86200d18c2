// A pod export as one downloadable file: the export directory of `solopod export`, packed as a
// gzip-compressed tar archive, and unpacked again for `solopod import`.

import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pipeline, Readable } from 'node:stream'
import { pipeline as pipelined } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import * as tar from 'tar'
import type { Store } from './open-store.ts'
import { BLOBS_DIR, checkedObject, exportPod, MANIFEST_FILE, type ExportCounts, type LeftObject } from './export-pod.ts'
import { tarStream, type TarEntry } from '../lib/tar-stream.ts'
import { ImportError } from './import-pod.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { BACKUP_FOLDER_PREFIX } from './backup-folders.ts'

export const ARCHIVE_TYPE = 'application/gzip'
/**
 * How much of a file is read at once: tar's default was 16 MiB, a new buffer per read, which kept the pod's RSS
 * ~150 MB above idle while a 300 MiB file went out; 1 MiB reads keep it near the 16 MiB below.
 */
const READ_BYTES = 1024 * 1024
/** The archive's chunks (and the reads and gzip's buffers behind them) are collected this often. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024
/** Beside the export folder, outside the archive: one line per binary left in the bucket (LeftObject). */
const OBJECTS_FILE = 'objects.jsonl'

export interface ExportArchive {
  /** The archive's file name, and the one folder inside it: `solopod-backup-20261125T033000Z`. */
  readonly name: string
  readonly counts: ExportCounts
  readonly exportedAt: number
  /** The archive's bytes; the export folder is removed once the stream ends or is cancelled. */
  readonly body: ReadableStream<Uint8Array>
  /** Settles when the last byte was handed out (true) or the stream failed or was cancelled (false). */
  readonly delivered: Promise<boolean>
}

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/**
 * Exports `store` from one snapshot into a new folder below `workDir` and streams it as a tar.gz (the export's
 * files need their sizes in the tar headers, so they are written first). Binaries in a bucket are not copied to
 * the disk: each is read from the bucket when the archive reaches it (its size is recorded, its SHA-256 checked
 * on the way), the bucket's objects held until the archive is sent. The folder lives only as long as the stream:
 * it holds the pod's keys and password hash.
 */
export async function openExportArchive(store: Store, workDir: string, now: number): Promise<ExportArchive> {
  const holder = mkdtempSync(join(workDir, BACKUP_FOLDER_PREFIX))
  const name = `solopod-backup-${stamp(now)}`
  // The snapshot's objects stay until the archive has read them, not only until the export folder is written.
  const release = store.blobs.hold()
  const cleanUp = () => {
    release()
    rmSync(holder, { recursive: true, force: true })
  }
  let counts: ExportCounts
  const objectsFile = join(holder, OBJECTS_FILE)
  try {
    const objects = await open(objectsFile, 'wx')
    try {
      const leaveObject = async (o: LeftObject) => void (await objects.write(`${JSON.stringify(o)}\n`))
      counts = await exportPod(store, join(holder, name), now, { linkFiles: true, leaveObject })
    } finally {
      await objects.close()
    }
  } catch (err) {
    cleanUp()
    throw err
  }
  const packed = tarStream(archiveEntries(store, holder, name, objectsFile))
  // Gzip reads the tar as it needs it: pipeline's backpressure, and its end or failure tears both down.
  const gzip = pipeline(Readable.from(packed, { objectMode: false, highWaterMark: READ_BYTES }), createGzip(), () => {})
  const chunks = gzip[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>
  let settle: (ok: boolean) => void = () => {}
  const delivered = new Promise<boolean>(resolve => {
    settle = resolve
  })
  let ended = false
  const finish = (whole: boolean) => {
    if (ended) return
    ended = true
    cleanUp()
    settle(whole)
  }
  let cancelled = false
  let reading: Promise<unknown> = Promise.resolve()
  const noteSent = collectEvery(COLLECT_EVERY_BYTES)
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.next()
      reading = next.catch(() => undefined)
      let chunk: IteratorResult<Uint8Array>
      try {
        chunk = await next
      } catch (err) {
        if (!cancelled) controller.error(err)
        finish(false)
        return
      }
      if (cancelled) return
      if (chunk.done) {
        controller.close()
        finish(true)
        return
      }
      controller.enqueue(new Uint8Array(chunk.value))
      noteSent(chunk.value.byteLength)
    },
    // Stops reading the folder and the bucket; the folder goes once the read under way has ended.
    async cancel() {
      cancelled = true
      gzip.destroy()
      await reading
      finish(false)
    },
  })
  return { name, counts, exportedAt: now, body, delivered }
}

/** The export folder's entries (the folder first, then what it holds), then the binaries left in the bucket. */
async function* archiveEntries(store: Store, holder: string, name: string, objectsFile: string): AsyncGenerator<TarEntry> {
  const folder = (path: string): TarEntry => {
    const st = statSync(join(holder, path))
    return { path, type: 'directory', mode: st.mode, mtimeMs: st.mtimeMs }
  }
  const file = (path: string): TarEntry => {
    const st = statSync(join(holder, path))
    return {
      path,
      type: 'file',
      mode: st.mode,
      mtimeMs: st.mtimeMs,
      size: st.size,
      body: () => createReadStream(join(holder, path), { highWaterMark: READ_BYTES }),
    }
  }
  yield folder(name)
  for (const entry of readdirSync(join(holder, name)).sort()) {
    if (entry !== BLOBS_DIR) yield file(`${name}/${entry}`)
  }
  const blobs = `${name}/${BLOBS_DIR}`
  const blobsFolder = folder(blobs)
  yield blobsFolder
  for (const entry of readdirSync(join(holder, blobs)).sort()) yield file(`${blobs}/${entry}`)
  const lines = createInterface({ input: createReadStream(objectsFile, 'utf8'), crlfDelay: Infinity })
  for await (const line of lines) {
    if (line === '') continue
    const o = JSON.parse(line) as LeftObject
    // Mode and time of an exported file: what `solopod export` gives the copy it writes.
    yield {
      path: `${blobs}/${o.file}`,
      type: 'file',
      mode: 0o600,
      mtimeMs: blobsFolder.mtimeMs,
      size: o.size,
      body: () => checkedObject(store, o.path, o.id, o.sha256),
    }
  }
}

/** Where an archive's entry goes: a binary (`blobs/<file>`) or one of the export's other files, at its root or below one folder. */
const EXPORT_ENTRY = /^(?:([^/]+)\/)?(?:blobs\/([\w.-]+)|(manifest\.json|pod\.nq|state\.jsonl))$/

/** Hands a binary of the archive (its file name under `blobs/`) to the importer, which streams it into the new pod's store. */
export type StoreArchivedBlob = (file: string, bytes: AsyncIterable<Uint8Array>) => Promise<void>

/**
 * Unpacks an archive made by openExportArchive (or `tar -czf` of an export folder) into a new folder below
 * `workDir`, read once as a stream, and returns that folder (the caller removes it when done). Only plain files
 * and folders are taken (no links or devices), and only the export's own names: any path outside them is skipped.
 * With `storeBlob`, each binary streams straight into the new pod's store as the archive reaches it (a bucket
 * then gets its bytes without a copy on the local disk); without, it is written to the folder's `blobs/`.
 */
export async function unpackExportArchive(file: string, workDir: string, storeBlob?: StoreArchivedBlob): Promise<{ holder: string; exportDir: string }> {
  const holder = mkdtempSync(join(workDir, '.solopod-import-'))
  mkdirSync(join(holder, BLOBS_DIR))
  const toFile = (bytes: AsyncIterable<Uint8Array>, dest: string) => pipelined(Readable.from(bytes), createWriteStream(dest, { flags: 'wx' }))
  let refused: string | undefined
  let failed: unknown
  const tops = new Set<string>()
  const handled: Promise<void>[] = []
  const take = async (entry: tar.ReadEntry) => {
    const path = entry.path.replace(/^(?:\.\/)+/, '')
    const found = EXPORT_ENTRY.exec(path)
    if (failed !== undefined || entry.type === 'Directory' || !found) return void entry.resume()
    if (entry.type !== 'File') {
      refused ??= `${entry.path} (${entry.type})`
      return void entry.resume()
    }
    const [, top = '', blob, other] = found
    tops.add(top)
    try {
      if (blob === undefined) await toFile(entry, join(holder, other!))
      else if (storeBlob) await storeBlob(blob, entry)
      else await toFile(entry, join(holder, BLOBS_DIR, blob))
    } catch (err) {
      failed ??= err
      // The rest of this entry is read past: the parser goes on to the end, and the failure is told then.
      entry.resume()
    }
  }
  try {
    const parser = new tar.Parser({ strict: true, onReadEntry: entry => void handled.push(take(entry)) })
    const ended = new Promise<void>((resolve, reject) => {
      parser.on('error', reject)
      parser.on('end', resolve)
    })
    ended.catch(() => undefined)
    for await (const chunk of createReadStream(file, { highWaterMark: READ_BYTES })) {
      // The parser waits for the entry being read (a binary going to the bucket) before it takes more.
      if (!parser.write(chunk as Buffer)) await Promise.race([new Promise(resolve => parser.once('drain', resolve)), ended])
    }
    parser.end()
    await ended
    await Promise.all(handled)
    if (failed !== undefined) throw failed
    if (refused) throw new ImportError(`${file} holds ${refused}, which is not part of a solopod export`)
    if (!existsSync(join(holder, MANIFEST_FILE))) throw new ImportError(`${file} holds no ${MANIFEST_FILE}: it is not a solopod export archive`)
    if (tops.size > 1) throw new ImportError(`${file} holds more than one export (${[...tops].join(', ')}): it is not a solopod export archive`)
    return { holder, exportDir: holder }
  } catch (err) {
    rmSync(holder, { recursive: true, force: true })
    if (err instanceof ImportError) throw err
    throw new ImportError(`${file} is not a readable tar.gz archive (${err instanceof Error ? err.message : String(err)})`)
  }
}
