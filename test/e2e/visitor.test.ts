// The recipient's side of sharing (issue 25) over real HTTP with two pods: Bob signs in at Alice's pod
// with his own pod's WebID (Alice's pod is a Solid-OIDC relying party at Bob's provider), sees what is
// shared with him and nothing else, adds a file where he may, and loses it all when Alice revokes.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { CookieJar, field } from '../op/op-fixture.ts'
import { browse, postForm, signInAsVisitor, typeIntoSignIn } from './visitor-client.ts'
import { csrfToken } from './owner-login.ts'

let alice: RunningPod
let bob: RunningPod
let owner: OwnerApp
let jar: CookieJar
const a = (path: string) => alice.baseUrl + path
const bobWebId = () => `${bob.baseUrl}/profile/card#me`
// Names are not ASCII: a space and accents in the folder
const TRIP = '/trip%20%C3%A9t%C3%A9/'

async function put(path: string, body: string | Uint8Array<ArrayBuffer>, type = 'text/turtle') {
  const res = await owner.fetch(a(path), { method: 'PUT', headers: { 'content-type': type }, body })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}
const shareTrip = () =>
  put(
    `${TRIP}.acl`,
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${bobWebId()}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Append.`,
  )

// A PNG's first bytes: enough for a content type and a download to compare
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod(), startPod()])
  owner = await signInOwnerApp(alice, "Alice's app")
  await put(`${TRIP}beach.png`, PNG, 'image/png')
  await put(`${TRIP}notes.txt`, 'Day 1: sea.', 'text/plain')
  await put(`${TRIP}page.html`, '<script>alert(1)</script>', 'text/html')
  await put('/private/diary.txt', 'secret', 'text/plain')
  await shareTrip()
  jar = new CookieJar()
}, 90_000)
afterAll(async () => {
  owner?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

describe('signing in with your own pod', () => {
  test('the front door of a shared item offers "Sign in with your WebID or pod provider"', async () => {
    const res = await fetch(a(TRIP), { headers: { accept: 'text/html' } })
    expect(res.status).toBe(401)
    expect(await res.text()).toContain(`/.visitor/sign-in?return=${encodeURIComponent(TRIP)}`)
  })

  test("the pod's Client ID Document names its callback (Solid-OIDC §5.1)", async () => {
    const doc = (await (await fetch(a('/.visitor/id'))).json()) as Record<string, unknown>
    expect(doc.client_id).toBe(a('/.visitor/id'))
    expect(doc.redirect_uris).toEqual([a('/.visitor/callback')])
    expect(doc.scope).toBe('openid webid')
  })

  test('Bob signs in at his own pod and comes back to the shared folder', async () => {
    const done = await signInAsVisitor(alice, bob, jar, { returnTo: TRIP })
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(`/.visitor/files?path=${encodeURIComponent(TRIP)}`)
    const page = (await (await browse(jar, a(done.headers.get('location')!))).text()).replace(/<wbr>/g, '')
    expect(page).toContain(bobWebId())
    expect(page).toContain('beach.png')
    expect(page).toContain('notes.txt')
    expect(page).toContain('Add a file here')
  })
})

describe('what is shared with him, and nothing else', () => {
  test('"Shared with you" lists the folder and not /private/', async () => {
    const page = await (await browse(jar, a('/.visitor/files'))).text()
    expect(page).toContain('/trip été/')
    expect(page).not.toContain('private')
  })

  test('a preview page for the image and the text; the file itself is sandboxed and downloadable', async () => {
    const image = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP + 'beach.png')}`))).text()
    expect(image).toContain('<img class="preview"')
    const text = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP + 'notes.txt')}`))).text()
    expect(text).toContain('Day 1: sea.')
    const file = await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(TRIP + 'beach.png')}`))
    expect(file.status).toBe(200)
    expect(file.headers.get('content-security-policy')).toBe('sandbox')
    expect(file.headers.get('content-disposition')).toStartWith('inline')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG)
  })

  test('HTML is never shown as a page of the pod: an attachment, sandboxed, not sniffed', async () => {
    const file = await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(TRIP + 'page.html')}`))
    expect(file.headers.get('content-disposition')).toStartWith('attachment')
    expect(file.headers.get('content-security-policy')).toBe('sandbox')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    const page = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP + 'page.html')}`))).text()
    expect(page).not.toContain('<script>alert')
  })

  test('/private/ and the root are refused with 403 and say nothing of what is there', async () => {
    for (const path of ['/private/', '/private/diary.txt', '/private/nothing-here.txt', '/']) {
      const res = await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(path)}`))
      expect(res.status).toBe(403)
      const text = await res.text()
      expect(text).toContain('Not shared with you')
      expect(text).not.toContain('diary')
    }
  })

  test('he adds a photo where he may append (named after his file); it cannot replace one that exists', async () => {
    const page = await (await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP)}`))).text()
    const upload = (name: string) => {
      const form = new FormData()
      form.set('csrf', field(page, 'csrf'))
      form.set('path', TRIP)
      form.set('file', new File([PNG], name, { type: 'image/png' }))
      return browse(jar, a('/.visitor/upload'), { method: 'POST', headers: { origin: alice.baseUrl }, body: form })
    }
    const added = await upload('bob café.png')
    expect(added.status).toBe(303)
    expect((await owner.fetch(a(`${TRIP}bob-caf%C3%A9.png`))).status).toBe(200)
    // a name that is taken gets another one: Alice's photo stays as it was
    await put(`${TRIP}beach.png`, new Uint8Array([9, 9, 9]), 'image/png')
    expect((await upload('beach.png')).status).toBe(303)
    expect(new Uint8Array(await (await owner.fetch(a(`${TRIP}beach.png`))).arrayBuffer())).toEqual(new Uint8Array([9, 9, 9]))
    await put(`${TRIP}beach.png`, PNG, 'image/png')
  })

  test("the visitor cookie never opens the owner's pages or API", async () => {
    const dashboard = await browse(jar, a('/.admin/'))
    expect(dashboard.status).toBe(303)
    expect(dashboard.headers.get('location')).toContain('/.oidc/login')
    const api = await browse(jar, a('/.admin/api/sessions'))
    expect(api.status).toBe(401)
  })
})

