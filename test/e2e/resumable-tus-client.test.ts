// A third-party client of the resumable-upload draft against the real pod: tus-js-client 4 (protocol 'ietf-draft-05',
// interop version 6) uploads in chunks, is stopped midway, and a second client resumes from the pod's offset.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import * as tus from 'tus-js-client'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append']) })
})
afterAll(() => pod?.dispose())

const BYTES = randomBytes(2 * 1024 * 1024 + 5)
const CHUNK = 256 * 1024
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

const options = (more: Partial<tus.UploadOptions>): tus.UploadOptions => ({
  endpoint: `${pod.baseUrl}/pub/`,
  // The option exists since tus-js-client 4.1; its type declarations do not list it yet.
  ...({ protocol: 'ietf-draft-05' } as Partial<tus.UploadOptions>),
  chunkSize: CHUNK,
  retryDelays: [],
  storeFingerprintForResuming: false,
  // The creation request is the POST to the container: its Content-Type and Slug name the file.
  headers: { 'content-type': 'video/mp4', slug: 'tus film é.mp4' },
  ...more,
})

describe('tus-js-client (ietf-draft-05, interop version 6)', () => {
  test('uploads a file by POST to a container, stops midway, and a new client resumes it to the exact bytes', async () => {
    let uploadUrl = ''
    await new Promise<void>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(
        BYTES,
        options({
          onChunkComplete: (_, accepted) => {
            if (accepted >= 3 * CHUNK) {
              uploadUrl = first.url!
              void first.abort().then(resolve)
            }
          },
          onError: reject,
          onSuccess: () => reject(new Error('the first client was meant to stop midway')),
        }),
      )
      first.start()
    })
    expect(uploadUrl).toMatch(/\/\.uploads\/[0-9a-f]{32}$/)
    const head = await fetch(uploadUrl, { method: 'HEAD' })
    expect(head.headers.get('upload-offset')).toBe(String(3 * CHUNK))

    let resumedFrom = -1
    await new Promise<void>((resolve, reject) => {
      const second = new tus.Upload(
        BYTES,
        options({
          uploadUrl,
          onProgress: sent => {
            if (resumedFrom < 0) resumedFrom = sent
          },
          onError: reject,
          onSuccess: () => resolve(),
        }),
      )
      second.start()
    })
    expect(resumedFrom).toBeGreaterThanOrEqual(3 * CHUNK)
    const res = await fetch(`${pod.baseUrl}/pub/tus-film-%C3%A9.mp4`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('video/mp4')
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(BYTES))
  })
})
