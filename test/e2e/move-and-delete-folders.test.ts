// Rename, move and delete of whole folders over real HTTP: the owner API, and what the resource server answers after.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
let csrf: string
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append', 'Control']) })
  owner = await signInOwnerApp(pod, 'Files test app')
  csrf = await csrfToken(pod.baseUrl, owner.browser)
})
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
const ownerApi = (method: string, path: string, body?: unknown) =>
  fetch(url(path), {
    method,
    headers: { cookie: owner.browser.header(), 'x-csrf-token': csrf, origin: pod.baseUrl, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
const put = (path: string, body: string, type = 'text/plain') => fetch(url(path), { method: 'PUT', headers: { 'content-type': type }, body })

describe('over HTTP', () => {
  test('a folder moved: old addresses 404, new ones serve the same bytes and ETag', async () => {
    expect((await put('/pub/album/2024/photo 1.txt', 'first')).status).toBe(201)
    const before = await fetch(url('/pub/album/2024/photo%201.txt'))
    const etag = before.headers.get('etag')
    const res = await ownerApi('POST', '/.admin/api/move', { from: '/pub/album/', to: '/pub/Älbum 2024/' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ path: '/pub/%C3%84lbum%202024/' })
    expect((await fetch(url('/pub/album/2024/photo%201.txt'))).status).toBe(404)
    const after = await fetch(url('/pub/%C3%84lbum%202024/2024/photo%201.txt'))
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).toBe(etag)
    expect(await after.text()).toBe('first')
    const listing = await (await fetch(url('/pub/'), { headers: { accept: 'text/turtle' } })).text()
    expect(listing).toContain('%C3%84lbum%202024/')
    expect(listing).not.toContain('album/')
  })

  test('a refused move answers JSON with its code', async () => {
    const res = await ownerApi('POST', '/.admin/api/move', { from: '/pub/%C3%84lbum%202024/', to: '/pub/%C3%84lbum%202024/2024/x/' })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('move_into_itself')
  })

  test('a folder deleted with what is in it after its count', async () => {
    const counted = (await (await ownerApi('GET', `/.admin/api/tree/count?path=${encodeURIComponent('/pub/%C3%84lbum%202024/')}`)).json()) as { count: number }
    expect(counted.count).toBe(2)
    const res = await ownerApi('DELETE', `/.admin/api/tree?path=${encodeURIComponent('/pub/%C3%84lbum%202024/')}&count=2`)
    expect(res.status).toBe(200)
    expect((await fetch(url('/pub/%C3%84lbum%202024/2024/photo%201.txt'))).status).toBe(404)
    expect((await fetch(url('/pub/%C3%84lbum%202024/'))).status).toBe(404)
  })
})
