// Issue 36's proof: a folder of 1 GB an app deletes over LDP (each member, then the folder) comes back in one step,
// byte-identical. A version names its file's blob, never a copy, so the delete keeps every byte on disk.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatedBody, MIB, streamedSha256 } from './large-bodies.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { startPod, type RunningPod } from './start-server.ts'

const FILES = 8
const FILE_BYTES = Number(process.env.BIG_FILE_BYTES ?? 128 * MIB) // 8 × 128 MiB = 1 GiB

let pod: RunningPod
let app: OwnerApp
beforeAll(async () => {
  pod = await startPod({})
  app = await signInOwnerApp(pod, 'A buggy sync app')
})
afterAll(async () => {
  app?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
const name = (i: number) => `/big/part-${i}.bin`

test('a 1 GB folder deleted by an app over LDP is restored in one step (POST /.admin/api/restore-folder), every file byte-identical', async () => {
  const sums: string[] = []
  for (let i = 0; i < FILES; i++) {
    const body = generatedBody(FILE_BYTES)
    const res = await app.fetch(url(name(i)), { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: body.stream })
    expect(res.status).toBe(201)
    sums.push(await body.sha256)
  }
  const before = Date.now()
  await Bun.sleep(5) // the restore asks for the folder as it was strictly before the deletes
  for (let i = 0; i < FILES; i++) expect((await app.fetch(url(name(i)), { method: 'DELETE' })).status).toBe(204)
  expect((await app.fetch(url('/big/'), { method: 'DELETE' })).status).toBe(204)
  expect((await app.fetch(url('/big/'))).status).toBe(404)

  const csrf = (await (await fetch(url('/.admin/api/csrf'), { headers: { cookie: app.browser.header() } })).json()).token as string
  const restore = await fetch(url('/.admin/api/restore-folder'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: app.browser.header(), 'x-csrf-token': csrf },
    body: JSON.stringify({ path: '/big/', datetime: before }),
  })
  expect(restore.status).toBe(200)
  const done = await restore.json()
  expect(done.restored).toEqual(['/big/', ...Array.from({ length: FILES }, (_, i) => name(i))])
  expect([done.absentThen, done.removed]).toEqual([[], []])

  for (let i = 0; i < FILES; i++) {
    const res = await app.fetch(url(name(i)))
    expect(res.status).toBe(200)
    expect(await streamedSha256(res.body)).toEqual({ sha256: sums[i]!, size: FILE_BYTES })
  }
}, 300_000)
