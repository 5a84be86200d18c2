// The gallery page's refusals (src/admin/gallery-page.ts), with exact status and code, and the viewer's neighbours
// (media-neighbours.ts): the nearest photo, film or sound on each side in name order, other files skipped.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CookieJar, TestPod } from '../op/op-fixture.ts'
import { BASE } from '../op/op-fixture.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'
import { mediaNeighbours } from '../../src/admin/media-neighbours.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))

beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  const put = (path: string, body: Uint8Array<ArrayBuffer> | string, type: string) =>
    pod.request(path, { method: 'PUT', headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': type }, body })
  for (const [path, body, type] of [
    ['/pics/a.png', PNG, 'image/png'],
    ['/pics/b.txt', 'text', 'text/plain'],
    ['/pics/c%20%C3%A9t%C3%A9.png', PNG, 'image/png'],
    ['/pics/d.webm', new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), 'video/webm'],
    ['/pics/sub/e.png', PNG, 'image/png'],
  ] as const)
    expect((await put(path, body, type)).status).toBe(201)
})
afterAll(() => pod.close())

const gallery = (query: string) => pod.request(`/.admin/files/gallery?${query}`, { headers: { cookie: owner.header() } })

describe('the gallery page', () => {
  test('a folder: one tile per photo or film, none for text or subfolders', async () => {
    const res = await gallery('path=%2Fpics%2F')
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page.match(/<li><a href="\/\.admin\/files\/view/g)).toHaveLength(3)
    expect(page).toContain('alt="c été.png"')
    expect(page).toContain('2 other items on this page are in the list')
  })
  test('a file is no folder: 400 not_a_container', async () => {
    const res = await gallery('path=%2Fpics%2Fa.png')
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('not_a_container')
  })
  test('a cursor outside the folder: 400 invalid_query', async () => {
    const res = await gallery('path=%2Fpics%2F&after=%2Fother%2Fx.png')
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_query')
  })
  test('a folder that does not exist: 404 not_found', async () => {
    const res = await gallery('path=%2Fnone%2F')
    expect(res.status).toBe(404)
    expect(await pageError(res)).toBe('not_found')
  })
  test('without the owner’s session: to sign-in, nothing shown', async () => {
    const res = await pod.request('/.admin/files/gallery?path=%2Fpics%2F', { redirect: 'manual' })
    expect([302, 303]).toContain(res.status)
  })
})

describe('the viewer’s neighbours', () => {
  test('the nearest media on each side, text and folders skipped', async () => {
    expect(await mediaNeighbours(pod.deps, '/pics/a.png')).toEqual({ next: '/pics/c%20%C3%A9t%C3%A9.png' })
    expect(await mediaNeighbours(pod.deps, '/pics/c%20%C3%A9t%C3%A9.png')).toEqual({ prev: '/pics/a.png', next: '/pics/d.webm' })
    expect(await mediaNeighbours(pod.deps, '/pics/d.webm')).toEqual({ prev: '/pics/c%20%C3%A9t%C3%A9.png' })
  })
  test('the view page links them (rel prev and next); a text file has none', async () => {
    const view = async (path: string) =>
      (await pod.request(`/.admin/files/view?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header() } })).text()
    const middle = await view('/pics/c%20%C3%A9t%C3%A9.png')
    expect(middle).toContain(`rel="prev" href="/.admin/files/view?path=${encodeURIComponent('/pics/a.png')}"`)
    expect(middle).toContain(`rel="next" href="/.admin/files/view?path=${encodeURIComponent('/pics/d.webm')}"`)
    expect(await view('/pics/b.txt')).not.toContain('data-enhance="media-nav"')
  })
})
