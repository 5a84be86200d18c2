// Writing a body to the end of an open file as it arrives, for whole blobs and for appends to partial uploads
// alike: the size cap, the disk's reserve (before the first byte and as the body grows) and ENOSPC checked on the way.

import type { FileHandle } from 'node:fs/promises'
import { BlobWriteError, type AppendLimits, type BlobSource } from './blob-store.ts'

/** How often a write of unknown length looks at the free space again. */
const CHECK_SPACE_EVERY = 16 * 1024 * 1024

export const diskFull = (reserve: number, cause?: unknown) =>
  new BlobWriteError('disk_full', `the pod's disk is too full to store this: it keeps at least ${reserve} bytes free, and this write would leave less`, {
    cause,
  })
const tooLarge = (max: number) => new BlobWriteError('too_large', `the body is larger than this pod accepts (${max} bytes)`)

export interface BodyWrite {
  readonly handle: FileHandle
  /** The file's length before the body: the body goes after it. */
  readonly start: number
  readonly limits: AppendLimits
  readonly freeBytes: () => number
  /**
   * Sees each chunk while it is being written (the running hash, the collection rhythm); should that write fail,
   * the body fails with it, and a running hash counts more bytes than the file holds.
   */
  readonly written: (chunk: Uint8Array) => void
}

/**
 * Bytes gathered before one write: a request body arrives in ~64 KiB chunks, and one write (and one hash update)
 * per chunk cost the JS thread more than the copy into a larger block does.
 */
export const WRITE_BLOCK = 1024 * 1024
/**
 * Bytes written between two early flushes (fdatasync, on Bun's I/O pool, not awaited until the next one). The
 * kernel starts writing dirty pages back only past a share of the RAM (gigabytes on a big box), so without these
 * the last sync did all of a large body's disk work after its last byte had arrived; with them the disk writes
 * while the body is still arriving, and the sync before the answer has at most this much left to do.
 */
export const FLUSH_EVERY = 32 * 1024 * 1024

/**
 * Writes `body` at `start`; `progress.size` is the file's length after the last whole write, also when the body
 * fails midway (what had arrived is written first; the caller decides whether it stays). Returns false when
 * `limits.signal` stopped the reading, true when the body ended. Refusals (too large, disk full, ENOSPC) throw
 * BlobWriteError; the caller removes or cuts back what was written. Nothing is durable until the caller syncs.
 * With `limits.ownsChunks` each chunk is emptied once its bytes are copied or written (`release`): only for a body
 * the pod alone reads (a request's), never for bytes a caller keeps.
 */
export async function writeBody(body: BlobSource, w: BodyWrite, progress: { size: number }): Promise<boolean> {
  const { maxBytes, reserveBytes, expectedBytes = 0, observe, signal } = w.limits
  if (maxBytes !== undefined && w.start + expectedBytes > maxBytes) throw tooLarge(maxBytes)
  if (w.freeBytes() - expectedBytes < reserveBytes) throw diskFull(reserveBytes)
  progress.size = w.start
  let nextCheck = w.start + Math.max(expectedBytes, CHECK_SPACE_EVERY)
  // A stream is read through its reader, so that a signal can cancel a read that is waiting for the client.
  const reader = body instanceof ReadableStream ? body.getReader() : undefined
  const out = blockWriter(w, progress, w.limits.ownsChunks === true)
  let received = w.start
  /** One chunk checked and handed to the writer: a promise only when a block is being written. */
  const take = (chunk: Uint8Array): Promise<void> | undefined => {
    const size = received + chunk.byteLength
    if (maxBytes !== undefined && size > maxBytes) throw tooLarge(maxBytes)
    if (size > nextCheck) {
      if (w.freeBytes() - (size - progress.size) < reserveBytes) throw diskFull(reserveBytes)
      nextCheck = size + CHECK_SPACE_EVERY
    }
    observe?.(chunk)
    received = size
    return out.add(chunk)
  }
  const reads = reader ? streamReads(reader, signal) : undefined
  try {
    try {
      if (reads) {
        // A request body comes in ~30 chunks a MiB: a plain loop, not an async iterator, costs each one two promises fewer.
        for (let chunk = await reads.next(); chunk !== undefined; chunk = await reads.next()) {
          const adding = take(chunk)
          if (adding) await adding
        }
      } else
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          if (signal?.aborted) break
          const adding = take(chunk)
          if (adding) await adding
        }
    } catch (err) {
      // A body that failed midway (the client went away) keeps what had arrived; a refusal writes nothing more.
      if (!(err instanceof BlobWriteError) && !out.failed) await out.finish()
      throw err
    }
    await out.finish()
    return !signal?.aborted
  } catch (err) {
    await out.settle()
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') throw diskFull(reserveBytes, err)
    throw err
  } finally {
    reads?.close()
    if (reader) void reader.cancel().catch(() => undefined)
  }
}

