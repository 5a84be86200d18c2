// The folders a dashboard backup is packed in, below the data directory's `tmp/`: each lives as long as its
// download, and one a stopped process left behind (it holds a copy of the pod) is removed.

import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** The name of each backup's folder starts so (mkdtemp adds the rest). */
export const BACKUP_FOLDER_PREFIX = 'backup-'

/** Folders left by a process that died while streaming an archive. */
export function removeLeftoverArchives(workDir: string): void {
  if (!existsSync(workDir)) return
  for (const entry of readdirSync(workDir)) if (entry.startsWith(BACKUP_FOLDER_PREFIX)) rmSync(join(workDir, entry), { recursive: true, force: true })
}
