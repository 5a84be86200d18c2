// A body whose chunks the pod owns (BlobLimits.ownsChunks: a request's body stream) has each chunk emptied once its
// bytes are copied or written, so its memory goes back at once (store/write-body.ts). The bytes stored and their
// SHA-256 stay right; bytes a caller keeps (no ownsChunks, or a view into a larger buffer) are never emptied.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'
import { WRITE_BLOCK } from '../../src/store/write-body.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-owned-'))
  dirs.push(dir)
  return { dir, blobs: openLocalBlobStore(dir) }
}
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex')

/**
 * Chunks as a request body brings them (~64 KiB, each its own ArrayBuffer), with two of a block or more arriving when
 * none wait (each written as it is, not copied) and short ones; the bytes vary, so a lost or zeroed chunk shows.
 */
const SIZES = [WRITE_BLOCK + 5, ...Array.from({ length: 48 }, () => 65_536), 2 * WRITE_BLOCK, 30_000, 65_536, 17]
const PATTERN = new Uint8Array(SIZES.reduce((a, b) => a + b, 0)).map((_, i) => (i * 7 + (i >> 16)) & 0xff)
function chunks(): Uint8Array[] {
  let at = 0
  // slice, not subarray: each chunk its own ArrayBuffer, as a request's are
  return SIZES.map(size => PATTERN.slice(at, (at += size)))
}
const copyOf = (cs: Uint8Array[]) => new Uint8Array(Buffer.concat(cs.map(c => Buffer.from(c))))
/** The chunks as a stream, the way a request's body reaches the store. */
const streamOf = (cs: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of cs) controller.enqueue(c)
      controller.close()
    },
  })

describe('a body whose chunks the pod owns', () => {
  test('put: every chunk is emptied once stored, and the file and its SHA-256 are the bytes sent', async () => {
    const { blobs } = store()
    const sent = chunks()
    const expected = copyOf(sent)
    const blob = await blobs.put(streamOf(sent), { reserveBytes: 0, ownsChunks: true })
    expect(blob.size).toBe(expected.byteLength)
    expect(blob.sha256).toBe(sha256(expected))
    expect(new Uint8Array(readFileSync(blobs.localFile(blob.id)!)).every((b, i) => b === expected[i])).toBe(true)
    expect(sent.map(c => c.byteLength)).toEqual(sent.map(() => 0))
  })

  test('put: a chunk that is a view into a larger buffer is not emptied (the rest of the buffer is not the body’s)', async () => {
    const { blobs } = store()
    const shared = new Uint8Array(4 * WRITE_BLOCK).map((_, i) => i & 0xff)
    const before = sha256(shared)
    const views = [shared.subarray(0, WRITE_BLOCK + 1), shared.subarray(WRITE_BLOCK + 1, WRITE_BLOCK + 70_000), shared.subarray(3 * WRITE_BLOCK)]
    const expected = copyOf(views)
    const blob = await blobs.put(streamOf(views), { reserveBytes: 0, ownsChunks: true })
    expect(blob.sha256).toBe(sha256(expected))
    expect(shared.byteLength).toBe(4 * WRITE_BLOCK)
    expect(sha256(shared)).toBe(before)
  })

  test('put without ownsChunks (an import, a backup, bytes in memory): the caller’s chunks stay as they were', async () => {
    const { blobs } = store()
    const sent = chunks()
    const expected = copyOf(sent)
    const blob = await blobs.put(sent, { reserveBytes: 0 })
    expect(blob.sha256).toBe(sha256(expected))
    expect(sha256(copyOf(sent))).toBe(sha256(expected))
    const stream = chunks()
    expect((await blobs.put(streamOf(stream), { reserveBytes: 0 })).sha256).toBe(sha256(expected))
    expect(sha256(copyOf(stream))).toBe(sha256(expected))
  })

  test('appends to a partial upload: chunks emptied, the finished blob’s SHA-256 is of all the bytes in order', async () => {
    const { dir, blobs } = store()
    const id = 'cd'.repeat(16)
    await blobs.startPartial(id)
    const first = chunks()
    const second = chunks().reverse()
    const expected = copyOf([...first, ...second])
    const a = await blobs.appendPartial(id, streamOf(first), { reserveBytes: 0, ownsChunks: true })
    expect(a).toEqual({ size: copyOf(chunks()).byteLength, ended: true })
    const b = await blobs.appendPartial(id, streamOf(second), { reserveBytes: 0, ownsChunks: true })
    expect(b).toEqual({ size: expected.byteLength, ended: true })
    expect([...first, ...second].every(c => c.byteLength === 0)).toBe(true)
    expect(sha256(new Uint8Array(readFileSync(join(dir, 'uploads', id))))).toBe(sha256(expected))
    const blob = await blobs.finishPartial(id)
    expect(blob).toMatchObject({ size: expected.byteLength, sha256: sha256(expected) })
  })
})
