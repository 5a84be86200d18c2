// Partial uploads (resumable uploads) of a pod whose files are in a bucket, assembled from multipart parts there
// instead of whole on the local disk (docs/hosting.md, "Resumable uploads into the bucket"). Part n holds bytes
// [(n−1)·PART_SIZE, n·PART_SIZE) of the upload; the local disk keeps only the tail after the last part sent.
//
// Files under `<data>/uploads/`: `<id>.json`, the state (the blob id chosen at creation, the engine's UploadId once a
// part is sent, the parts sent), replaced whole (temporary name, fsync, rename); the tail, `<id>` while no part was
// sent and `<id>.<k>` after k parts. Sending parts writes the next tail file, then the state naming the new parts,
// then removes the old tail: a crash at any point leaves the state and the tail it names agreeing.
//
// Before a move of the blobs switches away from the bucket, an upload with parts there is carried home: its multipart
// upload completed, read back into `<id>.carry` with the tail after it, renamed `<id>`, then the state goes: until
// then the state and its tail still agree (a crash carries it again), after it the upload is one local file.

import {
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  closeSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  fsyncSync,
} from 'node:fs'
import { open, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import {
  BlobStoreUnavailable,
  BlobWriteError,
  PartialUploadLost,
  type AppendLimits,
  type AppendResult,
  type BlobSource,
  type PartialBlobs,
  type StoredBlob,
} from './blob-store.ts'
import { newBlobId } from './local-blob-store.ts'
import { UPLOADS_DIR } from './local-partial-blobs.ts'
import { NoSuchUpload, type S3Multipart, type SentPart } from './s3-multipart.ts'
import { writeBody } from './write-body.ts'
import { syncDir } from './sync-dir.ts'
import { log, describeCause } from '../log.ts'

const ID = /^[0-9a-f]{32}$/
/** Every file of an upload: its tail (`<id>`, `<id>.<k>`), its state (`<id>.json`) and their temporary names. */
const FILE = /^([0-9a-f]{32})(?:\.(\d+)|\.json|\.json\.tmp|\.carry)?$/

interface State {
  readonly blobId: string
  readonly uploadId?: string
  /**
   * The store (S3PartialDeps.location) whose bucket holds the multipart upload: during a move between two buckets both
   * stores read the same uploads directory, and only this one can send the upload's parts on or carry it home. A
   * state written before this was recorded has none, and is its reader's.
   */
  readonly holder?: string
  readonly parts: readonly SentPart[]
}

export interface S3PartialDeps {
  readonly multipart: S3Multipart
  readonly partSize: number
  keyOf(blobId: string): string
  /** The SHA-256 of a stored object, read back streamed (after a restart the running hash is gone). */
  hashObject(blobId: string): Promise<string>
  /** The stored object's size, or undefined when there is none (a completion whose answer was lost). */
  objectSize(blobId: string): Promise<number | undefined>
  freeBytes(): number
  noteStored(bytes: number): void
  /** The bucket, prefix and endpoint of this store, as State.holder records them. */
  readonly location: string
}

interface RunningHash {
  readonly hash: Bun.CryptoHasher
  size: number
}

export function openS3Partials(dataDir: string, deps: S3PartialDeps): PartialBlobs {
  const { multipart, partSize: PART } = deps
  const root = join(dataDir, UPLOADS_DIR)
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const check = (id: string) => {
    if (!ID.test(id)) throw new Error(`not an upload id: ${JSON.stringify(id)}`)
    return id
  }
  const stateFile = (id: string) => join(root, `${check(id)}.json`)
  const tailFile = (id: string, k: number) => join(root, k === 0 ? check(id) : `${check(id)}.${k}`)
  const states = new Map<string, State>()
  /** As in local-partial-blobs.ts: the hash so far while the process lives, dropped when it stops matching. */
  const hashes = new Map<string, RunningHash>()

  /**
   * The upload's state, or undefined when there is none. A tail without a state is an upload started before the pod
   * kept its files in a bucket (local-partial-blobs.ts): it gets a blob id now, written once a part is sent.
   */
  function stateOf(id: string): State | undefined {
    const known = states.get(id)
    if (known) return known
    let state: State
    try {
      state = JSON.parse(readFileSync(stateFile(id), 'utf8')) as State
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      if (!existsSync(tailFile(id, 0))) return undefined
      state = { blobId: newBlobId(), parts: [] }
    }
    states.set(id, state)
    return state
  }

  function writeState(id: string, state: State) {
    const tmp = `${stateFile(id)}.tmp`
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeFileSync(fd, JSON.stringify(state))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, stateFile(id))
    syncDir(root)
    states.set(id, state)
  }

  const sentBytes = (state: State) => state.parts.reduce((sum, p) => sum + p.size, 0)
  const tailSize = (id: string, state: State) => {
    try {
      return statSync(tailFile(id, state.parts.length)).size
    } catch {
      return undefined
    }
  }

  function readAt(file: string, at: number, length: number): Uint8Array {
    const bytes = new Uint8Array(length)
    const fd = openSync(file, 'r')
    try {
      for (let done = 0; done < length; ) {
        const n = readSync(fd, bytes, done, length - done, at + done)
        if (n === 0) throw new Error(`${file} ended before ${at + length} bytes`)
        done += n
      }
    } finally {
      closeSync(fd)
    }
    return bytes
  }

  /**
   * Sends every whole part the tail holds (a part at a time in memory), then moves what follows them to the next tail
   * file and records the parts. A failure midway records the parts sent before it and throws (BlobStoreUnavailable).
   */
  async function sendParts(id: string): Promise<void> {
    let state = stateOf(id)!
    const k = state.parts.length
    const tail = tailFile(id, k)
    const size = statSync(tail).size
    const whole = Math.floor(size / PART)
    if (whole === 0) return
    if (state.uploadId === undefined) {
      state = { ...state, uploadId: await multipart.create(deps.keyOf(state.blobId)), holder: deps.location }
      // Recorded before any part goes: an UploadId nothing names is left for the bucket's lifecycle rule only when
      // the pod dies between the engine's answer and this write.
      writeState(id, state)
    }
    const sent: SentPart[] = []
    let failure: unknown
    try {
      for (let i = 0; i < whole; i++) {
        sent.push(await multipart.uploadPart(deps.keyOf(state.blobId), state.uploadId!, k + i + 1, readAt(tail, i * PART, PART)))
      }
    } catch (err) {
      failure = err
    }
    if (sent.length > 0) {
      const next = tailFile(id, k + sent.length)
      const rest = size - sent.length * PART
      const handle = await open(next, 'w', 0o600)
      try {
        if (rest > 0) await handle.write(readAt(tail, sent.length * PART, rest), 0, rest, 0)
        await handle.sync()
      } finally {
        await handle.close()
      }
      writeState(id, { ...state, parts: [...state.parts, ...sent] })
      rmSync(tail, { force: true })
      syncDir(root)
    }
    if (failure !== undefined) throw failure
  }

  /** The engine no longer knows the upload's parts (aborted): the upload is lost, its local files go too. */
  async function lostIfGone<T>(id: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      if (!(err instanceof NoSuchUpload)) throw err
      await drop(id)
      throw new PartialUploadLost("the bytes of this upload are gone from the pod's object store (its multipart upload was aborted); start the upload again", {
        cause: err,
      })
    }
  }

  async function appendPartial(id: string, body: BlobSource, limits: AppendLimits): Promise<AppendResult> {
    if (stateOf(id) === undefined) throw new Error(`no partial upload ${id}`)
    // A tail left whole (a signed append since checked, a part the bucket did not take) goes first: nothing is
    // changed when the bucket is down now.
    if (!limits.heldUntilChecked) await sendParts(id)
    const start = partialSize(id)
    if (start === undefined) throw new Error(`no partial upload ${id}`)
    let running = hashes.get(id)
    if (running && running.size !== start) {
      hashes.delete(id)
      running = undefined
    }
    const written = (chunk: Uint8Array) => {
      if (running) {
        running.hash.update(chunk)
        running.size += chunk.byteLength
      }
      deps.noteStored(chunk.byteLength)
    }
    const source = new PartSource(body, limits.signal)
    const firstTail = stateOf(id)!.parts.length
    const firstTailSize = tailSize(id, stateOf(id)!)!
    let expected = limits.expectedBytes
    try {
      for (;;) {
        const state = stateOf(id)!
        const base = sentBytes(state)
        const tail = tailFile(id, state.parts.length)
        const tailStart = statSync(tail).size
        // A signed body stays whole on the local disk until its digest is checked.
        const room = limits.heldUntilChecked ? Infinity : PART - tailStart
        const handle = await open(tail, 'r+')
        const progress = { size: tailStart }
        let failed = false
        try {
          await writeBody(
            source.take(room),
            {
              handle,
              start: tailStart,
              limits: {
                ...limits,
                ...(limits.maxBytes === undefined ? {} : { maxBytes: limits.maxBytes - base }),
                ...(expected === undefined ? {} : { expectedBytes: Math.min(expected, room) }),
              },
              freeBytes: deps.freeBytes,
              written,
            },
            progress,
          )
        } catch (err) {
          if (err instanceof BlobWriteError) {
            // A refused append leaves the upload as it was, but for parts it already sent (they cannot be taken
            // back: the caller finds the larger size next time and records it).
            hashes.delete(id)
            await handle.truncate(state.parts.length === firstTail ? firstTailSize : 0)
            await handle.sync()
            await handle.close()
            throw err
          }
          // The body failed midway (the client went away): what arrived stays, for the client to resume from.
          failed = true
        }
        // Resumable Uploads §4.1: an offset the pod acknowledges must be one it keeps.
        await handle.sync()
        await handle.close()
        if (expected !== undefined) expected -= progress.size - tailStart
        if (failed || progress.size < PART || limits.heldUntilChecked) break
        try {
          await sendParts(id)
        } catch (err) {
          if (!(err instanceof BlobStoreUnavailable)) throw err
          return { size: partialSize(id)!, ended: false, failed: err }
        }
        if (source.done || limits.signal?.aborted) break
      }
    } finally {
      source.close()
    }
    return { size: partialSize(id)!, ended: source.done && !limits.signal?.aborted }
  }

  function partialSize(id: string): number | undefined {
    const state = stateOf(id)
    if (state === undefined) return undefined
    const tail = tailSize(id, state)
    return tail === undefined ? undefined : sentBytes(state) + tail
  }

  function removeFiles(id: string, keepState: boolean) {
    for (const name of readdirSync(root)) {
      const m = FILE.exec(name)
      if (m?.[1] !== id || (keepState && name === `${id}.json`)) continue
      rmSync(join(root, name), { force: true })
    }
    syncDir(root)
  }

  /** AbortMultipartUpload, then the local files; the bucket down keeps the state file for the next sweep to try again. */
  async function drop(id: string): Promise<void> {
    hashes.delete(id)
    const state = stateOf(id)
    states.delete(id)
    if (state?.uploadId !== undefined) {
      try {
        await multipart.abort(deps.keyOf(state.blobId), state.uploadId)
      } catch (err) {
        if (!(err instanceof NoSuchUpload)) {
          log.warn('upload.abort_failed', { id, cause: describeCause(err) })
          removeFiles(id, true)
          return
        }
      }
    }
    removeFiles(id, false)
  }

  async function finishPartial(id: string): Promise<StoredBlob> {
    await sendParts(id)
    const state = stateOf(id)!
    const key = deps.keyOf(state.blobId)
    const tail = readFileSync(tailFile(id, state.parts.length))
    const size = sentBytes(state) + tail.byteLength
    const running = hashes.get(id)
    let sha256: string | undefined = running && running.size === size ? running.hash.digest('hex') : undefined
    if (state.uploadId === undefined) {
      // Never a whole part: one small object, its hash from the tail itself.
      sha256 ??= new Bun.CryptoHasher('sha256').update(tail).digest('hex')
      await multipart.putObject(key, tail)
    } else {
      let parts = state.parts
      if (tail.byteLength > 0 || parts.length === 0) parts = [...parts, await multipart.uploadPart(key, state.uploadId, parts.length + 1, tail)]
      try {
        await multipart.complete(key, state.uploadId, parts)
      } catch (err) {
        // Completed before, its answer lost (the pod stopped, the request timed out): the object says so.
        if (!(err instanceof NoSuchUpload) || (await deps.objectSize(state.blobId)) !== size) throw err
      }
      sha256 ??= await deps.hashObject(state.blobId)
    }
    hashes.delete(id)
    states.delete(id)
    removeFiles(id, false)
    return { id: state.blobId, size, sha256 }
  }

  /** An upload whose bytes are partly parts in this store's bucket (or whose multipart upload was started there). */
  const holds = (id: string) => {
    const state = ID.test(id) ? stateOf(id) : undefined
    return state?.uploadId !== undefined && (state.holder ?? deps.location) === deps.location
  }

  async function carryHome(id: string): Promise<void> {
    const state = stateOf(id)
    if (state?.uploadId === undefined) return
    const uploadId = state.uploadId
    hashes.delete(id)
    const key = deps.keyOf(state.blobId)
    const sent = sentBytes(state)
    await lostIfGone(id, async () => {
      if (state.parts.length === 0) {
        // Nothing in the bucket yet: the tail is the upload already.
        await multipart.abort(key, uploadId).catch((err: unknown) => {
          if (!(err instanceof NoSuchUpload)) throw err
        })
        return
      }
      try {
        await multipart.complete(key, uploadId, state.parts)
      } catch (err) {
        // Completed by a carry the pod did not finish (it stopped): the object is there.
        if (!(err instanceof NoSuchUpload) || (await deps.objectSize(state.blobId)) !== sent) throw err
      }
      const whole = join(root, `${id}.carry`)
      const handle = await open(whole, 'w', 0o600)
      let size = 0
      try {
        const put = async (chunk: Uint8Array) => {
          for (let done = 0; done < chunk.byteLength; ) done += (await handle.write(chunk, done, chunk.byteLength - done)).bytesWritten
          size += chunk.byteLength
        }
        for await (const chunk of multipart.readObject(key)) await put(chunk)
        if (size !== sent) throw new BlobStoreUnavailable(`the object store gave back ${size} bytes of an upload's ${sent}; nothing was changed, try again`)
        for await (const chunk of Bun.file(tailFile(id, state.parts.length)).stream() as unknown as AsyncIterable<Uint8Array>) await put(chunk)
        await handle.sync()
      } finally {
        await handle.close()
      }
      renameSync(whole, tailFile(id, 0))
    })
    // The whole file is in place: from here on it is the upload, and the state naming parts goes.
    rmSync(stateFile(id), { force: true })
    states.delete(id)
    for (let k = 1; k <= state.parts.length; k++) rmSync(tailFile(id, k), { force: true })
    syncDir(root)
    if (state.parts.length > 0)
      await multipart.deleteObject(key).catch((err: unknown) => log.warn('upload.carry_cleanup_failed', { id, cause: describeCause(err) }))
  }

  return {
    async startPartial(id) {
      // The blob id is chosen now: the parts sent later belong to the multipart upload of its object.
      const handle = await open(tailFile(id, 0), 'wx', 0o600)
      await handle.close()
      writeState(id, { blobId: newBlobId(), parts: [] })
      hashes.set(id, { hash: new Bun.CryptoHasher('sha256'), size: 0 })
    },
    appendPartial: (id, body, limits) => lostIfGone(id, () => appendPartial(id, body, limits)),
    partialSize,
    async truncatePartial(id, size) {
      hashes.delete(id)
      const state = stateOf(id)!
      const sent = sentBytes(state)
      // Bytes already sent as parts cannot be cut: the upload keeps them.
      await truncate(tailFile(id, state.parts.length), Math.max(0, size - sent))
      return Math.max(size, sent)
    },
    finishPartial: id => lostIfGone(id, () => finishPartial(id)),
    removePartial(id) {
      void drop(id).catch((err: unknown) => log.warn('upload.remove_failed', { id, cause: describeCause(err) }))
    },
    holdsPartial: holds,
    heldPartials: () =>
      [...new Set(readdirSync(root).map(n => /^([0-9a-f]{32})\.json$/.exec(n)?.[1]))].filter((id): id is string => id !== undefined && holds(id)),
    carryPartialHome: carryHome,
    async sweepPartials(areLive) {
      if (!existsSync(root)) return 0
      const names = readdirSync(root)
      const ids = [...new Set(names.map(n => FILE.exec(n)?.[1]).filter((id): id is string => id !== undefined))]
      const answers = ids.length === 0 ? [] : await areLive(ids)
      const live = new Set(ids.filter((_, i) => answers[i] === true))
      let removed = 0
      for (const name of names) {
        const id = FILE.exec(name)?.[1]
        if (id === undefined) {
          rmSync(join(root, name), { force: true, recursive: true })
          removed++
        }
      }
      for (const id of ids) {
        if (live.has(id)) continue
        await drop(id)
        removed++
      }
      for (const id of live) {
        // Tails a crash left behind once their parts were recorded; never a later one (an append may be writing it).
        const sent = stateOf(id)?.parts.length ?? 0
        for (const name of names) {
          const m = FILE.exec(name)
          if (m?.[1] !== id || name.endsWith('.json') || name.endsWith('.tmp') || name.endsWith('.carry')) continue
          if ((m[2] === undefined ? 0 : Number(m[2])) < sent) rmSync(join(root, name), { force: true })
        }
      }
      return removed
    },
  }
}

