// Serialises resource writes so a precondition check and the write it guards are one step.

/**
 * One owner, one process: a single queue is simpler than per-path locks and keeps
 * cross-resource invariants (a parent container created by two PUTs at once) safe.
 * Throughput is bounded by fsync anyway (DESIGN §4).
 */
export function makeWriteLock() {
  let tail: Promise<unknown> = Promise.resolve()
  return function withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn)
    tail = run.catch(() => undefined)
    return run
  }
}

export type WithWriteLock = ReturnType<typeof makeWriteLock>
