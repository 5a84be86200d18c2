// Files over real HTTP: streamed to disk and back, Range and If-Range, Repr-Digest, replacement and the start-up sweep.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { expectRsError } from '../rs/rs-helpers.ts'

let pod: RunningPod
beforeAll(async () => {
  // Versions off: these tests count the files a replaced or deleted file leaves; versions holding them is test/e2e/versions.test.ts.
  pod = await startPod({
    seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append', 'Control']),
    extraArgs: ['--keep-versions-days', '0'],
  })
})
afterAll(() => pod?.dispose())

const url = (path: string) => pod.baseUrl + path
const BYTES = randomBytes(300_000)
const reprDigest = (b: Uint8Array) => `sha-256=:${createHash('sha256').update(b).digest('base64')}:`

/** Every blob file in the data directory (files/<2 hex>/<id>). */
function blobFiles(): string[] {
  const root = join(pod.dataDir, 'files')
  return readdirSync(root).flatMap(shelf => readdirSync(join(root, shelf)).map(f => `${shelf}/${f}`))
}

/** Sends only the headers of a PUT announcing `length` bytes and reads the status the pod answers with. */
async function statusOfHeadersOnly(path: string, type: string, length: number): Promise<number> {
  let out = ''
  const answered = Promise.withResolvers<void>()
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port: pod.port,
    socket: {
      data(_s, d) {
        out += d.toString()
        if (out.includes('\r\n')) answered.resolve()
      },
      close() {
        answered.resolve()
      },
      error() {
        answered.resolve()
      },
    },
  })
  socket.write(`PUT ${path} HTTP/1.1\r\nHost: localhost:${pod.port}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`)
  await answered.promise
  socket.end()
  return Number(out.split(' ', 2)[1])
}

async function put(path: string, body: Uint8Array<ArrayBuffer>, type = 'application/octet-stream', headers: Record<string, string> = {}) {
  return fetch(url(path), { method: 'PUT', headers: { 'content-type': type, ...headers }, body })
}

// Names are not ASCII: every case runs on a path with a space, an accent, and encoded `#`, `?`, `%` and `+`.
const NAME = '/pub/Ünïcode%20film%20%23%3F%25+.mp4'