/**
 * A body read in pieces of at most `n` bytes (one part's room), a chunk split at the boundary; cancelled when the
 * append's signal takes over.
 */
class PartSource {
  done = false
  private leftover: Uint8Array | undefined
  private readonly next: () => Promise<IteratorResult<Uint8Array>>
  private readonly cancel: () => void
  constructor(
    body: BlobSource,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (body instanceof ReadableStream) {
      const reader = body.getReader()
      this.next = () => reader.read() as Promise<IteratorResult<Uint8Array>>
      this.cancel = () => void reader.cancel().catch(() => undefined)
    } else {
      const it = Symbol.asyncIterator in body ? (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]() : (body as Iterable<Uint8Array>)[Symbol.iterator]()
      this.next = async () => await it.next()
      this.cancel = () => void Promise.resolve(it.return?.()).catch(() => undefined)
    }
    signal?.addEventListener('abort', this.cancel, { once: true })
  }

  async *take(n: number): AsyncIterable<Uint8Array> {
    let left = n
    while (left > 0 && !this.done) {
      let chunk = this.leftover
      this.leftover = undefined
      if (chunk === undefined) {
        const r = await this.next()
        if (r.done) {
          this.done = true
          return
        }
        chunk = r.value
      }
      if (chunk.byteLength > left) {
        this.leftover = chunk.subarray(left)
        chunk = chunk.subarray(0, left)
      }
      left -= chunk.byteLength
      yield chunk
    }
  }

  close() {
    this.signal?.removeEventListener('abort', this.cancel)
    if (!this.done) this.cancel()
  }
}