describe("the owner's side", () => {
  async function ownerApi(method: string, path: string): Promise<Response> {
    const j = owner.browser
    const csrf = await csrfToken(alice.baseUrl, j)
    return fetch(a(path), { method, headers: { cookie: j.header(), 'x-csrf-token': csrf, origin: alice.baseUrl } })
  }

  test('the share page says what to send Bob and what he will see', async () => {
    const page = await (await browse(owner.browser, a(`/.admin/share?path=${encodeURIComponent(TRIP)}`))).text()
    expect(page).toContain('Send it')
    expect(page).toContain(`value="${a('/.visitor/files?path=')}${encodeURIComponent(TRIP)}"`)
    expect(page).toContain(`They sign in with their own pod (as ${bobWebId()}) and see /trip été/; they may open and download it and add files.`)
  })

  test('"People you share with" lists Bob with what he may reach', async () => {
    const people = (await (await ownerApi('GET', '/.admin/api/people')).json()) as { webid: string; items: { path: string; modes: string[] }[] }[]
    expect(people).toEqual([{ webid: bobWebId(), items: [{ path: TRIP, name: '/trip été/', modes: ['read', 'append'] }] }] as never)
  })

  test('his visit is on the sessions page; signing him out there ends it on his next request', async () => {
    const sessions = (await (await ownerApi('GET', '/.admin/api/sessions')).json()) as { visitorSessions: { id: string; webid: string; issuer: string }[] }
    expect(sessions.visitorSessions.map(v => [v.webid, v.issuer])).toEqual([[bobWebId(), bob.baseUrl]])
    expect((await ownerApi('DELETE', `/.admin/api/sessions/${sessions.visitorSessions[0]!.id}`)).status).toBe(204)
    const next = await browse(jar, a('/.visitor/files'))
    expect(next.status).toBe(303)
    expect(next.headers.get('location')).toStartWith('/.visitor/sign-in')
    // he signs in again for the tests that follow
    expect((await signInAsVisitor(alice, bob, jar, { returnTo: TRIP })).status).toBe(303)
  })
})

