// Group commit: resource writes that arrive while a synced LevelDB batch is being written share the next one.

import type { BatchOperation, ClassicLevel } from 'classic-level'

/** One put or del of a resource write; `sublevel` places it in the pod's key spaces (open-store.ts). */
export type WriteOp = BatchOperation<ClassicLevel<string, unknown>, string, unknown>

export interface GroupCommit {
  /** Resolves once `ops` are on disk (synced), in one atomic batch with whatever shared their sync. */
  commit(ops: readonly WriteOp[]): Promise<void>
  /** Batches written so far and writes they held: the benchmark and tests read the merge ratio here. */
  readonly stats: { batches: number; writes: number }
}

/**
 * A synced LevelDB write costs one fsync (~0.3 ms here) whatever its size, so one at a time caps
 * writes at the disk's fsync rate. Writes that arrive while a sync is in flight wait together and
 * go out as one batch with `sync: true` when it finishes; each caller is answered only after the
 * batch holding its operations is synced, so an acknowledged write survives `kill -9` and power
 * loss exactly as before (LevelDB applies a batch atomically: after a crash a write is whole or
 * absent). Callers must not put two writes of one key in flight at once: the resource locks
 * (resource-locks.ts) see to that, so the order inside a merged batch never matters.
 *
 * One write's bad operation would fail its whole batch, so a failed merged batch is retried write
 * by write: only the write that caused it is refused.
 */
export function makeGroupCommit(db: ClassicLevel<string, unknown>): GroupCommit {
  interface Waiting {
    readonly ops: readonly WriteOp[]
    readonly done: { resolve(): void; reject(err: unknown): void }
  }
  let queue: Waiting[] = []
  let writing = false
  const stats = { batches: 0, writes: 0 }

  const write = (ops: readonly WriteOp[]) => db.batch(ops as WriteOp[], { sync: true })

  async function drain() {
    writing = true
    while (queue.length > 0) {
      const group = queue
      queue = []
      stats.batches++
      stats.writes += group.length
      try {
        await write(group.length === 1 ? group[0]!.ops : group.flatMap(w => w.ops))
        for (const w of group) w.done.resolve()
      } catch (err) {
        if (group.length === 1) group[0]!.done.reject(err)
        else
          for (const w of group)
            await write(w.ops).then(
              () => w.done.resolve(),
              (e: unknown) => w.done.reject(e),
            )
      }
    }
    writing = false
  }

  return {
    stats,
    commit(ops) {
      const written = new Promise<void>((resolve, reject) => {
        queue.push({ ops, done: { resolve, reject } })
      })
      if (!writing) void drain()
      return written
    },
  }
}
