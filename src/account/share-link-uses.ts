// How often each share link was used (issue 38), counted cheaply: a use is counted in memory and the counts are
// written together, within a few seconds and when the pod closes, so a burst of requests through a link costs one
// write, not a synced write each. What counts as a use is the link face's to say (links/plugin.ts): only what was
// served. A download limit is not counted here: it must hold exactly across a crash (countShareLinkDownload).

import type { Store } from '../store/open-store.ts'
import { addShareLinkUses, shareLinkKey } from './share-links.ts'

/** Counts wait at most this long in memory. */
export const LINK_USES_FLUSH_MS = 2000

export interface LinkUses {
  /** One more use of the link `token` opens. */
  count(token: string): void
  /** Uses of the link with this record key (`shareLinkKey`) not yet written: listings add them. */
  pending(key: string): number
  /** Writes every count so far. */
  flush(): Promise<void>
  /** Stops the timer and writes what is left (when the pod closes). */
  close(): Promise<void>
}

export function makeLinkUses(store: Store, now: () => number, opts: { flushMs?: number; onError?: (err: unknown) => void } = {}): LinkUses {
  const flushMs = opts.flushMs ?? LINK_USES_FLUSH_MS
  let counts = new Map<string, number>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> = Promise.resolve()
  /** Counts taken for a write not yet done: still pending to a listing meanwhile. */
  const inWrite = new Set<ReadonlyMap<string, number>>()

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const taken = counts
    counts = new Map()
    if (taken.size === 0) return writing
    inWrite.add(taken)
    // One write at a time, in the order counted; a failed write loses its counts, never a later one's
    writing = writing
      .then(() => addShareLinkUses(store, taken, now()))
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => inWrite.delete(taken))
    return writing
  }

  return {
    count(token) {
      const key = shareLinkKey(token)
      counts.set(key, (counts.get(key) ?? 0) + 1)
      if (timer === undefined) {
        timer = setTimeout(() => void flush(), flushMs)
        // A count waiting never keeps the process alive: close() writes it
        timer.unref?.()
      }
    },
    pending: key => [counts, ...inWrite].reduce((n, m) => n + (m.get(key) ?? 0), 0),
    flush,
    close: flush,
  }
}
