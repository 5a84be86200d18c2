// Issue 40, "Move offers a folder picker (browse, or type a path)", over real HTTP: the Move pages list the folders
// of the folder they browse, each a plain link into it and one up; the folder chosen or typed as people read it
// (spaces, accents, #, ?, %, +) is where the item goes; a folder is never moved into itself or a folder in it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { encodeSegment } from '../../src/store/target.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
let csrf: string
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append', 'Control']) })
  owner = await signInOwnerApp(pod, 'Move picker test app')
  csrf = await csrfToken(pod.baseUrl, owner.browser)
  for (const path of [`${ODD}inner/keep.txt`, '/pub/Plain/a.txt', '/pub/photo.txt', `/pub/${encodeSegment('100% sure')}/x.txt`])
    expect((await fetch(url(path), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' })).status).toBe(201)
})
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

/** A folder whose name holds what paths get wrong: a space, accents, #, ?, % and +. */
const ODD_NAME = 'Été 2026 #1 ?50% a+b'
const ODD = `/pub/${encodeSegment(ODD_NAME)}/`
const url = (path: string) => pod.baseUrl + path
const asOwner = (path: string, init: RequestInit = {}) =>
  fetch(url(path), {
    redirect: 'manual',
    ...init,
    headers: { cookie: owner.browser.header(), origin: pod.baseUrl, ...(init.headers as Record<string, string>) },
  })
const form = (route: string, fields: Record<string, string> | [string, string][]) =>
  asOwner(route, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([['csrf', csrf], ...(Array.isArray(fields) ? fields : Object.entries(fields))]),
  })
const decodeEntities = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"')
/** The picker's links, as [text, href]. */
const pickerLinks = (page: string) =>
  [...(/<section class="panel folder-picker"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '').matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map(m => [
    decodeEntities(m[2]!),
    decodeEntities(m[1]!),
  ])
const folderField = (page: string) => decodeEntities(/id="move-folder" name="folder" value="([^"]*)"/.exec(page)?.[1] ?? '')
const status = async (path: string) => (await fetch(url(path))).status

