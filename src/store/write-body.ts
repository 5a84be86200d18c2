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
 * Writes `body` at `start`; `progress.size` is the file's length after the last whole chunk, also when the body
 * fails midway (the caller decides whether what arrived stays). Returns false when `limits.signal` stopped the
 * reading, true when the body ended. Refusals (too large, disk full, ENOSPC) throw BlobWriteError; the caller
 * removes or cuts back what was written.
 */
export async function writeBody(body: BlobSource, w: BodyWrite, progress: { size: number }): Promise<boolean> {
  const { maxBytes, reserveBytes, expectedBytes = 0, observe, signal } = w.limits
  if (maxBytes !== undefined && w.start + expectedBytes > maxBytes) throw tooLarge(maxBytes)
  if (w.freeBytes() - expectedBytes < reserveBytes) throw diskFull(reserveBytes)
  progress.size = w.start
  let nextCheck = w.start + Math.max(expectedBytes, CHECK_SPACE_EVERY)
  // A stream is read through its reader, so that a signal can cancel a read that is waiting for the client.
  const reader = body instanceof ReadableStream ? body.getReader() : undefined
  const stop = () => {
    void reader?.cancel().catch(() => undefined)
  }
  signal?.addEventListener('abort', stop, { once: true })
  try {
    for await (const chunk of reader ? readAll(reader) : (body as AsyncIterable<Uint8Array>)) {
      if (signal?.aborted) return false
      const size = progress.size + chunk.byteLength
      if (maxBytes !== undefined && size > maxBytes) throw tooLarge(maxBytes)
      if (size > nextCheck) {
        if (w.freeBytes() - chunk.byteLength < reserveBytes) throw diskFull(reserveBytes)
        nextCheck = size + CHECK_SPACE_EVERY
      }
      observe?.(chunk)
      const writing = writeFully(w.handle, chunk, progress.size)
      // Bun writes the chunk on its I/O pool (the call itself returns in a fifth of the write's time) while this
      // thread hashes it: hashing after each write left the disk idle for the hash's time, 22 % of the pod's
      // samples of an upload
      w.written(chunk)
      await writing
      progress.size = size
    }
    return !signal?.aborted
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') throw diskFull(reserveBytes, err)
    throw err
  } finally {
    signal?.removeEventListener('abort', stop)
    if (reader) void reader.cancel().catch(() => undefined)
  }
}

async function writeFully(handle: FileHandle, chunk: Uint8Array, at: number): Promise<void> {
  for (let done = 0; done < chunk.byteLength; ) done += (await handle.write(chunk, done, chunk.byteLength - done, at + done)).bytesWritten
}

async function* readAll(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterable<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    yield value
  }
}
