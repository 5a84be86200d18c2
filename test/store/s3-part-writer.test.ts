// The S3 upload's part writer against a stand-in for Bun's writer: whole parts handed over in order, the body's bytes
// exactly, at most two parts held (one being stored, one gathering), and a failed part reported.

import { describe, expect, test } from 'bun:test'
import type { NetworkSink } from 'bun'
import { partWriter } from '../../src/store/s3-part-writer.ts'

const PART = 16

/** Bun's writer as the part writer uses it: `write` copies (as Bun's does), `flush` resolves when the test says. */
function fakeWriter() {
  const written: Uint8Array[] = []
  const flushes: { resolve: () => void; reject: (err: Error) => void }[] = []
  const writer = {
    write(bytes: Uint8Array) {
      written.push(bytes.slice())
      return bytes.byteLength
    },
    flush: () =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ resolve, reject })
      }),
  }
  return { writer: writer as unknown as NetworkSink, written, flushes }
}

const bytes = (from: number, n: number) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251)
const joined = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))
/** Resolves once the microtasks queued so far (and the ones they queue) have run. */
const settled = () => Bun.sleep(1)

describe('S3 part writer', () => {
  test('chunks of any size become whole parts, the last one shorter, the bytes and their order exactly the body', async () => {
    const { writer, written, flushes } = fakeWriter()
    const seen: Uint8Array[] = []
    const parts = partWriter(
      writer,
      PART,
      b => void seen.push(b.slice()),
      p => p,
    )
    const sizes = [5, 7, 9, 40, 1, 3, 20]
    let at = 0
    const body: Uint8Array[] = []
    for (const n of sizes) {
      body.push(bytes(at, n))
      at += n
    }
    const resolveAll = setInterval(() => {
      for (const f of flushes.splice(0)) f.resolve()
    }, 1)
    try {
      for (const chunk of body) await parts.add(chunk)
      await parts.finish()
    } finally {
      clearInterval(resolveAll)
    }
    expect(written.map(w => w.byteLength)).toEqual([16, 16, 16, 16, 16, 5])
    expect(joined(written)).toEqual(joined(body))
    expect(joined(seen)).toEqual(joined(body))
  })

  test('a body of one chunk is handed over as that chunk; an empty body writes nothing', async () => {
    const { writer, flushes } = fakeWriter()
    const handed: Uint8Array[] = []
    const parts = partWriter(
      writer,
      PART,
      b => void handed.push(b),
      p => p,
    )
    const only = bytes(0, 10)
    await parts.add(only)
    const finished = parts.finish()
    await settled()
    flushes[0]!.resolve()
    await finished
    expect(handed).toHaveLength(1)
    expect(handed[0]).toBe(only)

    const empty = fakeWriter()
    await partWriter(
      empty.writer,
      PART,
      () => undefined,
      p => p,
    ).finish()
    expect(empty.written).toEqual([])
  })

  test('while a part is being stored the next one gathers, and a full one waits: at most two parts held', async () => {
    const { writer, written, flushes } = fakeWriter()
    const parts = partWriter(
      writer,
      PART,
      () => undefined,
      p => p,
    )
    await parts.add(bytes(0, PART))
    expect(written).toHaveLength(1)
    // The second part gathers while the first is stored …
    await parts.add(bytes(PART, PART - 1))
    // … and, once whole, waits for it: the body is not read on.
    let added = false
    const adding = parts.add(bytes(2 * PART - 1, 1)).then(() => {
      added = true
    })
    await settled()
    expect(added).toBe(false)
    expect(written).toHaveLength(1)
    flushes[0]!.resolve()
    await adding
    expect(written).toHaveLength(2)
    expect(joined(written)).toEqual(bytes(0, 2 * PART))
  })

  test('a part that fails to be stored fails the next hand-over, or the finish', async () => {
    const { writer, flushes } = fakeWriter()
    const parts = partWriter(
      writer,
      PART,
      () => undefined,
      p => p,
    )
    await parts.add(bytes(0, PART))
    flushes[0]!.reject(new Error('engine down'))
    await settled()
    // The next part still gathers; handing it over reports the failure.
    await parts.add(bytes(PART, 4))
    await expect(parts.add(bytes(PART + 4, PART))).rejects.toThrow('engine down')

    const other = fakeWriter()
    const last = partWriter(
      other.writer,
      PART,
      () => undefined,
      p => p,
    )
    await last.add(bytes(0, PART))
    other.flushes[0]!.reject(new Error('engine down'))
    await expect(last.finish()).rejects.toThrow('engine down')
  })
})
