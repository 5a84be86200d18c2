// Gives memory back after load: a full garbage collection, then glibc's malloc_trim, once the pod goes quiet.
//
// Measured on a 2-core box after `bun run bench`: the JS heap held ~60 MB of
// garbage that JavaScriptCore collects only when more is allocated, so an idle pod never collected
// it; and LevelDB's native memory (classic-level's threads allocate with glibc malloc, in per-thread
// arenas) kept ~20–50 MB of freed chunks that glibc returns to the system only on malloc_trim(3).
// Both come back within a second of a full collection plus a trim; neither is needed while busy.

import { dlopen } from 'bun:ffi'
import { forgetIdleCaches } from './idle-caches.ts'

export interface MemoryReclaimer {
  /** Call on every request: the reclaimer runs only after requests, and never in the middle of a burst. */
  noteRequest(): void
  /** Collections done so far. */
  readonly reclaims: number
  stop(): void
}

/** What reclaiming does; the defaults are below. */
export interface ReclaimSteps {
  /** A full collection; `idle` when the pod went quiet (it may then also drop compiled code). */
  collect(idle: boolean): void
  /** Hands the native heap's free pages back. */
  trim(): void
  /** Empties the caches an idle pod does without (lib/idle-caches.ts), before the collection that frees their blocks. */
  forget?(): void
}

export interface ReclaimerOptions {
  /** A tick with no request in it counts as quiet (ms). */
  readonly quietMs?: number
  /** Under steady load (never quiet), still reclaim this often (ms): a soak keeps a flat footprint. */
  readonly busyEveryMs?: number
  /** Quiet this long after a burst, the pod empties its idle caches and collects once more (ms). */
  readonly forgetAfterMs?: number
  readonly steps?: ReclaimSteps
  /**
   * At the forgetting, writes out native buffers whose contents are kept elsewhere too (the store's memtable,
   * store/open-store.ts `flushWrites`); the heap is trimmed again once it resolves. Never rejects.
   */
  readonly flush?: () => Promise<void>
}

const QUIET_MS = 1000
/**
 * A pod quiet this many ticks after its first idle collection collects once more: what the load
 * left reachable only through its connections (keep-alive sockets, their requests and promises)
 * becomes garbage when the clients close them, after the first collection. Measured after the
 * bench: a second collection a few seconds later gave back another ~7 MB.
 */
const SETTLE_QUIET_TICKS = 3
/**
 * Under steady load the heap swings between collections by what was allocated meanwhile: every 60 s
 * it reached ~24 MB above its live ~13 MB in the soak (RSS 106 -> 118 MB). A full collection of that
 * heap takes 2-5 ms, so every 20 s it costs nothing measurable.
 */
const BUSY_EVERY_MS = 20_000
/**
 * A pod quiet this long is idle, not between the requests of a burst: its caches' entries, scattered
 * among the load's garbage, pin ~10 MB of heap blocks (lib/idle-caches.ts), and refilling them costs
 * one recomputation per entry on the next requests; LevelDB's memtable holds up to its write buffer
 * (4 MiB by default) of the burst's writes in glibc's arenas until written out (`flush`). Past
 * SETTLE_QUIET_TICKS, so the settle collection has run first.
 */
const FORGET_AFTER_MS = 10_000

/**
 * After a burst, on the first quiet tick: a full collection; on the next one, if still quiet, the
 * trim, because LevelDB's iterators and batches free their native memory in finalizers that run
 * after the collection (measured: trimming at once gave back ~half of what a trim a second later
 * did); after SETTLE_QUIET_TICKS quiet ticks, both once more; once quiet for FORGET_AFTER_MS, the idle
 * caches are emptied and both run a third time, and the store's writes are flushed, with a trim after.
 */
export function startMemoryReclaimer(o: ReclaimerOptions = {}): MemoryReclaimer {
  const quietMs = o.quietMs ?? QUIET_MS
  const busyEveryTicks = Math.max(1, Math.round((o.busyEveryMs ?? BUSY_EVERY_MS) / quietMs))
  const forgetTicks = Math.max(SETTLE_QUIET_TICKS + 1, Math.round((o.forgetAfterMs ?? FORGET_AFTER_MS) / quietMs))
  const steps = o.steps ?? DEFAULT_STEPS
  let sinceTick = 0
  let sinceReclaim = 0
  let ticksSinceReclaim = 0
  let trimDue = false
  let settleDue = false
  let forgetDue = false
  let quietTicks = 0
  let reclaims = 0
  const timer = setInterval(() => {
    ticksSinceReclaim++
    const quiet = sinceTick === 0
    sinceTick = 0
    quietTicks = quiet ? quietTicks + 1 : 0
    if (trimDue && quiet) {
      trimDue = false
      steps.trim()
      return
    }
    if (settleDue && quietTicks >= SETTLE_QUIET_TICKS) {
      settleDue = false
      reclaims++
      steps.collect(true)
      trimDue = true
      return
    }
    if (forgetDue && quietTicks >= forgetTicks) {
      forgetDue = false
      reclaims++
      steps.forget?.()
      steps.collect(true)
      trimDue = true
      // The writer's memory is freed when its table is written, in LevelDB's thread: trimmed then, whenever that is.
      void o.flush?.().then(() => steps.trim())
      return
    }
    if (sinceReclaim === 0 || (!quiet && ticksSinceReclaim < busyEveryTicks)) return
    sinceReclaim = 0
    ticksSinceReclaim = 0
    reclaims++
    steps.collect(quiet)
    // Busy: trim now, the next tick will not be quiet either.
    if (quiet) {
      trimDue = true
      settleDue = true
      forgetDue = true
    } else steps.trim()
  }, quietMs)
  // Never what keeps the process alive.
  timer.unref()
  return {
    noteRequest() {
      sinceTick++
      sinceReclaim++
    },
    get reclaims() {
      return reclaims
    },
    stop() {
      clearInterval(timer)
    },
  }
}

const DEFAULT_STEPS: ReclaimSteps = {
  collect(idle) {
    Bun.gc(true)
    // Bun.shrink (deprecated in bun-types, still present) has JavaScriptCore release unused heap
    // blocks and compiled code: measured ~24 MB after the bench. Only when quiet: the code is
    // compiled again on the next requests.
    if (idle && typeof Bun.shrink === 'function') Bun.shrink()
  },
  trim: () => trimNativeHeap(),
  forget: () => {
    forgetIdleCaches()
  },
}

type Trim = () => void
let trim: Trim | undefined

/**
 * malloc_trim(0) where the C library has it (glibc, Linux); elsewhere nothing: musl and macOS
 * return freed memory on their own. Looked up once.
 */
export function trimNativeHeap(): void {
  trim ??= loadTrim()
  trim()
}

function loadTrim(): Trim {
  if (process.platform !== 'linux') return () => {}
  try {
    const libc = dlopen('libc.so.6', { malloc_trim: { args: ['u64'], returns: 'i32' } })
    return () => {
      libc.symbols.malloc_trim(0)
    }
  } catch {
    return () => {}
  }
}
