// The owner's backup: POST /.admin/backup answers with the pod as one tar.gz archive (the export
// folder of `solopod export`, from one database snapshot); GET /.admin/api/backup says when the last
// backup was made.

import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { log } from '../log.ts'
import { ARCHIVE_TYPE, openExportArchive, removeLeftoverArchives } from '../store/export-archive.ts'
import { getLastBackup, recordBackup } from '../store/last-backup.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now'>

/** Below the data directory (0700): the export folder being packed holds the pod's keys. */
const WORK_DIR = 'tmp'

export function makeBackups(deps: AdminDeps) {
  const workDir = join(deps.cfg.dataDir, WORK_DIR)
  // A folder left by a process that stopped mid-download holds a copy of the pod: gone at start
  removeLeftoverArchives(workDir)
  let running = false

  /** One at a time: each holds a database snapshot and a copy of the pod on disk until it is sent. */
  async function download(): Promise<Response> {
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
    void archive.delivered.then(async (whole) => {
      try {
        if (!whole) { log.warn('backup.interrupted', { resources: counts.resources }); return }
        await recordBackup(deps.store, { at: new Date(exportedAt).toISOString(), via: 'download', resources: counts.resources })
        log.info('backup.downloaded', { resources: counts.resources, quads: counts.quads })
      } finally { running = false }
    })
    return new Response(archive.body, {
      headers: {
        'content-type': ARCHIVE_TYPE,
        'content-disposition': `attachment; filename="${name}.tar.gz"`,
        'cache-control': 'no-store',
      },
    })
  }

  async function lastBackup() {
    return { last: (await getLastBackup(deps.store)) ?? null }
  }

  return { download, lastBackup }
}
