// Counts the requests the pod is still handling, so a stop closes the database only after them.

/**
 * Bun's `server.stop()` waits for requests whose client is still connected; a client that gave up
 * (a timeout, a closed tab, wrk at the end of its run) leaves its handler running, and closing the
 * database under it failed those writes with "Database is not open" (500s logged on every stop
 * after load). Handlers are counted until their promise settles, whatever the client did.
 */
export interface InFlight {
  track<T>(work: Promise<T>): Promise<T>
  readonly count: number
  /** Resolves true once nothing is in flight, or false after `timeoutMs` with work still running. */
  drained(timeoutMs: number): Promise<boolean>
}

export function makeInFlight(): InFlight {
  let count = 0
  let idle: (() => void)[] = []
  const done = () => {
    if (--count === 0) for (const wake of idle.splice(0)) wake()
  }
  return {
    track(work) {
      count++
      work.then(done, done)
      return work
    },
    get count() {
      return count
    },
    drained(timeoutMs) {
      if (count === 0) return Promise.resolve(true)
      return new Promise<boolean>(resolve => {
        const timer = setTimeout(() => resolve(false), timeoutMs)
        idle.push(() => {
          clearTimeout(timer)
          resolve(true)
        })
      })
    },
  }
}
