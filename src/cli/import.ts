// `solopod import SRC`: a new data directory from an export directory or a dashboard backup (.tar.gz).

import { existsSync, statSync } from 'node:fs'
import { ConfigError, type Config } from '../config.ts'

export async function importCommand(cfg: Config): Promise<void> {
  const src = cfg.args[0]
  if (!src) throw new ConfigError('import needs a source: an export directory or a backup archive (.tar.gz): solopod import SRC')
  // The import writes the keys into a new data directory: it must be private from its first file
  // (import-pod.ts builds it beside the target and moves it in, so an empty target's own mode goes).
  process.umask(0o077)
  const { importPod, importArchive } = await import('../store/import-pod.ts')
  // A backup downloaded from the dashboard: read once, its binaries streamed into the new pod's store
  if (existsSync(src) && statSync(src).isFile())
    await importArchive(cfg.dataDir, src, cfg.baseUrl, cfg.s3, (await import('../store/export-archive.ts')).unpackExportArchive)
  else await importPod(cfg.dataDir, src, cfg.baseUrl, cfg.s3)
  console.log(`solopod: imported ${src} into ${cfg.dataDir} for ${cfg.baseUrl}`)
}
