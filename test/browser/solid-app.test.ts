// A real Solid app (Inrupt's solid-client-authn-browser + solid-client, on its own origin) used in
// headless Chromium with two pods, as their owners would: log in, work on data, share, log out.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  screenshotBothWidths,
  startBrowserPod,
  tabTo,
  type RunningPod,
} from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { answerPod, clickLogIn, logInThroughApp, openApp, runInApp, waitAppReady, waitLoggedIn } from './app-flow.ts'

// a browser, pods and argon2 password checks on a shared 2-core machine
setDefaultTimeout(30_000)
let alicePod: RunningPod
let bobPod: RunningPod
let app: TestApp
let alice: BrowserContext
let page: Page
/** Bodies of the app's dynamic registrations at Alice's pod, as the library sent them. */
const registrations: Record<string, unknown>[] = []

beforeAll(async () => {
  ;[alicePod, bobPod, app] = await Promise.all([startBrowserPod(), startBrowserPod(), startTestApp()])
  alice = await newContext({ viewport: DESKTOP })
  alice.on('request', r => {
    if (r.method() === 'POST' && r.url() === `${alicePod.baseUrl}/.oidc/reg`) registrations.push(r.postDataJSON() as Record<string, unknown>)
  })
  page = await openApp(alice, app)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await alice?.close()
  await app?.stop()
  await Promise.all([alicePod?.dispose(), bobPod?.dispose()])
}, HOOK_TIMEOUT)

const a = (path: string) => alicePod.baseUrl + path
const aliceWebId = () => `${alicePod.baseUrl}/profile/card#me`
const run = <T>(fn: (api: Window['testApp'], arg: any) => Promise<T> | T, arg?: unknown) => runInApp(page, fn, arg)

describe('Solid-OIDC login from a real app in Chromium (issue 8)', () => {
  test('dynamic registration without scope, then the login and consent pages typed and clicked', async () => {
    const webId = await logInThroughApp(page, { pod: alicePod.baseUrl, shots: { login: 'app-login', consent: 'app-consent' } })
    expect(webId).toBe(aliceWebId())
    // the fault this guards: Inrupt's library registers without scope (RFC 7591 §2)
    expect(registrations.length).toBe(1)
    expect(registrations[0]).not.toHaveProperty('scope')
    expect(await run(api => api.info().isLoggedIn)).toBe(true)
  })

  test("the app reads the profile: the pod is the WebID's issuer and storage", async () => {
    expect(await run(api => api.readProfile())).toEqual({ issuer: alicePod.baseUrl, storage: `${alicePod.baseUrl}/` })
  })

  test('a request with an empty Authorization and DPoP header is anonymous: public data is read, not refused with 400', async () => {
    expect(await run((api, url) => api.emptyCredentialsStatus(url), a('/profile/card'))).toBe(200)
    expect(await run((api, url) => api.emptyCredentialsStatus(url), a('/'))).toBe(401)
  })

  test('the app creates a container, writes, reads, updates and N3-Patches a document', async () => {
    const doc = a('/notes/todo')
    await run((api, url) => api.createContainer(url), a('/notes/'))
    await run((api, x) => api.writeTitle(x.doc, 'first'), { doc })
    expect(await run((api, url) => api.readTitle(url), doc)).toBe('first')
    await run((api, url) => api.changeTitle(url, 'second'), doc)
    expect(await run((api, url) => api.readTitle(url), doc)).toBe('second')
    expect(await run((api, url) => api.n3Patch(url, 'second', 'third'), doc)).toBe(204)
    expect(await run((api, url) => api.readTitle(url), doc)).toBe('third')
    expect(await run((api, url) => api.status(url), a('/notes/'))).toBe(200)
  })

  test('the app uploads a binary and reads it back byte for byte', async () => {
    const bytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]
    const back = await run((api, x) => api.uploadBinary(x.url, x.bytes, 'image/png'), { url: a('/notes/pixel.png'), bytes })
    expect(back).toEqual({ contentType: 'image/png', bytes })
  })

  test('the app shares a document with a second WebID by writing its ACL', async () => {
    await run((api, x) => api.writeTitle(x, 'for bob'), a('/shared/for-bob'))
    await run((api, x) => api.writeTitle(x, 'private'), a('/shared/not-for-bob'))
    await run((api, x) => api.shareRead(x.url, x.bob), { url: a('/shared/for-bob'), bob: `${bobPod.baseUrl}/profile/card#me` })
    expect(await run((api, url) => api.status(url), a('/shared/for-bob.acl'))).toBe(200)
    // anonymous agents still get nothing
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
  })

  test('the sessions page lists the app, at desktop and phone width', async () => {
    const tab = await alice.newPage()
    try {
      await tab.goto(a('/.admin/sessions'))
      expect(await tab.locator('h1').textContent()).toBe('Apps and sessions')
      expect(await tab.locator('main').textContent()).toContain('solopod test app')
      await screenshot(tab, 'sessions-with-app')
      await tab.setViewportSize(PHONE)
      expect(await horizontalOverflow(tab)).toBe(0)
      await screenshot(tab, 'sessions-with-app-phone')
      // by keyboard: the app's Revoke button is reachable (the table scrolls it into view)
      await tabTo(tab, 'form[action="/.admin/sessions/revoke"] button', 40)
      expect(await tab.evaluate(() => document.activeElement?.textContent)).toMatch(/^(Revoke|End|Sign out)$/)
    } finally {
      await tab.close()
    }
  })
})

