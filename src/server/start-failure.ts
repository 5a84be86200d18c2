// What the person at the terminal reads when the pod cannot start for a reason of the machine's (a data directory
// it may not write, a full disk, a path through a file): one sentence naming the path and what to do, never a raw
// errno. The full cause goes to the log at debug level.

const BY_CODE: Record<string, (path: string) => string> = {
  EACCES: p => `this user may not write ${p}: give --data a directory it owns, or change the owner of that one`,
  EPERM: p => `this user may not write ${p}: give --data a directory it owns, or change the owner of that one`,
  EROFS: p => `${p} is on a read-only file system: give --data a directory on a writable disk`,
  ENOSPC: p => `the disk holding ${p} is full: free some space, then start again`,
  ENOTDIR: p => `${p} goes through a file, not a directory: give --data a directory's path`,
  EEXIST: p => `${p} exists and is not a directory: give --data a directory's path`,
  EMFILE: () => 'this process may open no more files: raise the limit (ulimit -n), then start again',
}

/** A sentence for a failure of the machine's, or undefined when the error is not one (then it is a bug). */
export function describeStartFailure(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException | undefined
  const code = e?.code
  if (typeof code !== 'string' || !(code in BY_CODE)) return undefined
  return BY_CODE[code]!(typeof e?.path === 'string' ? e.path : 'the data directory')
}
