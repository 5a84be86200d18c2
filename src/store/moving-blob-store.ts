// The pod's blob store as the rest of the pod sees it: one store, or, while `solopod blobs move` copies, two: new
// bytes go to the target, a blob is read where it is (the target once its copy is verified, the old store before).
// A resumable upload goes on where its bytes are (parts in the old bucket) until finished or carried home, which
// the move does to every such upload before it switches; finishing one always writes the blob to the target.

import { PartialUploadLost, type BlobSource, type BlobStore, type StoredBlob } from './blob-store.ts'
import type { Sub } from './sublevel.ts'
import { makeKeyedSerialQueue } from '../lib/serial-queue.ts'

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
  /**
   * Carries every upload whose bytes only the old store reads to the local disk, where the target reads it (once
   * none is left, the switch can go); the number carried. One lost already (its parts aborted) is left to be refused.
   */
  carryPartials(): Promise<number>
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
  /**
   * The store that reads an upload's bytes: the old one while a move copies, for an upload only it can read. Which
   * bucket holds an upload's parts is in the upload's own state (s3-partial-blobs.ts `holder`), so a move between two
   * buckets restarted midway still sends each upload's parts to its own.
   */
  const holderOf = (id: string): BlobStore => (moving?.from.holdsPartial?.(id) ? moving.from : store)
  // One change to an upload at a time, a carry among them (the resource layer serializes requests already).
  const inTurn = makeKeyedSerialQueue()
  const carryHome = async (id: string) => {
    const from = moving?.from
    if (from && holderOf(id) === from) await from.carryPartialHome!(id)
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
    async carryPartials() {
      let carried = 0
      for (const id of moving?.from.heldPartials?.() ?? []) {
        try {
          await inTurn(id, () => carryHome(id))
          carried++
        } catch (err) {
          if (!(err instanceof PartialUploadLost)) throw err
        }
      }
      return carried
    },
    finishMoving() {
      moving = undefined
    },
    put: (body, limits) => {
      const into = store
      return tracked(into, async () => written(await into.put(body, limits), into))
    },
    putCopy: (id, body: BlobSource) => store.putCopy(id, body),
    // While a move copies, a blob's bytes may be in either store and new ones go to the target: the caller copies them
    duplicate: (id, known) => {
      const into = store
      return moving ? Promise.resolve(undefined) : tracked(into, () => into.duplicate(id, known))
    },
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
    // A new upload starts in the store new bytes go to.
    startPartial: id => store.startPartial(id),
    appendPartial: (id, body, limits) => inTurn(id, () => holderOf(id).appendPartial(id, body, limits)),
    partialSize: id => holderOf(id).partialSize(id),
    truncatePartial: (id, size) => inTurn(id, () => holderOf(id).truncatePartial(id, size)),
    // Finished into the old store, the blob could be named after the move's last pass and lost with the old copies.
    finishPartial: id =>
      inTurn(id, async () => {
        await carryHome(id)
        const into = store
        return tracked(into, async () => written(await into.finishPartial(id), into))
      }),
    removePartial: id => holderOf(id).removePartial(id),
    // Uploads of both forms are in uploads/ while a move copies: the store that reads them all sweeps them.
    sweepPartials: areLive => (moving?.from.holdsPartial ? moving.from : store).sweepPartials(areLive),
  }
}
