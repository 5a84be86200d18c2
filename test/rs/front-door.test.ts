// The front door: a browser asking for HTML where it may not read gets a page for a person;
// apps asking for RDF (or anything else) keep the plain refusal with its challenges, unchanged.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, CookieJar, WEBID, logIn, newDpopKey, obtainTokens, openTestPod, withToken, type TestPod } from '../op/op-fixture.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { challengesFor } from '../../src/policy/access-control.ts'

const CHALLENGE = challengesFor('/').join(', ')
/** The challenges of an anonymous 401: UMA (a fresh ticket each time) before the DPoP one. */
const challenges = (res: Response) => res.headers.get('www-authenticate')?.replace(/ticket="[\w-]+\.[\w-]{22}"/, 'ticket="…"')
const UMA_AND_DPOP = `UMA realm="${BASE}", as_uri="${BASE}", ticket="…", ${CHALLENGE}`

/** What Chromium sends for a top-level navigation. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
const text = (page: string) => page.replaceAll('<wbr>', '')

let pod: TestPod
let fresh: TestPod
beforeAll(async () => {
  pod = await openTestPod()
  fresh = await openTestPod({ withPassword: false })
})
afterAll(async () => {
  await pod.close()
  await fresh.close()
})

describe('content negotiation decides who gets the page', () => {
  test.each([
    ['no Accept', undefined],
    ['Turtle', 'text/turtle'],
    ['JSON-LD', 'application/ld+json'],
    ['any type', '*/*'],
    ['Turtle over HTML', 'text/turtle, text/html;q=0.9'],
    ['HTML and Turtle equally', 'text/html, text/turtle'],
  ])('an app asking with %s gets the plain 401 with its challenges, as before', async (_, accept) => {
    const res = await pod.request('/', accept ? { headers: { accept } } : {})
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(challenges(res)).toBe(UMA_AND_DPOP)
    expect(res.headers.get('link')).toContain(`<${BASE}/.acl>; rel="acl"`)
    expect(res.headers.get('wac-allow')).toBe('user="",public=""')
    expect(res.headers.has('vary')).toBe(false)
    expect(await res.text()).toBe(
      'unauthenticated: read access to / needs an authenticated agent; log in with a Solid-OIDC provider and send a DPoP-bound token, obtain a UMA access token with the ticket, or sign the request (HttpSig)\n',
    )
  })

  test('a browser at the storage root gets the front door: same status and challenges, HTML for a person', async () => {
    const res = await pod.request('/', { headers: { accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(challenges(res)).toBe(UMA_AND_DPOP)
    expect(res.headers.get('link')).toContain(`<${BASE}/.acl>; rel="acl"`)
    expect(res.headers.get('wac-allow')).toBe('user="",public=""')
    expect(res.headers.get('vary')).toBe('Accept')
    expect(res.headers.get('content-security-policy')).toStartWith("default-src 'none'")
    const page = text(await res.text())
    expect(page).toContain('A Solid pod')
    expect(page).toContain(`href="${WEBID}"`)
    expect(page).toContain('href="/.oidc/login?return=/.admin/">Sign in</a>')
    expect(page).not.toContain('No password is set')
    expect(page).not.toContain('<script')
  })

  test('a private path that does not exist looks the same as one that does (no existence oracle)', async () => {
    const res = await pod.request('/private/nothing-here', { headers: { accept: 'text/html' } })
    expect(res.status).toBe(401)
    expect(text(await res.text())).toContain('<bdi>/private/nothing-here</bdi> is not public')
  })

  test('a name that is not ASCII reads as people write it, escaped and kept apart from the sentence around it', async () => {
    const res = await pod.request('/private/%C3%89t%C3%A9%20%231%20%3F50%25%20a%2Bb/%3Cb%3ETom%20%26%20Jerry.txt', { headers: { accept: 'text/html' } })
    expect(res.status).toBe(401)
    const page = text(await res.text())
    expect(page).toContain('<bdi>/private/Été #1 ?50% a+b/&lt;b&gt;Tom &amp; Jerry.txt</bdi> is not public')
    expect(page).not.toContain('%C3%89')
  })

  test('HEAD from a browser answers the front door headers without a body', async () => {
    const res = await pod.request('/', { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toBe('')
  })

  test('a public document is still served as RDF to a browser (the profile), not the front door', async () => {
    const res = await pod.request('/profile/card', { headers: { accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/turtle')
  })

  test("an address among the pod's own pages that none answers is said not to be there, not to be private (an app keeps its 401)", async () => {
    const jar = new CookieJar()
    await logIn(pod, jar)
    for (const cookie of [undefined, jar.header()]) {
      const res = await pod.request('/.admin/no-such-page', { headers: { accept: BROWSER_ACCEPT, ...(cookie ? { cookie } : {}) } })
      expect(res.status).toBe(404)
      expect(res.headers.get('vary')).toBe('Accept')
      const page = text(await res.text())
      expect(page).toContain('The pod has no page at /.admin/no-such-page.')
      expect(page).toContain('href="/.admin/">The dashboard</a>')
      expect(page).not.toContain('is not public')
    }
    expect((await pod.request('/.oidc/no-such-page', { headers: { accept: BROWSER_ACCEPT } })).status).toBe(404)
    expect((await pod.request('/.admin/no-such-page', { headers: { accept: 'text/turtle' } })).status).toBe(401)
  })

  test('writes from a browser get the plain refusal (only reads have a front door)', async () => {
    const res = await pod.request('/x', { method: 'PUT', headers: { accept: 'text/html', 'content-type': 'text/turtle' }, body: '<a> <b> <c>.' })
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })
})

describe('what the front door tells the owner', () => {
  test('before a password exists it says where the setup link is', async () => {
    const res = await fresh.request('/', { headers: { accept: BROWSER_ACCEPT } })
    const page = await res.text()
    expect(page).toContain('No password is set yet')
    expect(page).toContain('printed in the terminal where the server was started')
    expect(page).toContain('<code>solopod setup-link</code>')
    expect(page).not.toContain('>Sign in</a>')
  })

  test('the owner signed in to the pod in this browser is led to the dashboard', async () => {
    const jar = new CookieJar()
    await logIn(pod, jar)
    const page = await (await pod.request('/', { headers: { accept: BROWSER_ACCEPT, cookie: jar.header() } })).text()
    expect(page).toContain('You are signed in as the owner')
    expect(page).toContain('href="/.admin/">your dashboard</a>')
  })

  test('an authenticated agent refused by the ACL (403) gets the page too, with the same status', async () => {
    await writeTurtle(
      pod.store,
      BASE,
      '/closed/.acl',
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#only> a acl:Authorization; acl:agent <https://someone.example/#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Control.`,
    )
    await writeTurtle(pod.store, BASE, '/closed/', '', pod.clock.now)
    const key = await newDpopKey()
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const asApp = await withToken(pod, key, String(body.access_token), 'GET', '/closed/')
    expect(asApp.status).toBe(403)
    expect(asApp.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const asBrowser = await withToken(pod, key, String(body.access_token), 'GET', '/closed/', {}, { accept: 'text/html' })
    expect(asBrowser.status).toBe(403)
    expect(asBrowser.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(text(await asBrowser.text())).toContain('<bdi>/closed/</bdi> is not shared with the agent that asked')
  })
})
