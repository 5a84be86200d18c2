// A pod export as one downloadable file: the export directory of `solopod export`, packed as a
// gzip-compressed tar archive, and unpacked again for `solopod import`.

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import * as tar from 'tar'
import type { Store } from './open-store.ts'
import { exportPod, MANIFEST_FILE, type ExportCounts } from './export-pod.ts'
import { ImportError } from './import-pod.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { BACKUP_FOLDER_PREFIX } from './backup-folders.ts'

export const ARCHIVE_TYPE = 'application/gzip'
/**
 * How much of a file the packer reads at once: tar's default is 16 MiB, a new buffer per read, which kept
 * the pod's RSS ~150 MB above idle while a 300 MiB file went out; 1 MiB reads keep it near the 16 MiB below.
 */
const READ_BYTES = 1024 * 1024
/** The archive's chunks (and the packer's reads and gzip's buffers behind them) are collected this often. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024

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
 * Exports `store` from one snapshot into a new folder below `workDir` and streams it as a tar.gz
 * (the export's files need their sizes in the tar headers, so they are written first). The folder
 * lives only as long as the stream: it holds the pod's keys and password hash.
 */
export async function openExportArchive(store: Store, workDir: string, now: number): Promise<ExportArchive> {
  const holder = mkdtempSync(join(workDir, BACKUP_FOLDER_PREFIX))
  const name = `solopod-backup-${stamp(now)}`
  const cleanUp = () => rmSync(holder, { recursive: true, force: true })
  let counts: ExportCounts
  try {
    counts = await exportPod(store, join(holder, name), now, { linkFiles: true })
  } catch (err) {
    cleanUp()
    throw err
  }
  // portable: no owner names or ids of this machine in the headers; file modes (0600) are kept
  const pack = tar.c({ cwd: holder, gzip: true, portable: true, maxReadSize: READ_BYTES }, [name]) as unknown as AsyncIterable<Uint8Array>
  const chunks = pack[Symbol.asyncIterator]()
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
    // The packer still reads the folder: it runs to its end, unread, before the folder goes
    async cancel() {
      cancelled = true
      await reading
      try {
        for (let c = await chunks.next(); !c.done; c = await chunks.next()) {
          /* discarded */
        }
      } catch {
        /* removed anyway */
      }
      finish(false)
    },
  })
  return { name, counts, exportedAt: now, body, delivered }
}

/**
 * Unpacks an archive made by openExportArchive (or `tar -czf` of an export folder) into a new
 * folder below `workDir` and returns the export folder inside it. Only plain files and folders are
 * taken (no links, devices or absolute paths); the caller removes `holder` when done.
 */
export async function unpackExportArchive(file: string, workDir: string): Promise<{ holder: string; exportDir: string }> {
  const holder = mkdtempSync(join(workDir, '.solopod-import-'))
  try {
    let refused: string | undefined
    await tar.x({
      file,
      cwd: holder,
      strict: true,
      preservePaths: false,
      filter: (path, entry) => {
        const type = (entry as { type?: string }).type
        if (type === 'File' || type === 'Directory') return true
        refused ??= `${path} (${type})`
        return false
      },
    })
    if (refused) throw new ImportError(`${file} holds ${refused}, which is not part of a solopod export`)
    const exportDir = findExportDir(holder)
    if (!exportDir) throw new ImportError(`${file} holds no ${MANIFEST_FILE}: it is not a solopod export archive`)
    return { holder, exportDir }
  } catch (err) {
    rmSync(holder, { recursive: true, force: true })
    if (err instanceof ImportError) throw err
    throw new ImportError(`${file} is not a readable tar.gz archive (${err instanceof Error ? err.message : String(err)})`)
  }
}

/** The archive's root, or its one top folder, holding the manifest. */
function findExportDir(root: string): string | undefined {
  if (existsSync(join(root, MANIFEST_FILE))) return root
  const entries = readdirSync(root)
  const only = entries.length === 1 ? join(root, entries[0]!) : undefined
  return only && statSync(only).isDirectory() && existsSync(join(only, MANIFEST_FILE)) ? only : undefined
}
