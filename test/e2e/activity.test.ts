// Issue 36 over real HTTP: the owner's Activity page, a file's and a folder's history, "Recently deleted" with what
// apps deleted over LDP and WebDAV, the undo forms (CSRF-guarded), and a folder an app wrecked restored byte for byte.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { CookieJar, FORM, form } from '../op/op-fixture.ts'
import { ownerForms, type OwnerForms } from './owner-login.ts'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'

let pod: RunningPod
let owner: OwnerForms
interface Credential {
  id: string
  secret: string
}
let notes: Credential

const url = (path: string) => pod.baseUrl + path
const basic = (c: Credential) => `Basic ${btoa(`${c.id}:${c.secret}`)}`
/** A request as the Notes app (a client credential over WebDAV, HTTP Basic) makes it. */
const app = (method: string, path: string, body?: string | Uint8Array<ArrayBuffer>, type = 'text/turtle') =>
  fetch(url(path), {
    method,
    headers: { authorization: basic(notes), ...(body !== undefined ? { 'content-type': type } : {}) },
    ...(body !== undefined ? { body } : {}),
  })
const api = (path: string, body: unknown, jar = owner.jar) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: jar.header(), 'x-csrf-token': owner.csrf },
    body: JSON.stringify(body),
  })
const bytesOf = async (path: string) => Buffer.from(await (await app('GET', path)).arrayBuffer())

beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write']) })
  const r = await runSolopod('clients', 'add', '--name', 'Notes app', '--data', pod.dataDir)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  notes = { id: id!, secret: secret! }
  owner = await ownerForms(pod)
  // WebDAV makes a file's folder first (RFC 4918 §9.7.1)
  for (const folder of ['/contacts/', '/other/', '/notes/', '/many/', '/work/', '/work/sub/']) expect((await app('MKCOL', folder)).status).toBe(201)
  expect((await app('PUT', '/contacts/people.ttl', '<#a> <http://xmlns.com/foaf/0.1/name> "Ann".')).status).toBe(201)
  expect((await app('PUT', '/contacts/people.ttl', '<#a> <http://xmlns.com/foaf/0.1/name> "Bob".')).status).toBe(204)
}, 60_000)
afterAll(() => pod?.dispose())

