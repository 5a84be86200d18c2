// An append taken over by another request on its upload (resumable uploads §4.7, rs/upload-sessions.ts) keeps the
// bytes its client sent before it went away, and stops waiting for more. Under load the takeover can come before the
// append has read a byte of what had arrived: it used to keep none of it, and a HEAD then answered offset 0.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A request body whose client sent `chunks` and then went quiet (the connection open, nothing more coming). */
function arrivedThenQuiet(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c)
    },
  })
}

describe('an append taken over by another request', () => {
  const id = 'ab'.repeat(16)
  const chunks = [new Uint8Array(300_000).fill(1), new Uint8Array(200_000).fill(2), new Uint8Array(7).fill(3)]
  const total = chunks.reduce((n, c) => n + c.byteLength, 0)

  test('taken over before it read anything: what had arrived is kept, and it ends without waiting for the client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-takeover-'))
    dirs.push(dir)
    const blobs = openLocalBlobStore(dir)
    await blobs.startPartial(id)
    const result = await blobs.appendPartial(id, arrivedThenQuiet(chunks), { reserveBytes: 0, signal: AbortSignal.abort() })
    expect(result).toEqual({ size: total, ended: false })
    expect(blobs.partialSize(id)).toBe(total)
    expect(readFileSync(join(dir, 'uploads', id))).toEqual(Buffer.concat(chunks))
  })

  test('taken over while it waits on the client: it stops at once with what it read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-takeover-'))
    dirs.push(dir)
    const blobs = openLocalBlobStore(dir)
    await blobs.startPartial(id)
    const takeover = new AbortController()
    const appending = blobs.appendPartial(id, arrivedThenQuiet(chunks), { reserveBytes: 0, signal: takeover.signal })
    await Bun.sleep(50)
    takeover.abort()
    expect(await appending).toEqual({ size: total, ended: false })
  })
})
