// The data directory is private to the pod's user: it holds the signing keys' private JWKs and the password hash.

import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { UserError } from './lib/user-error.ts'

export class DataDirError extends UserError {}

/** Files the pod did not make, which may sit in an unused data directory (the checkout's `data/.gitkeep`). */
const IGNORABLE = new Set(['.gitkeep'])

/**
 * Called once before anything is written. The umask makes every directory the process creates 0700
 * and every file 0600 — LevelDB's own files included, which no option of classic-level controls.
 * A directory that already holds data and is open to group or others is refused, not silently
 * tightened: its contents may have been readable for a while, and the operator should know.
 */
export function prepareDataDir(dataDir: string): void {
  process.umask(0o077)
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    return
  }
  const stat = statSync(dataDir)
  if (!stat.isDirectory()) throw new DataDirError(`${dataDir} exists and is not a directory: give --data a directory's path`)
  const mode = stat.mode & 0o777
  if ((mode & 0o077) === 0) return
  const unused = readdirSync(dataDir).every(name => IGNORABLE.has(name))
  if (unused) {
    chmodSync(dataDir, 0o700)
    return
  }
  throw new DataDirError(
    `the data directory ${dataDir} is open to other users (mode ${mode.toString(8)}); it holds the pod's private signing keys and password hash. ` +
      `Run: chmod 700 ${dataDir}  (and consider rotating the signing keys in /.admin if others had access)`,
  )
}
