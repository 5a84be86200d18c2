// Crashes during large uploads (issue 22 "Files"): the pod is killed with SIGKILL at random moments while a
// 100-300 MiB body replaces a file; after a restart the file is the old version or the new one, whole, never a
// mix, no file is left in files/ that blob-refs does not name, and an acknowledged upload is never lost.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { generatedBody, MIB, streamedSha256 } from './large-bodies.ts'
import { openStore } from '../../src/store/open-store.ts'

setDefaultTimeout(300_000)

const FILE = '/up/film.mp4'
/** Rounds of kill and restart; every other one aims at the end of the upload (fsync, the metadata batch, the answer). */
const KILLS = 6

let pod: RunningPod
beforeAll(async () => {
  // Versions off: this counts the blob files crashes leave (each replaced film would otherwise stay as a version;
  // versions across a SIGKILL are test/e2e/durability.test.ts's).
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/up/', ['Read', 'Write']), extraArgs: ['--keep-versions-days', '0'] })
}, 60_000)
afterAll(() => pod?.dispose())

const put = (body: ReadableStream<Uint8Array>) => fetch(pod.baseUrl + FILE, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body })

/** Every blob file in the data directory (files/<2 hex>/<id>), as ids. */
const blobFiles = () => {
  const root = join(pod.dataDir, 'files')
  return readdirSync(root)
    .flatMap(shelf => readdirSync(join(root, shelf)))
    .sort()
}

/** The stored file's SHA-256 as a GET streams it. */
async function storedSha256(): Promise<string> {
  const res = await fetch(pod.baseUrl + FILE)
  expect(res.status).toBe(200)
  return (await streamedSha256(res.body)).sha256
}

async function killAndRestart() {
  await pod.stop('SIGKILL')
  await pod.restart()
}

/** A body whose SHA-256 is known at once if it was all sent, and never if it was not; `sent` settles then. */
function trackedBody(bytes: number) {
  const body = generatedBody(bytes)
  let sha256: string | undefined
  const sent = body.sha256.then(hex => {
    sha256 = hex
  })
  return { stream: body.stream, sha256: () => sha256, sent }
}

describe('issue 22: a crash during an upload', () => {
  test('SIGKILL at random moments while 100-300 MiB replace a file: after a restart it is the old version or the new one, whole, and files/ holds only its blob', async () => {
    const first = trackedBody(64 * MIB)
    const started = performance.now()
    expect((await put(first.stream)).status).toBe(201)
    // The kills are spread over the time an upload takes here, from its start to a little past its end.
    const msPerMib = (performance.now() - started) / 64
    let current = first.sha256()!
    for (let round = 0; round < KILLS; round++) {
      const mib = 100 + Math.floor(Math.random() * 201)
      const next = trackedBody(mib * MIB)
      const answer = put(next.stream).then(
        r => r.status,
        () => 'cut',
      )
      if (round % 2 === 0) await Bun.sleep(Math.random() * 1.2 * mib * msPerMib)
      else await next.sent.then(() => Bun.sleep(Math.random() * 250))
      await killAndRestart()
      const status = await answer
      const stored = await storedSha256()
      // Never torn: the bytes are one version's, and an acknowledged write is the new one.
      expect([current, next.sha256()]).toContain(stored)
      if (status === 204) expect(stored).toBe(next.sha256()!)
      current = stored
      // The start-up sweep left the one blob the file names, nothing of the cut write or of the replaced version.
      expect(blobFiles()).toHaveLength(1)
    }
  })

  test('an acknowledged upload survives a SIGKILL right after its 204', async () => {
    const body = trackedBody(150 * MIB)
    expect((await put(body.stream)).status).toBe(204)
    await killAndRestart()
    expect(await storedSha256()).toBe(body.sha256()!)
  })

  test('after the crashes, every file in files/ is named in blob-refs, and blob-refs names exactly the binary resources', async () => {
    await pod.stop()
    const files = blobFiles()
    const store = await openStore(pod.dataDir)
    try {
      const refs: string[] = []
      for await (const [id] of store.blobRefs.iterator()) refs.push(id)
      const binaries: string[] = []
      for await (const [, meta] of store.meta.iterator()) if (meta.kind === 'binary') binaries.push(meta.blob!)
      expect(files).toEqual(refs.sort())
      expect(binaries.sort()).toEqual(refs)
      expect(files).toHaveLength(1)
    } finally {
      await store.close()
    }
  })
})
