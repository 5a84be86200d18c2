// Resumable uploads over real HTTP (IETF draft-ietf-httpbis-resumable-upload, interop versions 6 and 8): an upload cut
// off midway resumes from the pod's offset, across a restart too; the draft's refusals; access before the first byte.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { MAX_OPEN_UPLOADS } from '../../src/rs/upload-creation.ts'
import { expectRsError } from '../rs/rs-helpers.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append']) })
})
afterAll(() => pod?.dispose())

const url = (path: string) => pod.baseUrl + path
const BYTES = new Uint8Array(randomBytes(3 * 1024 * 1024 + 17))
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64')
const partials = () => readdirSync(join(pod.dataDir, 'uploads'))
// A space, an accent, and encoded `#`, `?`, `%` and `+`.
const NAME = '/pub/Ünïcode%20film%20%23%3F%25+.mp4'

const draft = (version: number, complete: boolean, more: Record<string, string> = {}) => ({
  'upload-draft-interop-version': String(version),
  'upload-complete': complete ? '?1' : '?0',
  ...more,
})

async function create(path: string, version = 8, more: Record<string, string> = {}, method = 'PUT'): Promise<string> {
  const res = await fetch(url(path), {
    method,
    headers: { 'content-type': 'video/mp4', ...draft(version, false, { 'upload-length': String(BYTES.length), ...more }) },
  })
  expect(res.status).toBe(201)
  expect(res.headers.get('upload-offset')).toBe('0')
  return res.headers.get('location')!
}

const append = (upload: string, offset: number, bytes: Uint8Array<ArrayBuffer>, complete: boolean, version = 8) =>
  fetch(upload, {
    method: 'PATCH',
    headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(offset), ...draft(version, complete) },
    body: bytes,
  })

async function offsetOf(upload: string): Promise<number> {
  const res = await fetch(upload, { method: 'HEAD' })
  expect(res.status).toBe(204)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return Number(res.headers.get('upload-offset'))
}

/** Sends a PATCH announcing every remaining byte, writes `sent` of them, then closes the socket: a phone going into a tunnel. */
async function appendAndCut(upload: string, offset: number, sent: number): Promise<void> {
  const u = new URL(upload)
  const head =
    `PATCH ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/partial-upload\r\nUpload-Draft-Interop-Version: 8\r\n` +
    `Upload-Complete: ?1\r\nUpload-Offset: ${offset}\r\nContent-Length: ${BYTES.length - offset}\r\n\r\n`
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(u.port), '127.0.0.1', () => {
      socket.write(head)
      socket.write(BYTES.subarray(offset, offset + sent), () =>
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 200),
      )
    })
    socket.on('error', reject)
  })
}

async function expectStored(path: string) {
  const res = await fetch(url(path))
  expect(res.status).toBe(200)
  const got = new Uint8Array(await res.arrayBuffer())
  expect(got.length).toBe(BYTES.length)
  expect(sha256(got)).toBe(sha256(BYTES))
  expect(res.headers.get('repr-digest')).toBe(`sha-256=:${sha256(BYTES)}:`)
}

describe('draft-ietf-httpbis-resumable-upload §4.2 upload creation', () => {
  test('a PUT of a file with Upload-Complete: ?0 makes an upload resource under /.uploads/ and writes nothing yet', async () => {
    const res = await fetch(url('/pub/created.bin'), { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...draft(8, false) } })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toMatch(new RegExp(`^${pod.baseUrl}/\\.uploads/[0-9a-f]{32}$`))
    expect(res.headers.get('upload-complete')).toBe('?0')
    expect(res.headers.get('upload-limit')).toBe('max-age=86400')
    expect((await fetch(url('/pub/created.bin'))).status).toBe(404)
  })

  test('access is decided before the first byte is stored: a refused creation leaves no upload behind', async () => {
    const before = partials().length
    const res = await fetch(url('/private.bin'), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...draft(8, false) },
      body: BYTES.subarray(0, 1000),
    })
    await expectRsError(res, 401, 'unauthenticated')
    expect(partials().length).toBe(before)
  })

  test('without an interop version the pod speaks, the request is an ordinary PUT', async () => {
    const res = await fetch(url('/pub/plain.bin'), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...draft(3, false) },
      body: 'whole',
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/plain.bin'))
    expect(await (await fetch(url('/pub/plain.bin'))).text()).toBe('whole')
  })
})

