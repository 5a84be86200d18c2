// The pod's backups (deps.backups): the dashboard's archive of the whole pod, one at a time, and the record of the
// last backup made. Not a resource of the pod: the owner's pages reach it only through here.

import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import { HttpError } from '../http/errors.ts'
import { log } from '../log.ts'
import type { Store } from './open-store.ts'
import { removeLeftoverArchives } from './backup-folders.ts'
import { getLastBackup, recordBackup, type BackupRecord } from './last-backup.ts'

/** The archive code (the export, tar) loads with the first backup, not on every start of the pod (docs/performance.md). */
const loadArchive = () => import('./export-archive.ts')

/** Below the data directory (0700): the export folder being packed holds the pod's keys. */
const WORK_DIR = 'tmp'

export interface BackupDownload {
  /** The archive's file name without `.tar.gz`, and the one folder inside it. */
  readonly name: string
  /** Its media type (a gzip-compressed tar). */
  readonly contentType: string
  /** The archive's bytes; its export folder is removed once they are sent or cancelled. */
  readonly body: ReadableStream<Uint8Array>
}

export interface PodBackups {
  /** The pod as one archive from one database snapshot (409 `backup_running` while another is being sent); recorded as the last backup once delivered whole. */
  download(): Promise<BackupDownload>
  /** The last backup made (the dashboard's download or `solopod export`), if any. */
  last(): Promise<BackupRecord | undefined>
}

export function makePodBackups(deps: { readonly store: Store; readonly dataDir: string; readonly now: () => number }): PodBackups {
  const workDir = join(deps.dataDir, WORK_DIR)
  // A folder left by a process that stopped mid-download holds a copy of the pod: gone at start
  removeLeftoverArchives(workDir)
  let running = false

  /** One at a time: each holds a database snapshot and a copy of the pod on disk until it is sent. */
  async function download(): Promise<BackupDownload> {
    const { ARCHIVE_TYPE, openExportArchive } = await loadArchive()
    if (running) throw new HttpError(409, 'backup_running', 'a backup is being made right now; wait until its download has finished, then try again')
    running = true
    let archive
    try {
      mkdirSync(workDir, { recursive: true, mode: 0o700 })
      removeLeftoverArchives(workDir)
      archive = await openExportArchive(deps.store, workDir, deps.now())
    } catch (err) {
      running = false
      throw err
    }
    const { name, counts, exportedAt } = archive
    // "last backup" is the last one the browser received whole, not one that broke off on the way
    void archive.delivered.then(async whole => {
      try {
        if (!whole) {
          log.warn('backup.interrupted', { resources: counts.resources })
          return
        }
        await recordBackup(deps.store, { at: new Date(exportedAt).toISOString(), via: 'download', resources: counts.resources })
        log.info('backup.downloaded', { resources: counts.resources, quads: counts.quads })
      } finally {
        running = false
      }
    })
    return { name, contentType: ARCHIVE_TYPE, body: archive.body }
  }

  return { download, last: () => getLastBackup(deps.store) }
}
