// A visitor's reads and writes through the visitor pages over real HTTP, with two pods (issue 35): the pages call
// the operations layer as the visitor, so every refusal is the one an LDP request of theirs would get, with the
// same status and code — Read alone refuses a save and an upload, a stale ETag refuses a save, the pod's own
// paths refuse an upload — and what is allowed (editing text and Turtle with Write, a byte range) works as before.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { CookieJar, field } from '../op/op-fixture.ts'
import { browse, postForm, signInAsVisitor } from './visitor-client.ts'

let alice: RunningPod
let bob: RunningPod
let owner: OwnerApp
const jar = new CookieJar()
const a = (path: string) => alice.baseUrl + path
const bobWebId = () => `${bob.baseUrl}/profile/card#me`
const READ = '/read%20only/'
const EDIT = '/edit/'

async function put(path: string, body: string, type = 'text/plain') {
  const res = await owner.fetch(a(path), { method: 'PUT', headers: { 'content-type': type }, body })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}
const ownerRead = async (path: string) => {
  const res = await owner.fetch(a(path), { headers: { accept: 'text/turtle' } })
  return { type: res.headers.get('content-type'), text: await res.text() }
}
const share = (folder: string, modes: string) =>
  put(
    `${folder}.acl`,
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${bobWebId()}>; acl:accessTo <./>; acl:default <./>; acl:mode ${modes}.`,
    'text/turtle',
  )

/** The edit page of `path` as Bob sees it, and its form sent with `text` (and the page's ETag unless `etag` is given). */
async function save(path: string, text: string, etag?: string): Promise<Response> {
  const url = a(`/.visitor/edit?path=${encodeURIComponent(path)}`)
  const page = await (await browse(jar, url)).text()
  return postForm(jar, url, page, '/.visitor/edit', { path, text, etag: etag ?? field(page, 'etag') })
}

/** Bob's upload of one file into `folder`, with the CSRF token of the page he was on. */
async function upload(folder: string, name: string): Promise<Response> {
  const page = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(READ)}`))).text()
  const form = new FormData()
  form.set('csrf', field(page, 'csrf'))
  form.set('path', folder)
  form.set('file', new File(['hello'], name, { type: 'text/plain' }))
  return browse(jar, a('/.visitor/upload'), { method: 'POST', headers: { origin: alice.baseUrl }, body: form })
}