/**
 * Gathers chunks until they make WRITE_BLOCK bytes and writes them as one block while the next ones arrive: at
 * most one write under way on Bun's I/O pool, while this thread hashes the block and reads on. Chunks wait as
 * they are (no copy) and are copied into one reused buffer when a block of several is written, so a small body
 * is written from its own chunk and allocates nothing. `progress.size` moves when a write has finished.
 */
function blockWriter(w: BodyWrite, progress: { size: number }, ownsChunks: boolean) {
  let waiting: Uint8Array[] = []
  let waitingBytes = 0
  let buffer: Uint8Array | undefined
  let writing: Promise<void> | undefined
  let flushing: Promise<void> | undefined
  let sinceFlush = 0
  let failed = false
  // Marked as handled at once: a write that fails while chunks gather is reported by the next await of it.
  const watched = (p: Promise<void>) => {
    p.catch(() => {
      failed = true
    })
    return p
  }
  /** The waiting chunks as one run of bytes; the buffer is free, as no write is under way. */
  function gather(): Uint8Array {
    if (waiting.length === 1) return waiting[0] as Uint8Array
    if (buffer === undefined || buffer.byteLength < waitingBytes) buffer = new Uint8Array(Math.max(WRITE_BLOCK * 1.25, waitingBytes))
    let at = 0
    for (const chunk of waiting) {
      buffer.set(chunk, at)
      at += chunk.byteLength
      if (ownsChunks) release(chunk)
    }
    return buffer.subarray(0, at)
  }
  async function writeWaiting() {
    const pending = writing
    writing = undefined
    await pending
    if (waitingBytes === 0) return
    const bytes = gather()
    // A chunk written as it is (not copied into the buffer) is emptied once the write has finished, after the hash.
    const alone = ownsChunks && waiting.length === 1
    waiting = []
    waitingBytes = 0
    const at = progress.size
    writing = watched(
      writeFully(w.handle, bytes, at).then(() => {
        progress.size = at + bytes.byteLength
        if (alone) release(bytes)
      }),
    )
    w.written(bytes)
    sinceFlush += bytes.byteLength
    if (sinceFlush >= FLUSH_EVERY) {
      sinceFlush = 0
      const written = writing
      const previous = flushing
      // One flush at a time, each after the write that completes its span.
      flushing = watched(Promise.all([written, previous]).then(() => w.handle.datasync()))
    }
  }
  return {
    /** A write or flush has failed: nothing more is written. */
    get failed() {
      return failed
    },
    /** Gathers `chunk`; once a block is full, writes it (the promise), else nothing to wait for. */
    add(chunk: Uint8Array): Promise<void> | undefined {
      waiting.push(chunk)
      waitingBytes += chunk.byteLength
      return waitingBytes >= WRITE_BLOCK ? writeWaiting() : undefined
    },
    /** Writes what is gathered and waits for every write and flush. */
    async finish() {
      await writeWaiting()
      await writing
      await flushing
    },
    /** Waits for what is under way, ignoring its outcome (the write has already failed). */
    async settle() {
      await Promise.allSettled([writing, flushing])
    },
  }
}

/**
 * Empties a chunk the pod owns (BlobLimits.ownsChunks) once its bytes are copied or written: detaching its ArrayBuffer
 * frees the memory now, where a dropped chunk waits for a garbage collection (JavaScriptCore does not count it
 * towards scheduling one). Only a chunk that is its whole ArrayBuffer: a view into a larger one (a slice another
 * reader made, Node's pooled Buffers) shares its memory with bytes that are not this chunk's.
 */
export function release(chunk: Uint8Array): void {
  // ArrayBuffer.prototype.transfer is ES2024 (Bun has it; the project's lib is ES2023).
  const buffer = chunk.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }
  if (buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength && chunk.byteLength > 0) buffer.transfer?.(0)
}

async function writeFully(handle: FileHandle, chunk: Uint8Array, at: number): Promise<void> {
  for (let done = 0; done < chunk.byteLength; ) done += (await handle.write(chunk, done, chunk.byteLength - done, at + done)).bytesWritten
}

/**
 * The stream's chunks until `signal` aborts (another request took the upload over); after that, only those that
 * have arrived already (a read that resolves before the event loop turns), so that bytes a client sent before it
 * went away are kept, while a read waiting on the client is cancelled. `next` answers undefined at the end.
 */
function streamReads(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal | undefined) {
  const cancel = () => void reader.cancel().catch(() => undefined)
  let waiting = false
  // One listener for the whole body (not one per chunk): it cancels only a read that is waiting on the client.
  const onAbort = () => {
    if (waiting) cancel()
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  return {
    async next(): Promise<Uint8Array | undefined> {
      const read = reader.read()
      if (signal?.aborted) {
        const r = await Promise.race([read, new Promise<undefined>(resolve => setImmediate(resolve))])
        if (r === undefined) {
          void read.catch(() => undefined)
          cancel()
          return undefined
        }
        return r.done ? undefined : r.value
      }
      waiting = true
      try {
        const r = await read
        return r.done ? undefined : r.value
      } finally {
        waiting = false
      }
    },
    close: () => signal?.removeEventListener('abort', onAbort),
  }
}