describe('log out, log in again with a Client ID Document, silent restore', () => {
  test('after logging out the app has no session and the pod refuses it', async () => {
    await page.locator('#logout').click()
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Not logged in')
    expect(await run((api, url) => api.status(url), a('/notes/todo'))).toBe(401)
  })

  test('a Client ID Document served by the app: the consent page names it, the owner allows', async () => {
    const webId = await logInThroughApp(page, { pod: alicePod.baseUrl, how: 'client-id', shots: { consent: 'app-consent-client-id' } })
    expect(webId).toBe(aliceWebId())
    expect(await run((api, url) => api.readTitle(url), a('/notes/todo'))).toBe('third')
  })

  test('log out and in again: the consent is remembered, no pod page is shown', async () => {
    await page.locator('#logout').click()
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Not logged in')
    await clickLogIn(page, alicePod.baseUrl, 'client-id')
    await answerPod(page, { pod: alicePod.baseUrl, consent: 'remembered' })
    expect(await waitLoggedIn(page)).toBe(aliceWebId())
  })

  test('a reload restores the session silently (prompt=none at the pod) and the app still works', async () => {
    const silent: string[] = []
    page.on('request', r => {
      if (r.url().startsWith(`${alicePod.baseUrl}/.oidc/auth`)) silent.push(new URL(r.url()).searchParams.get('prompt') ?? '')
    })
    await page.reload()
    await waitAppReady(page)
    expect(await waitLoggedIn(page)).toBe(aliceWebId())
    expect(silent).toEqual(['none'])
    expect(await run(api => api.events())).toContain('restored')
    expect(await run((api, url) => api.readTitle(url), a('/notes/todo'))).toBe('third')
  })

  // Issue 40: "an app that logs in again registers once"
  test('log out and in again by dynamic registration: the app registers again, is the same client (its consent remembered) and is listed once', async () => {
    await page.locator('#logout').click()
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Not logged in')
    await clickLogIn(page, alicePod.baseUrl, 'dynamic')
    await answerPod(page, { pod: alicePod.baseUrl, consent: 'remembered' })
    expect(await waitLoggedIn(page)).toBe(aliceWebId())
    expect(registrations.length).toBe(2)
    const tab = await alice.newPage()
    try {
      await tab.goto(a('/.admin/sessions'))
      // one row for the dynamically registered app, one for its Client ID Document: two logins each, two entries
      const rows = tab.locator('section:has(#apps-h) tbody tr', { hasText: 'solopod test app' })
      expect(await rows.count()).toBe(2)
      for (const dark of [false, true]) {
        await tab.emulateMedia({ colorScheme: dark ? 'dark' : 'light' })
        expect(await screenshotBothWidths(tab, `sessions-app-once${dark ? '-dark' : ''}`)).toBe(0)
      }
    } finally {
      await tab.close()
    }
  })
})

describe("a second pod: its owner's app session at the first pod", () => {
  let bob: BrowserContext
  let bobPage: Page
  beforeAll(async () => {
    bob = await newContext({ viewport: PHONE })
    bobPage = await openApp(bob, app)
  }, HOOK_TIMEOUT)
  afterAll(() => bob?.close())
  const runAsBob = <T>(fn: (api: Window['testApp'], arg: any) => Promise<T> | T, arg?: unknown) => runInApp(bobPage, fn, arg)

  test('Bob logs in at his own pod through the app, at phone width', async () => {
    const webId = await logInThroughApp(bobPage, { pod: bobPod.baseUrl, shots: { login: 'app-login-phone', consent: 'app-consent-phone' } })
    expect(webId).toBe(`${bobPod.baseUrl}/profile/card#me`)
  })
  test('he reads what Alice shared with his WebID', async () => {
    expect(await runAsBob((api, url) => api.readTitle(url), a('/shared/for-bob'))).toBe('for bob')
  })
  test('and is refused (403) what she did not share', async () => {
    expect(await runAsBob((api, url) => api.status(url), a('/shared/not-for-bob'))).toBe(403)
    expect(await runAsBob((api, url) => api.status(url), a('/notes/todo'))).toBe(403)
    expect(await runAsBob((api, url) => api.status(url, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' }), a('/shared/for-bob'))).toBe(
      403,
    )
  })
})
