// `solopod blobs move --to …`: an existing pod's bytes into another blob store while it serves, resumably. Each blob
// is copied under its own id and read back (sha256) before it counts as moved; the switch is one synced batch once
// every named blob is in the target (and every resumable upload in progress readable there); the old copies go only
// after it.

import type { BlobStore } from './blob-store.ts'
import type { Store } from './open-store.ts'
import { sha256Of } from './check-blobs.ts'
import { isHeldByVersion } from './version-record.ts'
import { BlobLocationError, describeBlobLocation, LOCATION_KEY, MOVE_KEY, sameLocation, type BlobLocation, type BlobMoveState } from './blob-location.ts'

export interface MoveReport {
  /** Blobs copied and verified by this run (a resumed move counts only what it copied). */
  readonly files: number
  readonly bytes: number
  /** Named by a record and in neither store: lost before the move (`solopod blobs check`). */
  readonly missing: readonly string[]
  /** Old copies deleted after the switch. */
  readonly deleted: number
  /** The bytes were already there: nothing was done. */
  readonly already: boolean
}

export interface MoveOptions {
  /** Where the pod's bytes are by its flags (the records say otherwise once moved). */
  readonly configured: BlobLocation
  /** Opens a store at a location (keys from the environment of whoever asked for the move). */
  readonly open: (location: BlobLocation) => BlobStore | Promise<BlobStore>
  /** How long old copies stay after the switch: a GET that chose one a moment before still reads it. */
  readonly settleMs: number
  readonly progress: (line: string) => void
  /** Stops between blobs (the command went away); the move stays resumable. */
  readonly signal?: AbortSignal
  /** Free space the pod keeps on its disk (`--disk-reserve-bytes`): a move onto this machine must leave it. */
  readonly reserveBytes: number
}

const PROGRESS_EVERY_MS = 2000
/**
 * Blobs copied side by side: a bucket answers each request in milliseconds, and one at a time would leave the move
 * waiting on them; each copy holds at most two parts of an upload (s3-blob-store.ts), so this bounds the memory too.
 */
const COPIES_AT_ONCE = 4
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/** One move at a time per pod. */
const moving = new WeakSet<Store>()

export async function moveBlobs(store: Store, target: BlobLocation, o: MoveOptions): Promise<MoveReport> {
  if (moving.has(store)) throw new BlobLocationError('a move of the blobs is already running on this pod; wait for it to finish')
  moving.add(store)
  try {
    return await runMove(store, target, o)
  } finally {
    moving.delete(store)
  }
}

async function runMove(store: Store, target: BlobLocation, o: MoveOptions): Promise<MoveReport> {
  const blobs = store.blobs
  let state = (await store.system.get(MOVE_KEY)) as BlobMoveState | undefined
  const here = state?.to ?? ((await store.system.get(LOCATION_KEY)) as BlobLocation | undefined) ?? o.configured
  if (state && !sameLocation(state.to, target))
    throw new BlobLocationError(`a move to ${describeBlobLocation(state.to)} is unfinished; run solopod blobs move with that --to first`)
  if (!state && sameLocation(here, target)) return { files: 0, bytes: 0, missing: [], deleted: 0, already: true }

  let from: BlobStore
  const missing: string[] = []
  let files = 0
  let bytes = 0
  if (state?.phase !== 'deleting') {
    let to: BlobStore
    if (state && blobs.from) {
      to = blobs.current
      from = blobs.from
      o.progress(`resuming the move to ${describeBlobLocation(target)} (${await countMoved(store)} files already there)`)
      await ensureRoom(store, from, to, id => blobs.inTarget(id), o.reserveBytes, 'the move stays resumable')
    } else {
      to = await o.open(target)
      const problem = await to.problem()
      if (problem !== undefined) throw new BlobLocationError(`cannot move the files there: ${problem}`)
      from = blobs.current
      await ensureRoom(store, from, to, () => false, o.reserveBytes, 'nothing was moved')
      state = { from: here, to: target, phase: 'copying' }
      await store.movedBlobs.clear()
      await store.system.put(MOVE_KEY, state, { sync: true })
      await blobs.startMoving(to, { from, moved: store.movedBlobs })
      o.progress(`moving the files from ${describeBlobLocation(here)} to ${describeBlobLocation(target)}; the pod keeps serving`)
    }
    // Writes begun before the move may still land in the old store: the passes start once they have.
    await blobs.drainOldWrites()
    let lastSaid = Date.now()
    const gone = new Set<string>()
    // A second pass finds what was named while the first ran (a restore from the trash, a version); it copies nothing
    // new on a pod at rest, and ends the loop.
    const copyOne = async (id: string) => {
      // The pod's other writes share the disk while the move runs: it stops before taking the reserve they need.
      if (!to.remote && to.freeBytes() < o.reserveBytes) throw noRoom(to, o.reserveBytes, 'the move stays resumable')
      const size = await copyBlob(from, to, id)
      if (size === undefined) {
        gone.add(id)
        if (await isNamed(store, id)) missing.push(id)
        return false
      }
      await blobs.markMoved(id)
      files++
      bytes += size
      if (Date.now() - lastSaid >= PROGRESS_EVERY_MS) {
        lastSaid = Date.now()
        o.progress(`copied ${files} files, ${mb(bytes)} MB`)
      }
      return true
    }
    for (let copied = -1; copied !== 0; ) {
      copied = 0
      let group: string[] = []
      const copyGroup = async () => {
        copied += (await Promise.all(group.map(copyOne))).filter(Boolean).length
        group = []
      }
      for await (const id of namedBlobIds(store)) {
        if (blobs.inTarget(id) || gone.has(id) || group.includes(id)) continue
        o.signal?.throwIfAborted()
        group.push(id)
        if (group.length >= COPIES_AT_ONCE) await copyGroup()
      }
      await copyGroup()
    }
    // Resumable uploads with parts in the old bucket come home first: after the switch nothing reads those parts.
    // They take this disk too, and the copies meanwhile took some of it.
    if (!to.remote) {
      const carrying = partialBytes(from)
      if (to.freeBytes() - carrying < o.reserveBytes) throw noRoom(to, o.reserveBytes, 'the move stays resumable', carrying)
    }
    const carried = await blobs.carryPartials()
    if (carried > 0) o.progress(`carried ${carried} resumable uploads in progress to the data directory`)
    state = { ...state, phase: 'deleting' }
    const batch = store.system.batch()
    batch.put(LOCATION_KEY, target)
    batch.put(MOVE_KEY, state)
    await batch.write({ sync: true })
    blobs.finishMoving()
    o.progress(`switched: the pod serves its files from ${describeBlobLocation(target)}`)
  } else {
    from = await o.open(state.from)
  }
  if (o.settleMs > 0) await Bun.sleep(o.settleMs)
  const deleted = await deleteOldCopies(from)
  await store.movedBlobs.clear()
  await store.system.del(MOVE_KEY, { sync: true })
  return { files, bytes, missing, deleted, already: false }
}

