// Free space of the filesystem that holds a directory, as an unprivileged writer may use it.

import { statfsSync } from 'node:fs'

export function freeBytesAt(dir: string): number {
  const s = statfsSync(dir)
  // bavail, not bfree: the blocks the filesystem keeps for root are not ours to count on.
  return s.bavail * s.bsize
}

/** The size of the filesystem that holds a directory: what `--versions-disk-share` is a share of. */
export function totalBytesAt(dir: string): number {
  const s = statfsSync(dir)
  return s.blocks * s.bsize
}
