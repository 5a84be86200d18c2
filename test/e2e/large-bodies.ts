// Large bodies for the file tests and the benchmark: made on the fly, never whole in memory; SHA-256s computed
// as the bytes pass; and the resident memory of a process sampled from /proc (Linux) while they do.

import { readFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'

export const MIB = 1024 * 1024

/** A body being generated, and the SHA-256 (hex) of what it sent, known once it has all been read. */
export interface GeneratedBody {
  readonly stream: ReadableStream<Uint8Array>
  readonly sha256: Promise<string>
}

/**
 * `bytes` bytes of one random 1 MiB block with the chunk's number and a random seed written into its first
 * 8 bytes, so no two chunks (and no two bodies) are alike, at the cost of one copy per MiB. Without `hashed`
 * the SHA-256 is not computed (a benchmark's sender then costs only the copy) and `sha256` is empty.
 */
export function generatedBody(bytes: number, { hashed = true } = {}): GeneratedBody {
  const block = new Uint8Array(randomBytes(MIB))
  const seed = randomBytes(4).readUInt32LE()
  const hash = hashed ? new Bun.CryptoHasher('sha256') : undefined
  let sent = 0
  let n = 0
  let done!: (hex: string) => void
  const sha256 = new Promise<string>(resolve => {
    done = resolve
  })
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes) {
          controller.close()
          done(hash?.digest('hex') ?? '')
          return
        }
        const chunk = block.slice(0, Math.min(MIB, bytes - sent))
        const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        if (chunk.byteLength >= 8) {
          view.setUint32(0, n++)
          view.setUint32(4, seed)
        }
        sent += chunk.byteLength
        hash?.update(chunk)
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, sha256 }
}

/** The SHA-256 (hex) and length of a response body, read as it streams. */
export async function streamedSha256(body: ReadableStream<Uint8Array> | null): Promise<{ sha256: string; size: number }> {
  const hash = new Bun.CryptoHasher('sha256')
  let size = 0
  if (body)
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk)
      size += chunk.byteLength
    }
  return { sha256: hash.digest('hex'), size }
}

/** Resident memory of a process in MB, from /proc/<pid>/status (Linux). */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024

export interface RssSampler {
  /** Stops sampling; the highest RSS seen (MB). */
  stop(): number
}

/** Reads the process's RSS every `everyMs` until stopped (or until the process is gone). */
export function sampleRss(pid: number, everyMs = 20): RssSampler {
  let peak = 0
  // A process that has exited (a zombie has no VmRSS line) or been reaped is simply not sampled again.
  const read = () => {
    try {
      const mb = rssMb(pid)
      if (Number.isFinite(mb)) peak = Math.max(peak, mb)
    } catch {
      clearInterval(timer)
    }
  }
  const timer = setInterval(read, everyMs)
  read()
  return {
    stop() {
      clearInterval(timer)
      read()
      return peak
    },
  }
}
