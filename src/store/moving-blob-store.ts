// The pod's blob store as the rest of the pod sees it: one store, or, while `solopod blobs move` copies, two: new
// bytes go to the target, a blob is read where it is (the target once its copy is verified, the old store before).

import type { BlobSource, BlobStore, StoredBlob } from './blob-store.ts'
import type { Sub } from './sublevel.ts'

/** While a move copies: the old store, and the blobs already in the target (`moved`: id → '', synced). */
export interface MoveHalves {
  readonly from: BlobStore
  readonly moved: Sub<string>
}

export interface PodBlobStore extends BlobStore {
  /** The old store while a move copies. */
  readonly from: BlobStore | undefined
  /** The store new bytes go to (the target while a move copies). */
  readonly current: BlobStore
  /** True when the blob is in the target of the move under way (its copy verified, or written there). */
  inTarget(id: string): boolean
  /** From now on new bytes go to `to`, and blobs in `moved` are read there. */
  startMoving(to: BlobStore, halves: MoveHalves): Promise<void>
  /** Records a blob as in the target (synced) once its copy is verified. */
  markMoved(id: string): Promise<void>
  /** Resolves once every write to the old store begun before the move has ended. */
  drainOldWrites(): Promise<void>
  /** The switch is committed: the target alone from now on. */
  finishMoving(): void
  /**
   * Sweeps only the stores that are buckets (the store, and the old one while a move copies): their sweep leaves
   * objects younger than its grace period, a local directory's removes every file not yet named, a write's too.
   */
  sweepRemote(areLive: (ids: readonly string[]) => Promise<readonly boolean[]>): Promise<number>
}

/** `halves` when a move was left copying (a restart midway): it goes on serving from both. */
export async function openPodBlobStore(current: BlobStore, halves?: MoveHalves): Promise<PodBlobStore> {
  let store = current
  let moving: (MoveHalves & { ids: Set<string> }) | undefined
  // Writes per store in flight: the move copies what the old store holds only once none is left to land there.
  const writing = new Map<BlobStore, { count: number; idle: (() => void)[] }>()
  const tracked = async <T>(target: BlobStore, work: () => Promise<T>): Promise<T> => {
    const w = writing.get(target) ?? { count: 0, idle: [] }
    writing.set(target, w)
    w.count++
    try {
      return await work()
    } finally {
      if (--w.count === 0) for (const done of w.idle.splice(0)) done()
    }
  }
  const where = (id: string): BlobStore => (moving && !moving.ids.has(id) ? moving.from : store)
  /** A blob written while moving is in the target: recorded so, before any record can name it. */
  const written = async (blob: StoredBlob, into: BlobStore): Promise<StoredBlob> => {
    // The move may end while this is recorded: then the target is the store, and the record no longer matters.
    const m = moving
    if (m && into === store) {
      await m.moved.put(blob.id, '', { sync: true })
      m.ids.add(blob.id)
    }
    return blob
  }
  const both = <T>(each: (s: BlobStore) => T): T[] => (moving ? [each(store), each(moving.from)] : [each(store)])

  async function startMoving(to: BlobStore, h: MoveHalves) {
    const ids = new Set<string>()
    for await (const id of h.moved.keys()) ids.add(id)
    moving = { ...h, ids }
    store = to
  }
  if (halves) await startMoving(current, halves)

  return {
    get from() {
      return moving?.from
    },
    get current() {
      return store
    },
    inTarget: id => moving?.ids.has(id) === true,
    startMoving,
    async markMoved(id) {
      const m = moving
      if (!m) return
      await m.moved.put(id, '', { sync: true })
      m.ids.add(id)
    },
    drainOldWrites: async () => {
      const w = moving && writing.get(moving.from)
      if (w && w.count > 0) await new Promise<void>(resolve => w.idle.push(resolve))
    },
    finishMoving() {
      moving = undefined
    },
    put: (body, limits) => {
      const into = store
      return tracked(into, async () => written(await into.put(body, limits), into))
    },
    putCopy: (id, body: BlobSource) => store.putCopy(id, body),
    read: id => where(id).read(id),
    open: (id, start, end, size) => where(id).open(id, start, end, size),
    async *list() {
      yield* store.list()
      if (moving) for await (const b of moving.from.list()) if (!moving.ids.has(b.id)) yield b
    },
    remove: id => void both(s => s.remove(id)),
    discard: async id => void (await Promise.all(both(s => s.discard(id)))),
    hold() {
      const releases = both(s => s.hold())
      return () => {
        for (const release of releases) release()
      }
    },
    sweep: async areLive => (await Promise.all(both(s => s.sweep(areLive)))).reduce((a, b) => a + b, 0),
    sweepRemote: async areLive => (await Promise.all(both(s => (s.remote ? s.sweep(areLive) : 0)))).reduce((a, b) => a + b, 0),
    localFile: id => where(id).localFile(id),
    freeBytes: () => store.freeBytes(),
    get location() {
      return moving ? `${store.location} (moving from ${moving.from.location})` : store.location
    },
    get remote() {
      return store.remote || moving?.from.remote === true
    },
    problem: async () => (await store.problem()) ?? (await moving?.from.problem()),
    // Partial uploads are on the local disk whatever the store (uploads/): only finishing one writes a blob.
    startPartial: id => store.startPartial(id),
    appendPartial: (id, body, limits) => store.appendPartial(id, body, limits),
    partialSize: id => store.partialSize(id),
    truncatePartial: (id, size) => store.truncatePartial(id, size),
    finishPartial: id => {
      const into = store
      return tracked(into, async () => written(await into.finishPartial(id), into))
    },
    removePartial: id => store.removePartial(id),
    sweepPartials: areLive => store.sweepPartials(areLive),
  }
}