describe('without signing in', () => {
  test('what is public opens on the visitor pages without a sign-in', async () => {
    await put('/public/hello.txt', 'Hello, world.', 'text/plain')
    await put(
      '/public/.acl',
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    )
    const stranger = new CookieJar()
    const page = await browse(stranger, a(`/.visitor/files?path=${encodeURIComponent('/public/hello.txt')}`))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Hello, world.')
  })

  test('what is not public leads to the sign-in page, coming back to it', async () => {
    const res = await browse(new CookieJar(), a(`/.visitor/files?path=${encodeURIComponent(TRIP)}`))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/.visitor/sign-in?return=${encodeURIComponent(TRIP)}`)
  })

  test("the owner's own sign-in in the same browser never acts through the visitor pages", async () => {
    const res = await browse(owner.browser, a(`/.visitor/files?path=${encodeURIComponent('/private/')}`))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith('/.visitor/sign-in')
  })
})

describe('revoking', () => {
  test("Alice takes the share back: Bob's next request is refused", async () => {
    await put(
      `${TRIP}.acl`,
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    )
    const res = await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP)}`))
    expect(res.status).toBe(403)
    expect((await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(TRIP + 'beach.png')}`))).status).toBe(403)
    await shareTrip()
  })

  test('signing out ends the visitor session', async () => {
    const page = await (await browse(jar, a('/.visitor/files'))).text()
    const out = await postForm(jar, a('/.visitor/files'), page, '/.visitor/sign-out', {})
    expect(out.status).toBe(303)
    const after = await browse(jar, a(`/.visitor/files?path=${encodeURIComponent(TRIP)}`))
    expect(after.status).toBe(303)
    expect(after.headers.get('location')).toStartWith('/.visitor/sign-in')
  })
})

describe('sign-ins that cannot work are refused with what was wrong', () => {
  const tryWith = (who: string) => typeIntoSignIn(alice, who)
  test('nothing typed → 400 sign_in_failed', async () => {
    const res = await tryWith('   ')
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('sign_in_failed')
  })
  test('an address where no Solid provider answers → 502 provider_unusable', async () => {
    const res = await tryWith('http://localhost:9/')
    expect(res.status).toBe(502)
    expect(await res.text()).toContain('provider_unusable')
  })
  test("the owner's own WebID → 400 sign_in_failed (the owner signs in on the dashboard)", async () => {
    const res = await tryWith(`${alice.baseUrl}/profile/card#me`)
    expect(res.status).toBe(400)
  })
  test('a callback with an unknown state → 400 sign_in_failed', async () => {
    const res = await fetch(a('/.visitor/callback?code=x&state=nope'))
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('sign_in_failed')
  })
  test('a sign-in form from another origin → 403 csrf_failed', async () => {
    const res = await fetch(a('/.visitor/sign-in'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'who=x&return=/',
    })
    expect(res.status).toBe(403)
  })
})

describe('sign-ins are limited per address', () => {
  test('after 20 in 15 minutes from one address, the next is 429 too_many_requests with Retry-After, and nothing is fetched for it', async () => {
    const j = new CookieJar()
    const url = a('/.visitor/sign-in')
    const page = await (await browse(j, url)).text()
    let res: Response | undefined
    for (let i = 0; i < 25; i++) {
      res = await postForm(j, url, page, '/.visitor/sign-in', { return: '/', who: '' })
      if (res.status === 429) break
    }
    expect(res!.status).toBe(429)
    expect(res!.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await res!.text()).toContain('too_many_requests')
  })
})
