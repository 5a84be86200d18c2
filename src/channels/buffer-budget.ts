// One byte budget for what all notification channels hold written but not yet taken by their subscribers: each
// channel's own bound (256 KiB) times 20,000 channels would be ~5 GB, so the sum is bounded too. Past the budget
// the channels holding the most are closed as too slow (the subscriber re-subscribes with `state`), never the
// one that merely wrote last.

interface Transport {
  bytes: number
  /** What the transport holds unsent now (a socket's buffered amount, a stream's queue). */
  readonly read: () => number
  /** Ends the transport's channels as too slow. */
  readonly shed: () => void
}

export function makeBufferBudget(limitBytes: number) {
  const transports = new Map<string, Transport>()
  let total = 0

  /** Reads every transport again: bytes sent since their last write are no longer held. */
  function recount(): void {
    total = 0
    for (const t of transports.values()) total += t.bytes = t.read()
  }

  return {
    /** Counts the transport `key` (a socket or stream) from now on. */
    track(key: string, read: () => number, shed: () => void): void {
      transports.set(key, { bytes: 0, read, shed })
    },
    forget(key: string): void {
      const t = transports.get(key)
      if (!t) return
      total -= t.bytes
      transports.delete(key)
    },
    /**
     * After a write to `key` (`unsent`: what it holds now, when the writer has just read it): past the budget,
     * the transports holding the most are shed until it fits again.
     */
    wrote(key: string, unsent?: number): void {
      const t = transports.get(key)
      if (!t) return
      const bytes = unsent ?? t.read()
      total += bytes - t.bytes
      t.bytes = bytes
      if (total <= limitBytes) return
      // Only near the budget is every transport read again (a write elsewhere reads its own only)
      recount()
      if (total <= limitBytes) return
      const largest = [...transports].sort(([, a], [, b]) => b.bytes - a.bytes)
      for (const [k, held] of largest) {
        if (total <= limitBytes || held.bytes === 0) break
        transports.delete(k)
        total -= held.bytes
        held.shed()
      }
    },
    /** Bytes held unsent, as last read. */
    get bytes() {
      return total
    },
    get limit() {
      return limitBytes
    },
  }
}

export type BufferBudget = ReturnType<typeof makeBufferBudget>
