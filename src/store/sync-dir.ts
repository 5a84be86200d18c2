// A directory's entries made durable: a file's own fsync makes its bytes durable, not its name.

import { closeSync, fsyncSync, openSync } from 'node:fs'

export function syncDir(dir: string) {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