describe('the Activity page', () => {
  test('lists who changed what with which app, newest first, with See before and Undo; the nav links it', async () => {
    const res = await owner.page('/.admin/activity')
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('<a href="/.admin/activity" aria-current="page">Activity</a>')
    // the app as the owner named its credential
    expect(body).toContain(`with <a href="/.admin/activity?app=${notes.id}">Notes app</a>`)
    expect(body).toMatch(/changed <a href="\/.admin\/history\?path=%2Fcontacts%2Fpeople.ttl">\/contacts\/people.ttl<\/a>/)
    expect(body).toContain('See before')
    expect(body).toContain('>Undo</button>')
  })

  test('Undo (a CSRF-guarded form) puts the state before the change back; without the token 403 csrf_failed', async () => {
    const body = await (await owner.page('/.admin/activity?folder=/contacts/')).text()
    const version = body.match(/name="version" value="(\d+)"/)![1]!
    const refused = await owner.postForm('/.admin/history/restore', { path: '/contacts/people.ttl', version, back: 'activity' }, { csrf: 'wrong' })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain('csrf_failed')
    const res = await owner.postForm('/.admin/history/restore', { path: '/contacts/people.ttl', version, back: 'activity' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/activity?done=restore')
    expect(await (await app('GET', '/contacts/people.ttl')).text()).toContain('"Ann"')
    // the undo is a change too, by the owner through the dashboard
    expect(await (await owner.page('/.admin/activity')).text()).toContain('You<br><span class="muted">with the dashboard</span>')
  })

  test('filtered by app and by folder; a path shown decoded', async () => {
    expect((await app('PUT', '/other/n%C3%A9e%20x.txt', 'one', 'text/plain')).status).toBe(201)
    expect((await app('PUT', '/other/n%C3%A9e%20x.txt', 'two', 'text/plain')).status).toBe(204)
    const byApp = await (await owner.page(`/.admin/activity?app=${encodeURIComponent(notes.id)}`)).text()
    expect(byApp).toContain('/other/née x.txt')
    expect(byApp).not.toContain('with the dashboard')
    const inContacts = await (await owner.page('/.admin/activity?folder=/contacts/')).text()
    expect(inContacts).toContain('/contacts/people.ttl')
    expect(inContacts).not.toContain('née')
  })

  test('Recently deleted: what an app deleted over LDP and WebDAV, each with Put it back', async () => {
    expect(
      (await fetch(url('/pub/ldp.ttl'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<#x> <http://example.org/v> "ldp".' })).status,
    ).toBe(201)
    expect((await fetch(url('/pub/ldp.ttl'), { method: 'DELETE' })).status).toBe(204)
    expect((await app('PUT', '/notes/dav.txt', 'webdav text', 'text/plain')).status).toBe(201)
    expect((await app('DELETE', '/notes/dav.txt')).status).toBe(204)
    expect(await (await owner.page('/.admin/trash')).text()).toContain('it is in <a href="/.admin/activity?what=deleted">Recently deleted</a>')
    const body = await (await owner.page('/.admin/activity?what=deleted')).text()
    expect(body).toContain('<h1>Recently deleted</h1>')
    expect(body).toContain('deleted <a href="/.admin/history?path=%2Fpub%2Fldp.ttl">/pub/ldp.ttl</a>')
    expect(body).toContain('deleted <a href="/.admin/history?path=%2Fnotes%2Fdav.txt">/notes/dav.txt</a>')
    // The public names no app: the row says who, and nothing of an app
    expect(body).toContain('<td data-label="Who">Someone not signed in</td>')
    expect(body).not.toContain('changed <a')
    const version = body.match(/name="path" value="\/notes\/dav.txt"><input type="hidden" name="version" value="(\d+)"/)![1]!
    expect(body).toContain('Put it back')
    expect((await owner.postForm('/.admin/history/restore', { path: '/notes/dav.txt', version, back: 'activity' })).status).toBe(303)
    expect(await (await app('GET', '/notes/dav.txt')).text()).toBe('webdav text')
  })

  test('paginated: 50 a page, then Older changes', async () => {
    for (let i = 0; i < 52; i++) expect((await app('PUT', '/many/n.txt', `v${i}`, 'text/plain')).status).toBe(i === 0 ? 201 : 204)
    const first = await (await owner.page('/.admin/activity?folder=/many/')).text()
    expect(first.match(/See before/g)!.length).toBe(50)
    const next = first.match(/href="(\/.admin\/activity\?[^"]*after=[^"]*)"/)![1]!.replaceAll('&amp;', '&')
    const second = await (await owner.page(next)).text()
    expect(second.match(/See before/g)!.length).toBe(1)
    expect(second).not.toContain('Older changes')
  })
})

describe('who created a resource is kept from its creation', () => {
  test('an app creates a file over WebDAV: the activity says "created" by it, with See it and nothing to undo', async () => {
    expect((await app('MKCOL', '/made/')).status).toBe(201)
    expect((await app('PUT', '/made/new.txt', 'fresh', 'text/plain')).status).toBe(201)
    const body = await (await owner.page('/.admin/activity?folder=/made/')).text()
    const row = body.split('<tr>').find(r => r.includes('created <a href="/.admin/history?path=%2Fmade%2Fnew.txt">/made/new.txt</a>'))!
    expect(row).toContain(`<td data-label="Who">You<br><span class="muted">with <a href="/.admin/activity?app=${notes.id}&amp;folder=%2Fmade%2F">Notes app</a>`)
    expect(row).toContain('>See it</a>')
    expect(row).not.toContain('Undo')
    expect(body).toContain('created <a href="/.admin/history?path=%2Fmade%2F">/made/</a>')
  })
})

describe('a move says where the state went, whatever face moved it', () => {
  test('the dashboard form, WebDAV MOVE (a folder too, each member to its own new path) and the owner API: "moved X to Y"', async () => {
    for (const folder of ['/moves/', '/moves/dest/', '/moves/dir/']) expect((await app('MKCOL', folder)).status).toBe(201)
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'dir/x.txt']) expect((await app('PUT', `/moves/${name}`, name, 'text/plain')).status).toBe(201)
    expect((await owner.postForm('/.admin/files/move', { path: '/moves/a.txt', name: 'a2.txt', folder: '/moves/' })).status).toBe(303)
    const dav = (from: string, to: string) => fetch(url(from), { method: 'MOVE', headers: { authorization: basic(notes), destination: url(to) } })
    expect((await dav('/moves/b.txt', '/moves/dest/b.txt')).status).toBe(201)
    expect((await dav('/moves/dir/', '/moves/dir2/')).status).toBe(201)
    expect((await api('/.admin/api/move', { from: '/moves/c.txt', to: '/moves/dest/c%20d.txt' })).status).toBe(200)
    const body = await (await owner.page('/.admin/activity?folder=/moves/')).text()
    expect(body).toContain(
      `moved <a href="/.admin/history?path=%2Fmoves%2Fa.txt">/moves/a.txt</a> to <a href="/.admin/history?path=%2Fmoves%2Fa2.txt">/moves/a2.txt</a>`,
    )
    expect(body).toContain(
      `moved <a href="/.admin/history?path=%2Fmoves%2Fb.txt">/moves/b.txt</a> to <a href="/.admin/history?path=%2Fmoves%2Fdest%2Fb.txt">/moves/dest/b.txt</a>`,
    )
    expect(body).toContain(
      `moved <a href="/.admin/history?path=%2Fmoves%2Fdir%2F">/moves/dir/</a> to <a href="/.admin/history?path=%2Fmoves%2Fdir2%2F">/moves/dir2/</a>`,
    )
    expect(body).toContain(
      `moved <a href="/.admin/history?path=%2Fmoves%2Fdir%2Fx.txt">/moves/dir/x.txt</a> to <a href="/.admin/history?path=%2Fmoves%2Fdir2%2Fx.txt">/moves/dir2/x.txt</a>`,
    )
    expect(body).toContain(
      `moved <a href="/.admin/history?path=%2Fmoves%2Fc.txt">/moves/c.txt</a> to <a href="/.admin/history?path=%2Fmoves%2Fdest%2Fc%2520d.txt">/moves/dest/c d.txt</a>`,
    )
    expect(body).not.toContain('moved away')
    const history = await (await owner.page('/.admin/history?path=%2Fmoves%2Fb.txt')).text()
    expect(history).toContain('Moved to <a href="/.admin/history?path=%2Fmoves%2Fdest%2Fb.txt">/moves/dest/b.txt</a>')
  })
})

describe('an identical rewrite (the same statements saved again)', () => {
  test('shows who saved it with which app; its memento reads the statements; restoring the state before it works', async () => {
    const A = '<#a> <http://xmlns.com/foaf/0.1/name> "Same".'
    expect((await app('PUT', '/notes/same.ttl', A)).status).toBe(201)
    expect((await app('PUT', '/notes/same.ttl', A)).status).toBe(204)
    expect((await app('PUT', '/notes/same.ttl', '<#a> <http://xmlns.com/foaf/0.1/name> "Other".')).status).toBe(204)
    const body = await (await owner.page('/.admin/activity?folder=/notes/')).text()
    expect(body.match(/changed <a href="\/.admin\/history\?path=%2Fnotes%2Fsame.ttl">/g)?.length).toBe(2)
    expect(body).toContain(`with <a href="/.admin/activity?app=${notes.id}&amp;folder=%2Fnotes%2F">Notes app</a>`)
    const map = await (await app('GET', '/notes/same.ttl?ext=timemap')).text()
    const mementos = [...map.matchAll(/<([^>]+\?version=(\d+))>/g)].map(m => m[2]!)
    expect(mementos.length).toBe(3)
    for (const version of mementos.slice(0, 2)) {
      const res = await app('GET', `/notes/same.ttl?version=${version}`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('"Same"')
    }
    const restored = await api('/.admin/api/restore-version', { path: '/notes/same.ttl', datetime: Number(mementos[0]) })
    expect(restored.status).toBe(200)
    expect(await (await app('GET', '/notes/same.ttl')).text()).toContain('"Same"')
  })
})

describe("a file's history", () => {
  test('each version with its date, who, size, view, download and Restore this version; linked from the view page', async () => {
    // the pod's path is as the URL has it (percent-encoded); the pages show it decoded
    const P = '/other/n%C3%A9e%20x.txt'
    const Q = encodeURIComponent(P)
    expect(await (await owner.page(`/.admin/files/view?path=${Q}`)).text()).toContain(`href="/.admin/history?path=${Q}">History</a>`)
    const res = await owner.page(`/.admin/history?path=${Q}`)
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('History of /other/née x.txt')
    // a phone reads each cell after its column's name: "Ended: Not yet (the current version)", not "Ended: Current"
    expect(body).toContain('<td data-label="Ended"><strong>Not yet</strong> (the current version)</td>')
    // each version written to the second, as its Restore button and its page's heading say it (several in one minute read alike)
    const written = [...body.matchAll(/<td data-label="Written">(.*?)<\/td>/g)].map(m => m[1]!.replace(/<[^>]+>/g, ''))
    expect(written.length).toBeGreaterThan(1)
    for (const w of written) expect(w).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \S+$/)
    // "by you" in the middle of the sentence, not "by You"
    expect(body).toContain('Replaced just now by you <span class="muted">with Notes app</span>')
    const version = body.match(new RegExp(`history/version\\?path=${Q}&amp;version=(\\d+)`))![1]!
    const view = await owner.page(`/.admin/history/version?path=${Q}&version=${version}`)
    expect(view.status).toBe(200)
    expect(await view.text()).toContain('<pre class="preview-text">one</pre>')
    const download = await owner.page(`/.admin/history/download?path=${Q}&version=${version}`)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toStartWith('attachment;')
    expect(await download.text()).toBe('one')
    const restored = await owner.postForm('/.admin/history/restore', { path: P, version, back: 'history' })
    expect(restored.status).toBe(303)
    expect(restored.headers.get('location')).toBe(`/.admin/history?path=${Q}&done=restore`)
    expect(await (await app('GET', '/other/n%C3%A9e%20x.txt')).text()).toBe('one')
  })

  test.each([
    ['/.admin/history?path=%2Fnever.ttl', 404, 'memento_not_found'],
    ['/.admin/history/version?path=%2Fcontacts%2Fpeople.ttl&version=1', 404, 'memento_not_found'],
    ['/.admin/history/version?path=%2Fcontacts%2Fpeople.ttl&version=soon', 400, 'invalid_request'],
    ['/.admin/history?path=no-slash', 400, 'invalid_path'],
  ])('%s → %i %s', async (path, status, code) => {
    const res = await owner.page(path)
    expect(res.status).toBe(status)
    expect(await res.text()).toContain(code)
  })
})

describe('a folder restored as it was at a time', () => {
  test('an app wrecks a folder (PUTs and DELETEs); the folder restored is byte-identical; what was made after is deleted, to be put back', async () => {
    const photo = new Uint8Array(randomBytes(40_000))
    expect((await app('PUT', '/work/a.ttl', '<#a> <http://example.org/v> "a".')).status).toBe(201)
    expect((await app('PUT', '/work/sub/b.txt', 'bee', 'text/plain')).status).toBe(201)
    expect((await app('PUT', '/work/photo.bin', photo, 'application/octet-stream')).status).toBe(201)
    const before = { a: await bytesOf('/work/a.ttl'), b: await bytesOf('/work/sub/b.txt'), photo: await bytesOf('/work/photo.bin') }
    await Bun.sleep(5)
    const at = Date.now()
    await Bun.sleep(5)
    // the wreck
    expect((await app('PUT', '/work/a.ttl', '<#a> <http://example.org/v> "wrecked".')).status).toBe(204)
    expect((await app('PUT', '/work/photo.bin', 'zero', 'application/octet-stream')).status).toBe(204)
    expect((await app('DELETE', '/work/sub/b.txt')).status).toBe(204)
    expect((await app('DELETE', '/work/sub/')).status).toBe(204)
    expect((await app('PUT', '/work/new.txt', 'made after', 'text/plain')).status).toBe(201)

    expect(await (await owner.page('/.admin/files?path=%2Fwork%2F')).text()).toContain('<a href="/.admin/history?path=%2Fwork%2F">History of this folder</a>')
    const folderPage = await (await owner.page('/.admin/history?path=%2Fwork%2F')).text()
    expect(folderPage).toContain('What was created in it after that time is deleted; it stays in Recently deleted, to put back.')
    expect(folderPage).toContain('<select id="restore-at" name="at">')
    const res = await owner.postForm('/.admin/history/restore-folder', { path: '/work/', at: String(at) })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/history?path=%2Fwork%2F&done=folder&restored=4&unchanged=0&removed=1')
    expect(await bytesOf('/work/a.ttl')).toEqual(before.a)
    expect(await bytesOf('/work/sub/b.txt')).toEqual(before.b)
    expect(await bytesOf('/work/photo.bin')).toEqual(before.photo)
    expect((await app('GET', '/work/new.txt')).status).toBe(404)
    const deleted = await (await owner.page('/.admin/activity?what=deleted&folder=/work/')).text()
    expect(deleted).toContain('deleted <a href="/.admin/history?path=%2Fwork%2Fnew.txt">/work/new.txt</a>')
    expect(deleted).toContain('name="path" value="/work/new.txt"')
  })

  test('what was made after the time chosen goes, files then folders; a folder made since that holds something moved in stays (kept)', async () => {
    expect((await app('MKCOL', '/keep/')).status).toBe(201)
    expect((await app('PUT', '/keep/old.txt', 'old', 'text/plain')).status).toBe(201)
    expect((await app('PUT', '/elsewhere.txt', 'moved in', 'text/plain')).status).toBe(201)
    await Bun.sleep(5)
    const at = Date.now()
    await Bun.sleep(5)
    for (const f of ['/keep/made/', '/keep/made/deep/', '/keep/hold/']) expect((await app('MKCOL', f)).status).toBe(201)
    expect((await app('PUT', '/keep/made/deep/x.txt', 'x', 'text/plain')).status).toBe(201)
    expect(
      (await fetch(url('/elsewhere.txt'), { method: 'MOVE', headers: { authorization: basic(notes), destination: url('/keep/hold/in.txt') } })).status,
    ).toBe(201)
    const res = await api('/.admin/api/restore-folder', { path: '/keep/', datetime: at })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      path: '/keep/',
      at,
      restored: [],
      unchanged: [], // only what has a version kept is considered for a write back
      absentThen: [],
      removed: ['/keep/made/deep/x.txt', '/keep/made/deep/', '/keep/made/'],
      kept: ['/keep/hold/'],
    })
    expect((await app('GET', '/keep/made/')).status).toBe(404)
    expect(await (await app('GET', '/keep/hold/in.txt')).text()).toBe('moved in')
    expect(await (await app('GET', '/keep/old.txt')).text()).toBe('old')
  })

  test('the API: {path, datetime} → what it restored; a bad datetime 400 invalid_request; a file 400; a stranger 401', async () => {
    expect((await app('PUT', '/work/a.ttl', '<#a> <http://example.org/v> "again".')).status).toBe(204)
    const ok = await api('/.admin/api/restore-folder', { path: '/work/', datetime: Date.now() })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ path: '/work/', restored: [], removed: [], kept: [] })
    for (const [body, status, code] of [
      [{ path: '/work/', datetime: 'yesterday-ish' }, 400, 'invalid_request'],
      [{ path: '/work/a.ttl', datetime: Date.now() }, 400, 'invalid_request'],
    ] as const) {
      const res = await api('/.admin/api/restore-folder', body)
      expect(res.status).toBe(status)
      expect((await res.json()).error).toBe(code)
    }
    const stranger = await api('/.admin/api/restore-folder', { path: '/work/', datetime: Date.now() }, new CookieJar())
    expect(stranger.status).toBe(401)
    expect((await stranger.json()).error).toBe('login_required')
  })
})

describe('signed out', () => {
  test.each(['/.admin/activity', '/.admin/history?path=%2Fwork%2F', '/.admin/history/version?path=%2Fwork%2Fa.ttl&version=1'])(
    '%s → 303 to sign-in',
    async path => {
      const res = await owner.page(path, new CookieJar())
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toContain('/.oidc/login')
    },
  )

  test('the restore forms → 401 login_required', async () => {
    for (const path of ['/.admin/history/restore', '/.admin/history/restore-folder']) {
      const res = await fetch(url(path), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': FORM, origin: pod.baseUrl },
        body: form({ csrf: 'x', path: '/work/', at: '1' }),
      })
      expect(res.status).toBe(401)
      expect(await res.text()).toContain('login_required')
    }
  })
})
