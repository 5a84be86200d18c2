// A body cut into whole parts for a multipart upload, the parts sent from the pod's own buffers while the body is
// read on. What is held of one upload is bounded: the parts being sent (`sending`, one by default) and the one
// gathering; a full part waits for the oldest one sent.
//
// The chunks of a request body (~64 KiB) are copied into a part buffer, and buffers are reused part after part: the
// send writes a part to its socket from that buffer (socket-put.ts), so no part is copied again on the way out.

/** The first buffer's size: a body of a few chunks needs no more. */
const FIRST_BUFFER = 1024 * 1024

export interface PartWriter {
  /**
   * Takes `chunk` (copied, or sent as it is when it holds a whole part); a promise when the body must wait before the
   * next chunk (a full part waits for room), otherwise nothing to await.
   */
  add(chunk: Uint8Array): Promise<void> | undefined
  /** Hands over what is left (an empty body is one empty part) and waits for every part to be sent. */
  finish(): Promise<void>
  /** Waits for the sends under way, whatever their outcome (after a failure, before the upload is given up). */
  settle(): Promise<void>
}

export interface PartWriterOptions {
  /** Parts sent at once; a function is asked each time a part is ready while another is being sent. */
  readonly sending?: number | (() => number)
  /** Sees every byte in order as a part is handed over (the running hash). */
  readonly sent?: (bytes: Uint8Array) => void
  /** A chunk whose bytes are copied, once they are (BlobLimits.ownsChunks: write-body.ts `release`). */
  readonly copied?: (chunk: Uint8Array) => void
}

/**
 * Gathers chunks into parts of `partSize` bytes and calls `send(bytes, n, last)` for part n (1, 2, …) in order:
 * `last` is true for a part handed over by `finish` (a body shorter than one part is part 1 and last: one plain PUT).
 * A failed send fails the next `add` that waits for it, or `finish`.
 */
export function partWriter(
  partSize: number,
  send: (bytes: Uint8Array, n: number, last: boolean) => Promise<unknown>,
  { sending = 1, sent, copied }: PartWriterOptions = {},
): PartWriter {
  // A body of one chunk is sent from that chunk; from the second on, chunks are copied into a buffer (the first
  // grown up to a part, so a small body stays small; the others a part at once).
  let single: Uint8Array | undefined
  let buffer: Uint8Array | undefined
  let filled = 0
  let n = 0
  const free: Uint8Array[] = []
  const inFlight: Promise<unknown>[] = []

  const mostAtOnce = typeof sending === 'number' ? () => sending : sending
  async function hand(bytes: Uint8Array, own: Uint8Array | undefined, last: boolean) {
    while (inFlight.length > 0 && inFlight.length >= mostAtOnce()) await inFlight.shift()
    sent?.(bytes)
    const part = send(bytes, ++n, last).then(() => {
      if (own !== undefined) free.push(own)
    })
    // Reported by the next await of it; the next part gathers meanwhile.
    part.catch(() => undefined)
    inFlight.push(part)
  }

  /** Room in the gathering buffer for `bytes` more (never past a part). */
  function room(bytes: number): Uint8Array {
    const need = Math.min(partSize, filled + bytes)
    if (buffer !== undefined && buffer.byteLength >= need) return buffer
    if (buffer === undefined && free.length > 0) return (buffer = free.pop()!)
    let size = n > 0 ? partSize : Math.min(partSize, Math.max(FIRST_BUFFER, buffer?.byteLength ?? 0))
    while (size < need) size = Math.min(partSize, size * 2)
    const grown = new Uint8Array(size)
    if (buffer !== undefined && filled > 0) grown.set(buffer.subarray(0, filled))
    buffer = grown
    return grown
  }

  function copy(chunk: Uint8Array, from: number, whole: boolean): Promise<void> | undefined {
    for (let at = from; at < chunk.byteLength; ) {
      if (filled === 0 && chunk.byteLength - at >= partSize) {
        // A whole part in the chunk itself: sent as it is (and the chunk kept, not emptied).
        const next = at + partSize
        return hand(chunk.subarray(at, next), undefined, false).then(() => copy(chunk, next, false))
      }
      const take = Math.min(chunk.byteLength - at, partSize - filled)
      room(take).set(at === 0 && take === chunk.byteLength ? chunk : chunk.subarray(at, at + take), filled)
      filled += take
      at += take
      if (filled === partSize) {
        const full = buffer!
        buffer = undefined
        filled = 0
        return hand(full, full, false).then(() => copy(chunk, at, whole))
      }
    }
    if (whole) copied?.(chunk)
    return undefined
  }

  return {
    add(chunk) {
      if (single === undefined && n === 0 && filled === 0 && chunk.byteLength < partSize) {
        single = chunk
        return undefined
      }
      if (single !== undefined) {
        const first = single
        single = undefined
        const waiting = copy(first, 0, true)
        if (waiting !== undefined) return waiting.then(() => copy(chunk, 0, true))
      }
      return copy(chunk, 0, true)
    },
    async finish() {
      if (single !== undefined) await hand(single, undefined, true)
      else if (filled > 0 || n === 0) await hand(buffer?.subarray(0, filled) ?? new Uint8Array(0), buffer, true)
      single = undefined
      buffer = undefined
      filled = 0
      while (inFlight.length > 0) await inFlight.shift()
    },
    async settle() {
      await Promise.allSettled(inFlight.splice(0))
    },
  }
}
