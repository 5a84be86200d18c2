// `solopod export DEST`: the pod's data to a directory, asked of the running server when one holds the database.

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ConfigError, type Config } from '../config.ts'
import { openDataDir } from '../pod.ts'
import { recordBackup } from '../store/last-backup.ts'
import { requestExport } from '../server/control-socket.ts'

export async function exportCommand(cfg: Config): Promise<void> {
  if (!cfg.args[0]) throw new ConfigError('export needs a destination directory: solopod export DEST')
  const dest = resolve(cfg.args[0])
  if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod to export (see --data)`)
  // A running pod holds the database: it exports a snapshot itself (server/control-socket.ts).
  if (await requestExport(cfg.dataDir, dest)) {
    console.log(`solopod: exported the running pod at ${cfg.dataDir} to ${dest}`)
    return
  }
  const { exportPod } = await import('../store/export-pod.ts')
  // A pod whose bytes are in a bucket is exported with the flags it runs with: its bytes come from there.
  const store = await openDataDir(cfg.dataDir, Date.now(), cfg.s3 ? { s3: cfg.s3 } : {})
  try {
    const at = Date.now()
    const counts = await exportPod(store, dest, at)
    await recordBackup(store, { at: new Date(at).toISOString(), via: 'export', resources: counts.resources })
  } finally {
    await store.close()
  }
  console.log(`solopod: exported ${cfg.dataDir} to ${dest}`)
}
