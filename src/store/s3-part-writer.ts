// Bytes handed to Bun's S3 writer a whole part at a time, the next part gathered while this one is stored.
//
// Bun's writer copies what `write()` is given onto the end of its own buffer, which grows as chunks arrive: for
// the ~64 KiB chunks of a request body that cost the pod's JS thread ~16 ms per MiB (memmove into the grown buffer
// and the page faults of each new one; measured in test/bench/s3-upload-cpu.ts and a `--cpu-prof`, where `write`
// was two thirds of the JS thread's samples), against ~1–3 ms for one `write()` of a whole part.

import type { NetworkSink } from 'bun'

/** The buffer's first size: a body of a few chunks needs no more. */
const FIRST_BUFFER = 1024 * 1024

export interface PartWriter {
  /** Takes `chunk` (copied before this resolves, so the caller may reuse it); waits while two parts are held. */
  add(chunk: Uint8Array): Promise<void>
  /** Hands over what is left and waits for every part to be stored. */
  finish(): Promise<void>
}

/**
 * Gathers chunks into one buffer of `partSize` bytes and writes it whole; `sent(bytes)` sees every byte in order as
 * it is handed over (the running hash). At most two parts are held: the one Bun is storing, and the one gathering
 * here (the body is read on while a part is stored; a full one waits for the stored one). `stored(promise)` bounds
 * the wait for one part (the time limit, from the part's start).
 */
export function partWriter(
  writer: NetworkSink,
  partSize: number,
  sent: (bytes: Uint8Array) => void,
  stored: (flushed: Promise<unknown>) => Promise<unknown>,
): PartWriter {
  // A body of one chunk is written from that chunk; from the second on, chunks are copied into one buffer (grown
  // up to a part, then reused part after part), so a received chunk is garbage as soon as it is copied.
  let single: Uint8Array | undefined
  let buffer: Uint8Array | undefined
  let filled = 0
  let storing: Promise<unknown> | undefined

  async function hand(bytes: Uint8Array) {
    sent(bytes)
    // One part in Bun's hands at a time: the previous one is stored before this one is written.
    const previous = storing
    storing = undefined
    await previous
    // Copied by Bun before it returns: the buffer is free again.
    writer.write(bytes)
    storing = stored(Promise.resolve(writer.flush()))
    // Reported by the next await of it; the next part gathers meanwhile.
    storing.catch(() => undefined)
  }

  /** Room in the buffer for `bytes` more (never past a part): doubled from FIRST_BUFFER, so a small body stays small. */
  function room(bytes: number): Uint8Array {
    const need = Math.min(partSize, filled + bytes)
    if (buffer !== undefined && buffer.byteLength >= need) return buffer
    let size = Math.min(partSize, Math.max(FIRST_BUFFER, buffer?.byteLength ?? 0))
    while (size < need) size = Math.min(partSize, size * 2)
    const grown = new Uint8Array(size)
    if (buffer !== undefined && filled > 0) grown.set(buffer.subarray(0, filled))
    buffer = grown
    return grown
  }

  async function copy(chunk: Uint8Array) {
    for (let at = 0; at < chunk.byteLength; ) {
      if (filled === 0 && chunk.byteLength - at >= partSize) {
        // A whole part in the chunk itself: handed over as it is.
        await hand(chunk.subarray(at, at + partSize))
        at += partSize
        continue
      }
      const take = Math.min(chunk.byteLength - at, partSize - filled)
      room(take).set(at === 0 && take === chunk.byteLength ? chunk : chunk.subarray(at, at + take), filled)
      filled += take
      at += take
      if (filled === partSize) {
        filled = 0
        await hand(buffer!)
      }
    }
  }

  return {
    async add(chunk) {
      if (single === undefined && filled === 0 && chunk.byteLength < partSize) {
        single = chunk
        return
      }
      if (single !== undefined) {
        const first = single
        single = undefined
        await copy(first)
      }
      await copy(chunk)
    },
    async finish() {
      if (single !== undefined) await hand(single)
      else if (filled > 0) await hand(buffer!.subarray(0, filled))
      single = undefined
      filled = 0
      const last = storing
      storing = undefined
      await last
    },
  }
}
