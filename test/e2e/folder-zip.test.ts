// A folder as one zip over real HTTP (issues 38 and 40): through a share link (`?download=zip`, its page's
// "Download all (zip)") and from the dashboard's Files page (a folder, or the rows selected in it). Unzipped by
// Info-ZIP and compared byte for byte with what a GET answers, names with spaces, accents, #, ?, % and +;
// counted as one download; refused with the usual codes; ended at once when the link is removed mid-download.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { unzipEntries } from '../unzip.ts'

let pod: RunningPod
let owner: OwnerApp
const NAMES = ['a b.txt', 'é à.txt', 'x#1.txt', 'q?.txt', '100%.txt', 'plus+.txt']
const BINARY = new Uint8Array(randomBytes(300_000))
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const enc = encodeURIComponent
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b))

const put = async (path: string, body: BodyInit, type = 'text/plain') => {
  const res = await owner.fetch(pod.baseUrl + path, { method: 'PUT', body, headers: { 'content-type': type } })
  expect(res.status).toBe(201)
}
/** What the owner's GET answers for `path`: the bytes the zip must hold (RDF as Turtle). */
const stored = async (path: string) => new Uint8Array(await (await owner.fetch(pod.baseUrl + path, { headers: { accept: 'text/turtle' } })).arrayBuffer())

async function addLink(...args: string[]): Promise<{ id: string; url: string }> {
  const r = await runSolopod('links', 'add', ...args, '--data', pod.dataDir)
  expect(r.code).toBe(0)
  const [id, url] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  return { id: id!, url: url! }
}

const asOwner = (path: string) => fetch(pod.baseUrl + path, { redirect: 'manual', headers: { cookie: owner.browser.header() } })
const zipped = async (res: Response) => {
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/zip')
  return unzipEntries(new Uint8Array(await res.arrayBuffer()))
}
/** A refusal as every face renders it: the status, and the code in the body. */
const refused = async (res: Response, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(await res.text()).toContain(code)
}

beforeAll(async () => {
  pod = await startPod()
  owner = await signInOwnerApp(pod, 'Folder zip test app')
  for (const name of NAMES) await put(`/trip/${enc(name)}`, `bytes of ${name}`)
  await put(`/trip/${enc('sous dossier #2')}/${enc('film ?.bin')}`, BINARY, 'application/octet-stream')
  await put('/trip/notes', '<#it> <http://xmlns.com/foaf/0.1/name> "Notes é".', 'text/turtle')
  await put('/trip/empty/', '', 'text/turtle')
  // A folder with its own stricter ACL: only the owner
  await put('/trip/private/secret.txt', 'owner only')
  const webid = `${pod.baseUrl}/profile/card#me`
  await put(
    '/trip/private/.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>. <#o> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    'text/turtle',
  )
})
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

/** Every file of /trip/ as the zip of it must hold it, by its name inside the zip. */
async function expectedTrip(): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  for (const name of NAMES) out.set(name, await stored(`/trip/${enc(name)}`))
  out.set('sous dossier #2/', new Uint8Array(0))
  out.set('sous dossier #2/film ?.bin', BINARY)
  out.set('notes', await stored('/trip/notes'))
  out.set('empty/', new Uint8Array(0))
  out.set('private/', new Uint8Array(0))
  out.set('private/secret.txt', new TextEncoder().encode('owner only'))
  return out
}

const sorted = (m: Map<string, Uint8Array>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1))

describe('a folder link', () => {
  let link: { id: string; url: string }
  beforeAll(async () => {
    link = await addLink('/trip/')
  })

  test("its page offers the whole folder as a zip; the folder's ACL stays private to a plain GET (401)", async () => {
    const page = await (await fetch(link.url, { headers: HTML })).text()
    expect(page).toContain(`href="${new URL(link.url).pathname}?download=zip" download>Download all (zip)</a>`)
    expect((await fetch(`${pod.baseUrl}/trip/`)).status).toBe(401)
  })

  test('?download=zip: every file byte for byte under its decoded name, RDF as Turtle, empty folders kept, no ACL', async () => {
    const res = await fetch(`${link.url}?download=zip`)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="trip.zip"; filename*=UTF-8''trip.zip`)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const entries = await zipped(res)
    // The link is an agent of its own: what its pages show (the stricter folder too, as its list and reads do), never an ACL
    expect(sorted(entries)).toEqual(sorted(await expectedTrip()))
    expect(text(entries.get('notes'))).toContain('"Notes é"')
  })

  test('a folder inside the link zips alone, named after itself', async () => {
    const res = await fetch(`${link.url}${enc('sous dossier #2')}/?download=zip`)
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${enc('sous dossier #2.zip')}`)
    expect([...(await zipped(res)).keys()]).toEqual(['film ?.bin'])
  })

  test('a folder that does not exist inside it: 404 not_found', async () => {
    await refused(await fetch(`${link.url}nowhere/?download=zip`), 404, 'not_found')
  })

  test('a removed link: 404 link_not_found', async () => {
    const gone = await addLink('/trip/')
    expect((await runSolopod('links', 'remove', gone.id, '--data', pod.dataDir)).code).toBe(0)
    await refused(await fetch(`${gone.url}?download=zip`), 404, 'link_not_found')
  })
})

