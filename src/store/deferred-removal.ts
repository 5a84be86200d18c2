// When a blob no resource names any more is really removed: a little later, and not while a reader holds the store.

/**
 * A replaced or deleted blob stays this long: a GET that read the old metadata a moment before opens its bytes
 * after. A crash meanwhile leaves it to the start-up sweep.
 */
export const REMOVE_AFTER_MS = 30_000

/** `remove` and `hold` of a blob store (blob-store.ts) over the store's own `removeNow`. */
export function makeDeferredRemoval(removeNow: (id: string) => void): {
  remove(id: string): void
  hold(): () => void
  /** True while the blob may still be read: its removal waits, or a hold keeps every blob (a sweep leaves it). */
  mayBeRead(id: string): boolean
} {
  let holds = 0
  let deferred: string[] = []
  const waiting = new Set<string>()
  const later = (id: string) => {
    setTimeout(() => {
      waiting.delete(id)
      removeNow(id)
    }, REMOVE_AFTER_MS).unref()
  }
  return {
    mayBeRead: id => holds > 0 || waiting.has(id),
    remove(id) {
      waiting.add(id)
      if (holds > 0) deferred.push(id)
      else later(id)
    },
    hold() {
      holds++
      let released = false
      return () => {
        if (released) return
        released = true
        if (--holds > 0) return
        const ids = deferred
        deferred = []
        for (const id of ids) later(id)
      }
    },
  }
}
