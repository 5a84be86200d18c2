// Caches an idle pod empties: what they hold is recomputed from the store (or the request) on the next miss.
//
// Measured after the bench's workloads (docs/performance.md "What stays after load"): their entries,
// allocated among the load's garbage, keep ~10 MB of JavaScriptCore heap blocks (and so mimalloc pages)
// resident that no collection gives back; emptied, the next full collection frees those blocks
// (heap capacity 17 → 7 MB, RSS −9 MB). Only caches whose loss costs a recomputation belong here, never
// state (pending logins, replay memories, rate windows) nor what costs a remote fetch.

interface Clearable {
  clear(): void
}

/** Weakly held: a pod closed in a test process must not be kept alive by its caches' registration. */
const caches = new Set<WeakRef<Clearable>>()

/** Registers `cache` to be emptied when the pod has been idle a while (lib/memory-reclaimer.ts); returns it. */
export function forgetWhenIdle<C extends Clearable>(cache: C): C {
  caches.add(new WeakRef(cache))
  return cache
}

/** Empties every registered cache still alive; returns how many. */
export function forgetIdleCaches(): number {
  let n = 0
  for (const ref of caches) {
    const cache = ref.deref()
    if (!cache) {
      caches.delete(ref)
      continue
    }
    cache.clear()
    n++
  }
  return n
}