describe('a link with a download limit or a password', () => {
  test('the zip counts as one download: a limit of 1 then answers 410 link_used_up', async () => {
    const link = await addLink('/trip/', '--max-downloads', '1')
    expect((await zipped(await fetch(`${link.url}?download=zip`))).size).toBe((await expectedTrip()).size)
    await refused(await fetch(`${link.url}?download=zip`), 410, 'link_used_up')
  })

  test('a password link: 401 link_password_required without it, the zip with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-pw-'))
    writeFileSync(join(dir, 'pw'), 'open sesame please\n')
    const link = await addLink('/trip/', '--password-file', join(dir, 'pw'))
    await refused(await fetch(`${link.url}?download=zip`), 401, 'link_password_required')
    const basic = `Basic ${Buffer.from('anyone:open sesame please').toString('base64')}`
    expect((await zipped(await fetch(`${link.url}?download=zip`, { headers: { authorization: basic } }))).has('notes')).toBe(true)
  })

  test('an upload-only link shows nothing, so zips nothing: 405 method_not_allowed', async () => {
    const link = await addLink('/trip/', '--upload-only')
    await refused(await fetch(`${link.url}?download=zip`), 405, 'method_not_allowed')
  })
})

describe('removing the link ends a zip download in progress', () => {
  test('after the first bytes, `solopod links remove`: the rest never comes and the zip is cut short', async () => {
    // Eight 4 MiB files: far more than the socket's buffers hold while the reader waits
    const big = new Uint8Array(randomBytes(4 * 1024 * 1024))
    for (let i = 0; i < 8; i++) await put(`/big/part-${i}.bin`, big, 'application/octet-stream')
    const link = await addLink('/big/')
    const res = await fetch(`${link.url}?download=zip`)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = (await reader.read()).value?.byteLength ?? 0
    expect((await runSolopod('links', 'remove', link.id, '--data', pod.dataDir)).code).toBe(0)
    let ended: unknown
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        received += value.byteLength
      }
    } catch (err) {
      ended = err
    }
    // The pod drops the connection between two members: the client sees it reset, short of the whole
    expect(ended).toBeInstanceOf(Error)
    expect(received).toBeLessThan(8 * big.byteLength)
    // and says why in its log, naming the link's id, never its token
    const line = (await pod.waitForOutput(/\{[^\n]*"event":"link\.zip_ended"[^\n]*\}/))[0]
    expect(JSON.parse(line)).toMatchObject({ link: link.id, error: 'link_not_found' })
    expect(line).not.toContain(link.url.split('/').at(-2)!)
  })
})

describe("the dashboard's Files page", () => {
  test('offers the folder as a zip, and the selection', async () => {
    const page = await (await asOwner(`/.admin/files?path=${enc('/trip/')}`)).text()
    expect(page).toContain(`href="/.admin/files/download-zip?path=%2Ftrip%2F" download>Download this folder as zip</a>`)
    expect(page).toContain('formaction="/.admin/files/download-zip" name="selected" value="yes">Download selected as zip</button>')
  })

  test('a folder: every file byte for byte, the stricter folder too (the owner reads it)', async () => {
    const res = await asOwner(`/.admin/files/download-zip?path=${enc('/trip/')}`)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="trip.zip"; filename*=UTF-8''trip.zip`)
    expect(sorted(await zipped(res))).toEqual(sorted(await expectedTrip()))
  })

  test('a selection: only the items ticked, a folder with what it holds', async () => {
    const items = [`/trip/${enc('q?.txt')}`, `/trip/${enc('sous dossier #2')}/`].map(p => `&item=${enc(p)}`).join('')
    const entries = await zipped(await asOwner(`/.admin/files/download-zip?path=${enc('/trip/')}&selected=yes${items}`))
    expect([...entries.keys()].sort()).toEqual(['q?.txt', 'sous dossier #2/', 'sous dossier #2/film ?.bin'])
    expect(entries.get('sous dossier #2/film ?.bin')).toEqual(BINARY)
  })

  test('refusals: nothing selected 400 nothing_selected, a file 400 not_a_container, an unknown folder 404 not_found', async () => {
    await refused(await asOwner(`/.admin/files/download-zip?path=${enc('/trip/')}&selected=yes`), 400, 'nothing_selected')
    await refused(await asOwner(`/.admin/files/download-zip?path=${enc('/trip/a b.txt')}`), 400, 'not_a_container')
    await refused(await asOwner(`/.admin/files/download-zip?path=${enc('/nowhere/')}`), 404, 'not_found')
  })

  test('folders nested deeper than a zip takes: 413 too_large_for_zip, before any byte', async () => {
    await put(`/deep/${'d/'.repeat(33)}leaf.txt`, 'at the bottom')
    await refused(await asOwner(`/.admin/files/download-zip?path=${enc('/deep/')}`), 413, 'too_large_for_zip')
  })

  test('signed out: 303 to the login page, no zip', async () => {
    const res = await fetch(`${pod.baseUrl}/.admin/files/download-zip?path=${enc('/trip/')}`, { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('/.oidc/login')
  })
})