/**
 * A move onto this machine's disk must fit beside the reserve the pod keeps (the database and every other write
 * need it): the named blobs not yet there, and the resumable uploads whose parts are in the old bucket (carried home
 * at the end), are counted before a byte is copied. A bucket reports no room to check.
 */
async function ensureRoom(store: Store, from: BlobStore, to: BlobStore, moved: (id: string) => boolean, reserveBytes: number, after: string) {
  if (to.remote) return
  let needed = partialBytes(from)
  for await (const { id, size } of from.list()) if (!moved(id) && (await isNamed(store, id))) needed += size
  if (to.freeBytes() - needed < reserveBytes) throw noRoom(to, reserveBytes, after, needed)
}

/**
 * The bytes of the resumable uploads a move away from `from` carries home (PartialBlobs.heldPartials): their whole
 * size, parts and the tail on the local disk alike; the tail is small beside the parts, and a count on the safe side.
 */
const partialBytes = (from: BlobStore) => (from.heldPartials?.() ?? []).reduce((sum, id) => sum + (from.partialSize(id) ?? 0), 0)

const noRoom = (to: BlobStore, reserveBytes: number, after: string, needed?: number) =>
  new BlobLocationError(
    `${needed === undefined ? '' : `the files to move take ${mb(needed)} MB and `}the disk of ${to.location} has ${mb(to.freeBytes())} MB free, ` +
      `of which the pod keeps ${mb(reserveBytes)} MB (--disk-reserve-bytes): free some space first; ${after}`,
  )

async function countMoved(store: Store): Promise<number> {
  let n = 0
  for await (const _ of store.movedBlobs.keys()) n++
  return n
}

/** Every blob some record names (a resource, the trash, a version), repeats included. */
async function* namedBlobIds(store: Store): AsyncIterable<string> {
  yield* store.blobRefs.keys()
  for await (const key of store.versionBlobs.keys()) yield key.slice(0, key.indexOf('\0'))
}

const isNamed = async (store: Store, id: string) => (await store.blobRefs.get(id)) !== undefined || isHeldByVersion(store.versionBlobs, id)

/** Copies one blob under its id and reads the copy back; its size, or undefined when the old store lacks it. */
async function copyBlob(from: BlobStore, to: BlobStore, id: string): Promise<number | undefined> {
  // A local file's Blob and an object's both answer `exists` (BunFile, S3File).
  if (!(await (from.read(id) as Blob & { exists(): Promise<boolean> }).exists())) return undefined
  const opened = await from.open(id)
  const stored = await to.putCopy(id, opened instanceof Blob ? opened.stream() : opened)
  const found = await sha256Of(to, id)
  if (found !== stored.sha256)
    throw new BlobLocationError(`the copy of blob ${id} in ${to.location} has other bytes than were sent; nothing was switched, run the move again`)
  return stored.size
}

/** After the switch: every blob of the old store goes (those nothing named too); a failure leaves them for a run again. */
async function deleteOldCopies(from: BlobStore): Promise<number> {
  const ids: string[] = []
  for await (const { id } of from.list()) ids.push(id)
  for (const id of ids) await from.discard(id)
  for await (const _ of from.list())
    throw new BlobLocationError(`some old copies in ${from.location} could not be deleted (see the log); run the move again to finish`)
  return ids.length
}
