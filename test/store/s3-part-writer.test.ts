// The S3 upload's part writer against a stand-in for the part requests: whole parts handed over in order, the body's
// bytes exactly, a body shorter than a part one last part, at most the parts being sent and one gathering held, copied
// chunks reported (to be emptied), and a failed part reported.

import { describe, expect, test } from 'bun:test'
import { partWriter, type PartWriterOptions } from '../../src/store/s3-part-writer.ts'

const PART = 16

interface Sent {
  readonly bytes: Uint8Array
  readonly n: number
  readonly last: boolean
  resolve(): void
  reject(err: Error): void
}

/** A part writer whose sends wait until the test settles them; `sent` keeps a copy of each part's bytes as sent. */
function writerOf(options: PartWriterOptions = {}) {
  const sent: Sent[] = []
  const parts = partWriter(
    PART,
    (bytes, n, last) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ bytes: bytes.slice(), n, last, resolve, reject })
      }),
    options,
  )
  return { parts, sent }
}

/** Feeds `chunks` and finishes, every send answered at once; returns the parts sent. */
async function sendAll(chunks: Uint8Array[], options: PartWriterOptions = {}): Promise<Sent[]> {
  const { parts, sent } = writerOf(options)
  const answer = setInterval(() => {
    for (const s of sent) s.resolve()
  }, 1)
  try {
    for (const chunk of chunks) await parts.add(chunk)
    await parts.finish()
  } finally {
    clearInterval(answer)
  }
  return sent
}

const bytes = (from: number, n: number) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251)
const joined = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))
/** Consecutive chunks of the given sizes. */
const chunksOf = (sizes: number[]) => {
  let at = 0
  return sizes.map(n => bytes((at += n) - n, n))
}
/** Resolves once the microtasks queued so far (and the ones they queue) have run. */
const settled = () => Bun.sleep(1)

describe('S3 part writer', () => {
  test('chunks of any size become whole parts numbered in order, the last one shorter, the bytes and their order exactly the body', async () => {
    const body = chunksOf([5, 7, 9, 40, 1, 3, 20])
    const seen: Uint8Array[] = []
    const sent = await sendAll(body, { sent: b => void seen.push(b.slice()) })
    expect(sent.map(s => [s.n, s.bytes.byteLength, s.last])).toEqual([
      [1, 16, false],
      [2, 16, false],
      [3, 16, false],
      [4, 16, false],
      [5, 16, false],
      [6, 5, true],
    ])
    expect(joined(sent.map(s => s.bytes))).toEqual(joined(body))
    expect(joined(seen)).toEqual(joined(body))
  })

  test('two parts sent at once: the same parts, the same bytes', async () => {
    const body = chunksOf([5, 7, 9, 40, 1, 3, 20])
    const sent = await sendAll(body, { sending: 2 })
    expect(sent.map(s => s.bytes.byteLength)).toEqual([16, 16, 16, 16, 16, 5])
    expect(joined(sent.map(s => s.bytes))).toEqual(joined(body))
  })

  test('a body shorter than a part is one last part 1, sent from its own chunk; an empty body is one empty part', async () => {
    const only = bytes(0, 10)
    const handed: Uint8Array[] = []
    const sent = await sendAll([only], { sent: b => void handed.push(b) })
    expect(sent.map(s => [s.n, s.last])).toEqual([[1, true]])
    expect(handed[0]).toBe(only)

    const small = await sendAll(chunksOf([3, 4]))
    expect(small.map(s => [s.n, s.bytes.byteLength, s.last])).toEqual([[1, 7, true]])
    const empty = await sendAll([])
    expect(empty.map(s => [s.n, s.bytes.byteLength, s.last])).toEqual([[1, 0, true]])
  })

  test('a body of exactly one part is part 1 of a multipart upload (not last): the end is known only after it', async () => {
    const sent = await sendAll(chunksOf([PART]))
    expect(sent.map(s => [s.n, s.bytes.byteLength, s.last])).toEqual([[1, 16, false]])
  })

  test('copied chunks are reported (to be emptied); a chunk sent as it is, holding a whole part, is not', async () => {
    const body = chunksOf([5, 7, 2 * PART + 3, 9])
    const copied: Uint8Array[] = []
    const sent = await sendAll(body, { copied: c => void copied.push(c) })
    expect(copied).toEqual([body[0]!, body[1]!, body[3]!])
    expect(joined(sent.map(s => s.bytes))).toEqual(joined(body))
  })

  test('while a part is being sent the next one gathers, and a full one waits: at most two parts held', async () => {
    const { parts, sent } = writerOf()
    await parts.add(bytes(0, PART))
    expect(sent).toHaveLength(1)
    // The second part gathers while the first is sent …
    expect(parts.add(bytes(PART, PART - 1))).toBeUndefined()
    // … and, once whole, waits for it: the body is not read on.
    let added = false
    const adding = parts.add(bytes(2 * PART - 1, 1))!.then(() => {
      added = true
    })
    await settled()
    expect(added).toBe(false)
    expect(sent).toHaveLength(1)
    sent[0]!.resolve()
    await adding
    expect(sent).toHaveLength(2)
    expect(joined(sent.map(s => s.bytes))).toEqual(bytes(0, 2 * PART))
  })

  test('a part that fails to be sent fails the next hand-over, or the finish', async () => {
    const first = writerOf()
    await first.parts.add(bytes(0, PART))
    first.sent[0]!.reject(new Error('engine down'))
    await settled()
    // The next part still gathers; handing it over reports the failure.
    await first.parts.add(bytes(PART, 4))
    await expect(first.parts.add(bytes(PART + 4, PART))).rejects.toThrow('engine down')

    const last = writerOf()
    await last.parts.add(bytes(0, PART))
    last.sent[0]!.reject(new Error('engine down'))
    await expect(last.parts.finish()).rejects.toThrow('engine down')
  })
})
