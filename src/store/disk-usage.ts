// How much the data directory holds and how much room its disk has left, for the dashboard and the metrics.

import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { freeBytesAt } from './disk-space.ts'

export interface DiskUsage {
  /** Bytes of every file under the data directory: database, files, uploads, backups being made. */
  readonly usedBytes: number
  /** Bytes of the database alone (DATA/db). */
  readonly storeBytes: number
  /** What an unprivileged writer may still use on the data directory's disk. */
  readonly freeBytes: number
}

/** A walk of the files is the only exact answer; it costs a stat per file, so an answer is kept a minute. */
const KEEP_MS = 60_000

export function makeDiskUsage(dataDir: string, now: () => number): () => Promise<DiskUsage> {
  let kept: { at: number; usage: Promise<DiskUsage> } | undefined
  return () => {
    if (kept && now() - kept.at < KEEP_MS) return kept.usage
    const usage = measure(dataDir)
    kept = { at: now(), usage }
    // a failed walk is not kept: the next asker tries again
    usage.catch(() => {
      kept = undefined
    })
    return usage
  }
}

async function measure(dataDir: string): Promise<DiskUsage> {
  const storeBytes = await bytesUnder(join(dataDir, 'db'))
  const rest = await bytesUnder(dataDir, 'db')
  return { usedBytes: storeBytes + rest, storeBytes, freeBytes: freeBytesAt(dataDir) }
}

/** Bytes of the regular files below `dir` (symbolic links not followed), leaving out the entry `skip` of `dir`. */
async function bytesUnder(dir: string, skip?: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === skip) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += await bytesUnder(path)
    else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size
  }
  return total
}