describe('the Move page lists folders to go into, decoded', () => {
  test('GET the Move page of /pub/photo.txt → 200: the folders of /pub/ as links into each, one up, the field naming /pub/', async () => {
    const res = await asOwner(`/.admin/files/move?path=${encodeURIComponent('/pub/photo.txt')}`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(folderField(page)).toBe('/pub/')
    const links = pickerLinks(page)
    expect(links.map(([text]) => text)).toEqual(['Up to /', '100% sure/', `${ODD_NAME}/`, 'Plain/'])
    expect(links.find(([text]) => text === `${ODD_NAME}/`)?.[1]).toBe(`/.admin/files/move?path=%2Fpub%2Fphoto.txt&in=${encodeURIComponent(ODD)}`)
  })

  test('a picker link → the folder browsed: its field names it as people read it, its own folders listed, the typed name carried', async () => {
    const res = await asOwner(`/.admin/files/move?path=%2Fpub%2Fphoto.txt&in=${encodeURIComponent(ODD)}&name=${encodeURIComponent('Photo – été.txt')}`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(folderField(page)).toBe(`/pub/${ODD_NAME}/`)
    expect(page).toContain('value="Photo – été.txt"')
    expect(pickerLinks(page)).toEqual([
      ['Up to /pub/', `/.admin/files/move?path=%2Fpub%2Fphoto.txt&in=%2Fpub%2F&name=${encodeURIComponent('Photo – été.txt')}`],
      ['inner/', `/.admin/files/move?path=%2Fpub%2Fphoto.txt&in=${encodeURIComponent(`${ODD}inner/`)}&name=${encodeURIComponent('Photo – été.txt')}`],
    ])
  })

  test.each([
    ['a document', '/pub/photo.txt', 400, 'not_a_container'],
    ['nothing', '/pub/gone/', 404, 'not_found'],
  ])('browsing %s → %i %s', async (_, folder, code, error) => {
    const res = await asOwner(`/.admin/files/move?path=%2Fpub%2Fphoto.txt&in=${encodeURIComponent(folder)}`)
    expect(res.status).toBe(code)
    expect(await res.text()).toContain(`<code id="error">${error}</code>`)
  })

  test('the folder being moved is shown in its parent but is no link: nothing goes into itself', async () => {
    const page = await (await asOwner(`/.admin/files/move?path=${encodeURIComponent('/pub/Plain/')}`)).text()
    expect(page).toContain('Plain/ (being moved)')
    expect(pickerLinks(page).map(([text]) => text)).toEqual(['Up to /', '100% sure/', `${ODD_NAME}/`])
  })
})

describe('moving into the folder picked or typed', () => {
  test('the field as the picker filled it (the odd folder, as people read it) → 303 to it; the file is there, gone from where it was', async () => {
    const res = await form('/.admin/files/move', { path: '/pub/photo.txt', name: 'Photo + 1%.txt', folder: `/pub/${ODD_NAME}/` })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/.admin/files?path=${encodeURIComponent(ODD)}&done=move&name=${encodeURIComponent('Photo + 1%.txt')}`)
    expect(await status(`${ODD}Photo%20+%201%25.txt`)).toBe(200)
    expect(await status('/pub/photo.txt')).toBe(404)
  })

  test('a path typed as stored (percent-encoded) names the same folder; one typed with a bare % too', async () => {
    expect((await form('/.admin/files/move', { path: `${ODD}Photo%20+%201%25.txt`, name: 'back.txt', folder: '/pub/Plain/' })).status).toBe(303)
    expect((await form('/.admin/files/move', { path: '/pub/Plain/back.txt', name: 'back.txt', folder: ODD })).status).toBe(303)
    expect(await status(`${ODD}back.txt`)).toBe(200)
    expect((await form('/.admin/files/move', { path: `${ODD}back.txt`, name: 'back.txt', folder: 'pub/100% sure' })).status).toBe(303)
    expect(await status(`/pub/100%25%20sure/back.txt`)).toBe(200)
  })

  test('a folder that does not exist → 404 not_found, nothing moves', async () => {
    const res = await form('/.admin/files/move', { path: '/pub/100%25%20sure/back.txt', name: 'back.txt', folder: '/pub/Nowhere #2/' })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('<code id="error">not_found</code>')
    expect(await status('/pub/100%25%20sure/back.txt')).toBe(200)
  })

  test.each([
    ['itself', `/pub/${ODD_NAME}/`],
    ['a folder inside it', `/pub/${ODD_NAME}/inner/`],
  ])('a folder moved into %s → 400 move_into_itself, nothing moves', async (_, folder) => {
    const res = await form('/.admin/files/move', { path: ODD, name: ODD_NAME, folder })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">move_into_itself</code>')
    expect(await status(`${ODD}inner/keep.txt`)).toBe(200)
  })
})

describe('Move selected to… has the same picker', () => {
  test('GET with in= → the folder browsed, links keeping the selection; POST the folder as read → 303, both moved', async () => {
    const items = ['/pub/Plain/a.txt', '/pub/100%25%20sure/back.txt']
    const res = await asOwner(`/.admin/files/move-selected?${items.map(i => `item=${encodeURIComponent(i)}`).join('&')}&in=${encodeURIComponent(ODD)}`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(folderField(page)).toBe(`/pub/${ODD_NAME}/`)
    expect(pickerLinks(page).find(([text]) => text === 'inner/')?.[1]).toBe(
      `/.admin/files/move-selected?${items.map(i => `item=${encodeURIComponent(i)}&`).join('')}in=${encodeURIComponent(`${ODD}inner/`)}`,
    )
    const moved = await form('/.admin/files/move-selected', [...items.map(i => ['item', i] as [string, string]), ['folder', `/pub/${ODD_NAME}/inner`]])
    expect(moved.status).toBe(303)
    expect(await status(`${ODD}inner/a.txt`)).toBe(200)
    expect(await status(`${ODD}inner/back.txt`)).toBe(200)
  })

  test('the selection moved into a folder it holds → 400 move_into_itself', async () => {
    const res = await form('/.admin/files/move-selected', [
      ['item', ODD],
      ['folder', `/pub/${ODD_NAME}/inner/`],
    ])
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">move_into_itself</code>')
  })
})
