// The dashboard's Copy to… over real HTTP, the owner signed in: a file or a folder copied into the folder picked or
// typed as people read it (spaces, accents, #, ?, %, +), keeping its name or taking the next free numbered one (never
// replacing anything); a folder's members that cannot be copied named on a page, the rest copied; a folder never into
// itself; the form refused without its CSRF token.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { encodeSegment } from '../../src/store/target.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
let csrf: string

/** Names that paths get wrong: a space, accents, #, ?, % and +. */
const ODD_NAME = 'Été 2026 #1 ?50% a+b'
const ODD = `/pub/${encodeSegment(ODD_NAME)}/`
const FILE_NAME = 'rapport #2 100%+? été.txt'
const FILE = `/pub/${encodeSegment(FILE_NAME)}`
const url = (path: string) => pod.baseUrl + path
const put = async (path: string, body: string, type = 'text/plain') =>
  expect((await fetch(url(path), { method: 'PUT', headers: { 'content-type': type }, body })).ok).toBe(true)

beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append', 'Control']) })
  owner = await signInOwnerApp(pod, 'Copy test app')
  csrf = await csrfToken(pod.baseUrl, owner.browser)
  await put(FILE, 'bonjour')
  await put(`${ODD}inner/keep.txt`, 'kept')
  await put('/pub/Plain/a.txt', 'a')
  await put('/pub/Mixed/ok.txt', 'ok')
  await put('/pub/Mixed/locked/secret.txt', 'secret')
  // locked/ is someone else's alone: not even the owner's dashboard may read it
  await put(
    '/pub/Mixed/locked/.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#them> a acl:Authorization; acl:agent <https://someone.example/profile#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    'text/turtle',
  )
})
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const asOwner = (path: string, init: RequestInit = {}) =>
  fetch(url(path), {
    redirect: 'manual',
    ...init,
    headers: { cookie: owner.browser.header(), origin: pod.baseUrl, ...(init.headers as Record<string, string>) },
  })
const copy = (fields: Record<string, string>, token: string | null = csrf) =>
  asOwner('/.admin/files/copy', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...(token === null ? {} : { csrf: token }), ...fields }),
  })
const decodeEntities = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"')
const landing = (folder: string, name: string) => `/.admin/files?path=${encodeURIComponent(folder)}&done=copy&name=${encodeURIComponent(name)}`
const textAt = async (path: string) => {
  const res = await fetch(url(path))
  return res.status === 200 ? res.text() : res.status
}

