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

export type KeyedSerialQueue = <T>(key: string, fn: () => Promise<T>) => Promise<T>

/** A SerialQueue per key (steps of different keys run side by side), forgotten once its last step has settled. */
export function makeKeyedSerialQueue(): KeyedSerialQueue {
  const tails = new Map<string, Promise<unknown>>()
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn, fn)
    const tail = run.catch(() => undefined)
    tails.set(key, tail)
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return run
  }
}