const errorCode = async (res: Response) => /<code id="error">([^<]*)<\/code>/.exec(await res.text())?.[1]

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod(), startPod()])
  owner = await signInOwnerApp(alice, "Alice's app")
  await put(`${READ}notes.txt`, 'Read me.')
  await put(`${EDIT}notes.txt`, 'Day 1: sea.')
  await put(`${EDIT}plan.ttl`, '<#trip> <http://schema.org/name> "Sète".', 'text/turtle')
  await share(READ, 'acl:Read')
  await share(EDIT, 'acl:Read, acl:Write')
  expect((await signInAsVisitor(alice, bob, jar, { returnTo: READ })).status).toBe(303)
}, 90_000)
afterAll(async () => {
  owner?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

describe("WAC: a visitor's write needs what the same LDP request needs", () => {
  test('Read alone: saving an edit is 403 forbidden (as a PUT would be), and the document stays as it was', async () => {
    const res = await save(`${READ}notes.txt`, 'Changed by Bob.')
    expect(res.status).toBe(403)
    expect(await errorCode(res)).toBe('forbidden')
    expect((await ownerRead(`${READ}notes.txt`)).text).toBe('Read me.')
  })

  test('Read alone: adding a file is 403 forbidden (as a POST would be), and nothing is added', async () => {
    const res = await upload(READ, 'bob.txt')
    expect(res.status).toBe(403)
    expect(await errorCode(res)).toBe('forbidden')
    expect((await owner.fetch(a(`${READ}bob.txt`))).status).toBe(404)
  })

  test('Write: the text is saved, 303 back to the file, with its type kept', async () => {
    const res = await save(`${EDIT}notes.txt`, 'Day 1: sea. Day 2: hills.')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/.visitor/files?path=${encodeURIComponent(`${EDIT}notes.txt`)}`)
    expect(await ownerRead(`${EDIT}notes.txt`)).toEqual({ type: 'text/plain', text: 'Day 1: sea. Day 2: hills.' })
    // Issue 36: the state Bob's save replaced is a version, and the owner's history says who ended it and how
    const map = await (await owner.fetch(a(`${EDIT}notes.txt?ext=timemap`))).text()
    const first = /<([^>]+)>; rel="first memento"/.exec(map)![1]!
    expect(await (await owner.fetch(first)).text()).toBe('Day 1: sea.')
    const history = await (
      await fetch(a(`/.admin/history?path=${encodeURIComponent(`${EDIT}notes.txt`)}`), { headers: { cookie: owner.browser.header() } })
    ).text()
    expect(history).toContain(`by ${bobWebId()} <span class="muted">with the visitor&#39;s pages</span>`)
  })

  test('Write: a Turtle document is saved as Turtle', async () => {
    const res = await save(`${EDIT}plan.ttl`, '<#trip> <http://schema.org/name> "Sète and Montpellier".')
    expect(res.status).toBe(303)
    const saved = await ownerRead(`${EDIT}plan.ttl`)
    expect(saved.type).toStartWith('text/turtle')
    expect(saved.text).toContain('Sète and Montpellier')
  })
})

describe('RFC 9110 §13.1.1: a save names the state it edited', () => {
  test('Write: a second photo.jpg uploaded is photo (2).jpg, the first kept (303 each)', async () => {
    expect((await upload(EDIT, 'photo.jpg')).status).toBe(303)
    expect((await upload(EDIT, 'photo.jpg')).status).toBe(303)
    expect((await owner.fetch(a(`${EDIT}photo.jpg`))).status).toBe(200)
    expect((await owner.fetch(a(`${EDIT}photo%20(2).jpg`))).status).toBe(200)
  })

  test("changed meanwhile by the owner: 412 precondition_failed, the owner's change stays", async () => {
    const url = a(`/.visitor/edit?path=${encodeURIComponent(`${EDIT}notes.txt`)}`)
    const page = await (await browse(jar, url)).text()
    await put(`${EDIT}notes.txt`, 'The owner wrote this.')
    const res = await postForm(jar, url, page, '/.visitor/edit', { path: `${EDIT}notes.txt`, text: "Bob's stale copy.", etag: field(page, 'etag') })
    expect(res.status).toBe(412)
    expect(await errorCode(res)).toBe('precondition_failed')
    expect((await ownerRead(`${EDIT}notes.txt`)).text).toBe('The owner wrote this.')
  })
})

describe('RFC 4918 §7: a lock is honoured by the visitor pages too', () => {
  test("a file the owner LOCKed: Bob's save is 423 locked, the file unchanged; unlocked, it saves", async () => {
    const path = `${EDIT}locked.txt`
    await put(path, 'Locked by a laptop.')
    const lock = await owner.fetch(a(path), {
      method: 'LOCK',
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    })
    expect(lock.status).toBe(200)
    const res = await save(path, 'Bob was here.')
    expect(res.status).toBe(423)
    expect(await errorCode(res)).toBe('locked')
    expect((await ownerRead(path)).text).toBe('Locked by a laptop.')
    expect((await owner.fetch(a(path), { method: 'UNLOCK', headers: { 'lock-token': lock.headers.get('lock-token')! } })).status).toBe(204)
    expect((await save(path, 'Bob was here.')).status).toBe(303)
  })
})

describe("refusals of the pod's names and of what is not there", () => {
  test("adding a file under the pod's own endpoints is 405 reserved_path, without the resource's Allow", async () => {
    const res = await upload('/.well-known/', 'bob.txt')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBeNull()
    expect(await errorCode(res)).toBe('reserved_path')
  })

  test("a missing file in a shared folder is 404 not_found, without the resource's WAC-Allow", async () => {
    const res = await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(`${READ}missing.txt`)}`))
    expect(res.status).toBe(404)
    expect(res.headers.get('wac-allow')).toBeNull()
    expect(await errorCode(res)).toBe('not_found')
  })
})

describe("RFC 9110 §14: a file's bytes by range", () => {
  test('a Range is answered 206 with its Content-Range', async () => {
    const res = await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(`${READ}notes.txt`)}`), { headers: { range: 'bytes=0-3' } })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe('bytes 0-3/8')
    expect(await res.text()).toBe('Read')
  })

  test('a Range past the end is 416 range_not_satisfiable', async () => {
    const res = await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(`${READ}notes.txt`)}`), { headers: { range: 'bytes=100-200' } })
    expect(res.status).toBe(416)
    expect(await errorCode(res)).toBe('range_not_satisfiable')
  })
})

describe("the visitor's cookie acts only on the visitor's pages", () => {
  test('sent to the resource server with its CSRF token, it names nobody: 401 unauthenticated on what Bob may read', async () => {
    const page = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(READ)}`))).text()
    expect(page).toContain('notes.txt')
    const res = await fetch(a(`${READ}notes.txt`), { headers: { cookie: jar.header(), 'x-csrf-token': field(page, 'csrf'), origin: alice.baseUrl } })
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('unauthenticated:')
  })
})