describe('the Copy page', () => {
  test('GET for a file → 200: the folder it is in named, the picker’s links leading to the Copy page browsing each folder', async () => {
    const res = await asOwner(`/.admin/files/copy?path=${encodeURIComponent(FILE)}`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(decodeEntities(/id="copy-folder" name="folder" value="([^"]*)"/.exec(page)?.[1] ?? '')).toBe('/pub/')
    expect(decodeEntities(page)).toContain(`href="/.admin/files/copy?path=${encodeURIComponent(FILE)}&in=${encodeURIComponent(ODD)}"`)
    expect(page).toContain('Who may access it is not copied.')
  })

  test('the Files page offers Copy on each row', async () => {
    const page = decodeEntities(await (await asOwner('/.admin/files?path=%2Fpub%2F')).text())
    expect(page).toContain(`href="/.admin/files/copy?path=${encodeURIComponent(FILE)}" aria-label="Copy ${FILE_NAME} to another folder"`)
  })
})

describe('copying a file', () => {
  test('into the odd folder as people read it → 303 to that folder with the notice; both there, the same bytes', async () => {
    const res = await copy({ path: FILE, folder: `/pub/${ODD_NAME}/` })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(landing(ODD, FILE_NAME))
    expect(await textAt(`${ODD}${encodeSegment(FILE_NAME)}`)).toBe('bonjour')
    expect(await textAt(FILE)).toBe('bonjour')
    const folderPage = await (await asOwner(res.headers.get('location')!)).text()
    expect(decodeEntities(folderPage)).toContain(`Copied ${FILE_NAME} here`)
  })

  test('again, where its name is taken → the next numbered name, the first copy untouched', async () => {
    await put(`${ODD}${encodeSegment(FILE_NAME)}`, 'changed since')
    const res = await copy({ path: FILE, folder: ODD })
    const numbered = 'rapport #2 100%+? été (2).txt'
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(landing(ODD, numbered))
    expect(await textAt(`${ODD}${encodeSegment(numbered)}`)).toBe('bonjour')
    expect(await textAt(`${ODD}${encodeSegment(FILE_NAME)}`)).toBe('changed since')
  })

  test('into its own folder → a copy beside it, numbered', async () => {
    const res = await copy({ path: FILE, folder: '/pub/' })
    expect(res.headers.get('location')).toBe(landing('/pub/', 'rapport #2 100%+? été (2).txt'))
    expect(await textAt(`/pub/${encodeSegment('rapport #2 100%+? été (2).txt')}`)).toBe('bonjour')
  })

  test('into a folder that does not exist → 404 not_found, nothing made', async () => {
    const res = await copy({ path: FILE, folder: '/pub/Nowhere #2/' })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('<code id="error">not_found</code>')
    expect(await textAt(`/pub/${encodeSegment('Nowhere #2')}/`)).toBe(404)
  })

  test('an ACL → 400 invalid_path: it would become the ACL of the folder it went into', async () => {
    const res = await copy({ path: '/pub/.acl', folder: '/pub/Plain/' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">invalid_path</code>')
    expect((await fetch(url('/pub/Plain/.acl'))).status).toBe(404)
  })

  test('without the CSRF token → 403 csrf_failed, nothing copied', async () => {
    const res = await copy({ path: FILE, folder: '/pub/Plain/' }, null)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('<code id="error">csrf_failed</code>')
    expect(await textAt(`/pub/Plain/${encodeSegment(FILE_NAME)}`)).toBe(404)
  })
})

describe('copying a folder', () => {
  test('with everything in it into another folder → 303 there, the copy keeping its name and members', async () => {
    const res = await copy({ path: ODD, folder: '/pub/Plain/' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(landing('/pub/Plain/', ODD_NAME))
    expect(await textAt(`/pub/Plain/${encodeSegment(ODD_NAME)}/inner/keep.txt`)).toBe('kept')
    expect(await textAt(`${ODD}inner/keep.txt`)).toBe('kept')
  })

  test.each([
    ['itself', ODD_NAME],
    ['a folder inside it', `${ODD_NAME}/inner`],
  ])('into %s → 400 copy_into_itself, nothing made', async (_, folder) => {
    const res = await copy({ path: ODD, folder: `/pub/${folder}` })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">copy_into_itself</code>')
    expect(await textAt(`${ODD}${encodeSegment(`${ODD_NAME} (2)`)}/`)).toBe(404)
    expect(await textAt(`${ODD}inner/${encodeSegment(ODD_NAME)}/`)).toBe(404)
  })

  test('holding a folder the owner may not read → a page naming it in plain words; the rest copied', async () => {
    const res = await copy({ path: '/pub/Mixed/', folder: '/pub/Plain/' })
    expect(res.status).toBe(200)
    const page = decodeEntities(await res.text())
    expect(page).toContain('<h1>Copied Mixed, except 1 item</h1>')
    expect(/<ul id="not-copied">([\s\S]*?)<\/ul>/.exec(page)?.[1]).toBe(
      '<li><strong>/pub/Mixed/locked/</strong>: Its sharing settings do not let you read it.</li>',
    )
    expect(page).toContain(`href="/.admin/files?path=${encodeURIComponent('/pub/Plain/Mixed/')}"`)
    expect(await textAt('/pub/Plain/Mixed/ok.txt')).toBe('ok')
    expect(await textAt('/pub/Plain/Mixed/locked/')).toBe(404)
  })
})