describe('files', () => {
  beforeAll(async () => {
    expect((await put(NAME, BYTES, 'video/mp4')).status).toBe(201)
  })

  test('GET streams the file back with its type, length, Accept-Ranges and Repr-Digest (RFC 9530)', async () => {
    const res = await fetch(url(NAME))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('video/mp4')
    expect(res.headers.get('content-length')).toBe(String(BYTES.length))
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(res.headers.get('repr-digest')).toBe(reprDigest(BYTES))
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true)
  })

  test('HEAD: the same headers, no body, and Range does not apply', async () => {
    const res = await fetch(url(NAME), { method: 'HEAD', headers: { range: 'bytes=0-9' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(BYTES.length))
    expect(res.headers.get('repr-digest')).toBe(reprDigest(BYTES))
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  test('one range → 206 with Content-Range; open and suffix ranges', async () => {
    for (const [range, first, last] of [
      ['bytes=0-99', 0, 99],
      ['bytes=299990-', 299990, 299999],
      ['bytes=-10', 299990, 299999],
      ['bytes=1000-999999999', 1000, 299999],
    ] as const) {
      const res = await fetch(url(NAME), { headers: { range } })
      expect(res.status).toBe(206)
      expect(res.headers.get('content-range')).toBe(`bytes ${first}-${last}/${BYTES.length}`)
      expect(res.headers.get('content-length')).toBe(String(last - first + 1))
      // Repr-Digest is of the whole representation, also on a 206 (RFC 9530 §3).
      expect(res.headers.get('repr-digest')).toBe(reprDigest(BYTES))
      expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(first, last + 1))).toBe(true)
    }
  })

  test('a range past the end → 416 range_not_satisfiable with the length in Content-Range', async () => {
    const res = await fetch(url(NAME), { headers: { range: `bytes=${BYTES.length}-` } })
    await expectRsError(res, 416, 'range_not_satisfiable')
    expect(res.headers.get('content-range')).toBe(`bytes */${BYTES.length}`)
  })

  test('If-Range with the current ETag gives the range; with an old ETag or a date, the whole file', async () => {
    const etag = (await fetch(url(NAME), { method: 'HEAD' })).headers.get('etag')!
    const same = await fetch(url(NAME), { headers: { range: 'bytes=0-9', 'if-range': etag } })
    expect(same.status).toBe(206)
    expect((await same.arrayBuffer()).byteLength).toBe(10)
    for (const ifRange of ['"stale"', new Date().toUTCString()]) {
      const other = await fetch(url(NAME), { headers: { range: 'bytes=0-9', 'if-range': ifRange } })
      expect(other.status).toBe(200)
      expect((await other.arrayBuffer()).byteLength).toBe(BYTES.length)
    }
  })

  test('several ranges get the whole file with 200 (the documented choice)', async () => {
    const res = await fetch(url(NAME), { headers: { range: 'bytes=0-9,20-29' } })
    expect(res.status).toBe(200)
    expect((await res.arrayBuffer()).byteLength).toBe(BYTES.length)
  })

  test('If-None-Match with the ETag is still a 304, before any Range', async () => {
    const etag = (await fetch(url(NAME), { method: 'HEAD' })).headers.get('etag')!
    const res = await fetch(url(NAME), { headers: { range: 'bytes=0-9', 'if-none-match': etag } })
    expect(res.status).toBe(304)
  })
})

describe('files on disk', () => {
  test('a replaced file keeps one blob; a deleted one none; files no resource names are gone after a restart', async () => {
    const path = '/pub/replace%20me.bin'
    const before = new Set(blobFiles())
    expect((await put(path, randomBytes(1000))).status).toBe(201)
    const second = randomBytes(2000)
    expect((await put(path, second)).status).toBe(204)
    // The replaced version lingers briefly for readers that had just looked it up; a restart sweeps it.
    await pod.restart()
    const added = blobFiles().filter(f => !before.has(f))
    expect(added.length).toBe(1)
    expect(Buffer.from(await (await fetch(url(path))).arrayBuffer()).equals(second)).toBe(true)
    expect((await fetch(url(path), { method: 'DELETE' })).status).toBe(204)
    await pod.restart()
    expect(blobFiles().filter(f => !before.has(f))).toEqual([])
  })

  test('an upload refused midway (too large for --max-body-bytes is tested in rs; here a 412) leaves nothing', async () => {
    const before = blobFiles().length
    const res = await put('/pub/guarded.bin', randomBytes(5000), 'application/octet-stream', { 'if-match': '"nope"' })
    await expectRsError(res, 412, 'precondition_failed')
    expect(blobFiles().length).toBe(before)
  })

  test('a file sent to an ACL document or a container → 415 unsupported_media_type from the headers, nothing stored', async () => {
    const before = blobFiles().length
    for (const path of ['/pub/film.mp4.acl', '/pub/a%20folder/']) {
      await expectRsError(await put(path, randomBytes(2_000_000), 'video/mp4'), 415, 'unsupported_media_type')
      expect((await fetch(url(path))).status).toBe(404)
    }
    expect(blobFiles().length).toBe(before)
    // Decided before a byte is read: a petabyte announced to an ACL gets the 415, not the disk's 507.
    expect(await statusOfHeadersOnly('/pub/film.mp4.acl', 'video/mp4', 1e15)).toBe(415)
  })

  test('an RDF document is not a file: Turtle stays in the store, not in files/', async () => {
    const before = blobFiles().length
    expect((await put('/pub/doc.ttl', new TextEncoder().encode('<#a> <#b> <#c>.') as Uint8Array<ArrayBuffer>, 'text/turtle')).status).toBe(201)
    expect(blobFiles().length).toBe(before)
    expect((await fetch(url('/pub/doc.ttl'))).headers.get('accept-ranges')).toBeNull()
  })
})