describe('draft-ietf-httpbis-resumable-upload §4.3, §4.4: resuming after the connection is cut', () => {
  test('HEAD gives the stored offset; appending the rest completes the PUT with exactly the bytes', async () => {
    const upload = await create(NAME)
    await appendAndCut(upload, 0, 1024 * 1024)
    const offset = await offsetOf(upload)
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(1024 * 1024)
    expect(partials()).toContain(upload.split('/').at(-1)!)
    const res = await append(upload, offset, BYTES.subarray(offset), true)
    expect(res.status).toBe(201)
    expect(res.headers.get('upload-complete')).toBe('?1')
    expect(res.headers.get('location')).toBe(new URL(url(NAME)).href)
    await expectStored(NAME)
    expect(partials()).not.toContain(upload.split('/').at(-1)!)
  })

  test('a cut before a whole write block arrived keeps every byte that did (the pod writes in 1 MiB blocks)', async () => {
    const upload = await create('/pub/cut-early.bin')
    await appendAndCut(upload, 0, 300_000)
    // A HEAD takes the upload over from an append still reading: give the pod time to see the cut first.
    await Bun.sleep(300)
    expect(await offsetOf(upload)).toBe(300_000)
    expect((await append(upload, 300_000, BYTES.subarray(300_000), true)).status).toBe(201)
    await expectStored('/pub/cut-early.bin')
  })

  test('the same across a restart of the pod between the cut and the resume', async () => {
    const path = '/pub/after restart.bin'.replace(' ', '%20')
    const upload = await create(path)
    const first = await append(upload, 0, BYTES.subarray(0, 500_000), false)
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe('500000')
    await appendAndCut(upload, 500_000, 1024 * 1024)
    await pod.restart()
    const offset = await offsetOf(upload)
    expect(offset).toBeGreaterThanOrEqual(500_000)
    expect((await append(upload, offset, BYTES.subarray(offset), true)).status).toBe(201)
    await expectStored(path)
  })

  test('a POST to a container resumes the same way and creates the member its Slug names', async () => {
    const upload = await create('/pub/', 6, { slug: 'posted film.mp4' }, 'POST')
    const half = 2 * 1024 * 1024
    expect((await append(upload, 0, BYTES.subarray(0, half), false, 6)).headers.get('upload-offset')).toBe(String(half))
    const res = await append(upload, half, BYTES.subarray(half), true, 6)
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/posted-film.mp4'))
    await expectStored('/pub/posted-film.mp4')
  })
})

