// Which request holds each resumable upload now (IETF draft-ietf-httpbis-resumable-upload §4.7): one at a time, a newcomer takes over.

/**
 * §4.7 Concurrency: one request at a time per upload, and a new one stops the append under way (whose
 * client has most likely gone, though its connection is not closed yet) instead of waiting for it.
 */
export interface UploadSessions {
  exclusive<T>(id: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>
}

export function makeUploadSessions(): UploadSessions {
  const tails = new Map<string, Promise<unknown>>()
  const running = new Map<string, AbortController>()
  return {
    exclusive(id, fn) {
      running.get(id)?.abort()
      const controller = new AbortController()
      const run = (tails.get(id) ?? Promise.resolve())
        .then(() => {
          running.set(id, controller)
          return fn(controller.signal)
        })
        .finally(() => {
          if (running.get(id) === controller) running.delete(id)
        })
      const tail = run.catch(() => undefined)
      tails.set(id, tail)
      void tail.then(() => {
        if (tails.get(id) === tail) tails.delete(id)
      })
      return run
    },
  }
}
