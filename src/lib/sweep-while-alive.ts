// Sweeps an in-memory store of expiring entries on a timer, for as long as its owner keeps it.

/**
 * Caches that sweep only when written to keep their expired entries for as long as the pod is quiet:
 * after `bun run bench`, tens of thousands of spent DPoP jtis and HttpSig nonces stayed on the heap
 * of an idle pod. The timer holds `target` weakly, so a dropped cache is still
 * collected (and its timer ends), and it never keeps the process alive.
 */
export function sweepWhileAlive<T extends object>(target: T, sweep: (t: T, now: number) => void, everyMs: number): void {
  const ref = new WeakRef(target)
  const timer = setInterval(() => {
    const t = ref.deref()
    if (t) sweep(t, Date.now())
    else clearInterval(timer)
  }, everyMs)
  timer.unref()
}