describe('draft-ietf-httpbis-resumable-upload refusals', () => {
  test('409 mismatching_upload_offset carries the real offset and the problem type', async () => {
    const upload = await create('/pub/offsets.bin')
    expect((await append(upload, 0, BYTES.subarray(0, 10), false)).status).toBe(204)
    const res = await fetch(upload, {
      method: 'PATCH',
      headers: { 'content-type': 'application/partial-upload', 'upload-offset': '5', accept: 'application/problem+json', ...draft(8, false) },
      body: 'xx',
    })
    expect(res.status).toBe(409)
    expect(res.headers.get('upload-offset')).toBe('10')
    const problem = await res.json()
    expect(problem.error).toBe('mismatching_upload_offset')
    expect(problem.type).toBe('https://iana.org/assignments/http-problem-types#mismatching-upload-offset')
    expect(problem['expected-offset']).toBe(10)
    expect(problem['provided-offset']).toBe(5)
  })

  test('a completed upload takes nothing more: 400 completed_upload, or inconsistent_upload_length with content', async () => {
    const upload = await create('/pub/done.bin', 8, { 'upload-length': '4' })
    expect((await append(upload, 0, new TextEncoder().encode('abcd'), true)).status).toBe(201)
    const head = await fetch(upload, { method: 'HEAD' })
    expect(head.headers.get('upload-complete')).toBe('?1')
    expect(head.headers.get('upload-offset')).toBe('4')
    await expectRsError(await append(upload, 4, new Uint8Array(0), true), 400, 'completed_upload')
    await expectRsError(await append(upload, 4, new TextEncoder().encode('e'), true), 400, 'inconsistent_upload_length')
  })

  test('400 inconsistent_upload_length when content goes past Upload-Length', async () => {
    const upload = await create('/pub/short.bin', 8, { 'upload-length': '3' })
    await expectRsError(await append(upload, 0, new TextEncoder().encode('abcd'), true), 400, 'inconsistent_upload_length')
    expect(await offsetOf(upload)).toBe(0)
  })

  test.each(['-1', '+5', '1.0', '', '9007199254740993', '1234567890123456', 'ten', '?1'])(
    'Upload-Length %p is 400 invalid_request (a non-negative Integer, §4.1.3) and nothing is created',
    async value => {
      const before = partials()
      const res = await fetch(url('/pub/bad-length.bin'), {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', ...draft(8, false, { 'upload-length': value }) },
        body: 'abc',
      })
      const text = await expectRsError(res, 400, 'invalid_request')
      expect(text).toContain('Upload-Length must be a non-negative integer')
      expect(res.headers.get('location')).toBeNull()
      expect(partials()).toEqual(before)
      expect((await fetch(url('/pub/bad-length.bin'))).status).toBe(404)
    },
  )

  test('a malformed Upload-Length or Upload-Offset on an append is 400 invalid_request and stores nothing', async () => {
    const upload = await create('/pub/bad-append.bin')
    const patch = (more: Record<string, string>) =>
      fetch(upload, {
        method: 'PATCH',
        headers: { 'content-type': 'application/partial-upload', 'upload-offset': '0', ...draft(8, false), ...more },
        body: 'abc',
      })
    expect(await expectRsError(await patch({ 'upload-length': '-1' }), 400, 'invalid_request')).toContain('Upload-Length')
    expect(await expectRsError(await patch({ 'upload-offset': '-0' }), 400, 'invalid_request')).toContain('Upload-Offset')
    expect(await offsetOf(upload)).toBe(0)
  })

  test('415 for an append that is not application/partial-upload', async () => {
    const upload = await create('/pub/typed.bin')
    const res = await fetch(upload, {
      method: 'PATCH',
      headers: { 'content-type': 'application/octet-stream', 'upload-offset': '0', ...draft(8, false) },
      body: 'x',
    })
    await expectRsError(res, 415, 'unsupported_media_type')
  })

  test('OPTIONS on an upload resource names what it takes: Allow, and Accept-Patch application/partial-upload', async () => {
    const upload = await create('/pub/options.bin')
    const res = await fetch(upload, { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('HEAD, PATCH, DELETE, OPTIONS')
    expect(res.headers.get('accept-patch')).toBe('application/partial-upload')
    expect((await fetch(upload, { method: 'DELETE' })).status).toBe(204)
  })

  test('DELETE cancels: 204, the bytes go, the upload resource is 404', async () => {
    const upload = await create('/pub/cancelled.bin')
    await append(upload, 0, BYTES.subarray(0, 1000), false)
    expect((await fetch(upload, { method: 'DELETE' })).status).toBe(204)
    expect(partials()).not.toContain(upload.split('/').at(-1)!)
    await expectRsError(
      await fetch(upload, { method: 'PATCH', headers: { 'content-type': 'application/partial-upload', 'upload-offset': '1000', ...draft(8, true) } }),
      404,
      'not_found',
    )
    expect((await fetch(url('/pub/cancelled.bin'))).status).toBe(404)
  })
})

describe('uploads in progress are bounded per agent', () => {
  test(`past ${MAX_OPEN_UPLOADS} open uploads → 429 too_many_uploads; cancelling one makes room`, async () => {
    const made: string[] = []
    let refused: Response | undefined
    for (let i = 0; i <= MAX_OPEN_UPLOADS && !refused; i++) {
      const res = await fetch(url(`/pub/many-${i}.bin`), { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...draft(8, false) } })
      if (res.status === 201) made.push(res.headers.get('location')!)
      else refused = res
    }
    expect(refused).toBeDefined()
    await expectRsError(refused!, 429, 'too_many_uploads')
    expect((await fetch(made.pop()!, { method: 'DELETE' })).status).toBe(204)
    const again = await fetch(url('/pub/many-again.bin'), { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...draft(8, false) } })
    expect(again.status).toBe(201)
    for (const u of [...made, again.headers.get('location')!]) await fetch(u, { method: 'DELETE' })
  })
})
