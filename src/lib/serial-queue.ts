// Runs async steps one after another, in call order: a lock for one process without per-key bookkeeping.

export type SerialQueue = <T>(fn: () => Promise<T>) => Promise<T>

/** A failed step does not stop the queue; its caller sees the failure. */
export function makeSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => undefined)
    return run
  }
}
