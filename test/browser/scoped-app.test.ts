// Issue 24 in Chromium with a real third-party app (Inrupt's solid-client-authn-browser + solid-client, on
// its own origin): the owner allows it only /photos/ on the consent page; it reads and writes there and
// is refused elsewhere; the owner re-scopes it in the dashboard and its next request sees the change;
// an app with full access works as before.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { DESKTOP, HOOK_TIMEOUT, PHONE, horizontalOverflow, newContext, screenshot, signInAsOwner, startBrowserPod, type RunningPod } from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { logInThroughApp, openApp, runInApp } from './app-flow.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let app: TestApp
// A second app of its own (another origin, so other redirect URIs): the same app in another browser would be the same client
let otherApp: TestApp
let fullContext: BrowserContext
let scopedContext: BrowserContext
let fullApp: Page
let scopedApp: Page

beforeAll(async () => {
  ;[pod, app, otherApp] = await Promise.all([startBrowserPod(), startTestApp(), startTestApp()])
  fullContext = await newContext({ viewport: DESKTOP })
  scopedContext = await newContext({ viewport: DESKTOP })
  fullApp = await openApp(fullContext, app)
  scopedApp = await openApp(scopedContext, otherApp)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await fullContext?.close()
  await scopedContext?.close()
  await app?.stop()
  await otherApp?.stop()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const u = (path: string) => pod.baseUrl + path
const status = (page: Page, url: string, init?: RequestInit) => runInApp(page, (api, x) => api.status(x.url, x.init), { url, init })

describe('an app allowed only /photos/', () => {
  test('with full access, one app writes /photos/ and /private/ (the default choice, as before)', async () => {
    await logInThroughApp(fullApp, { pod: pod.baseUrl })
    await runInApp(fullApp, (api, url) => api.writeTitle(url, 'beach'), u('/photos/beach'))
    await runInApp(fullApp, (api, url) => api.writeTitle(url, 'diary'), u('/private/diary'))
  })

  test('a second app is allowed only /photos/ (read and write) on the consent page', async () => {
    await logInThroughApp(scopedApp, { pod: pod.baseUrl, onlyFolders: [{ path: '/photos/', right: 'write' }], shots: { consent: 'consent-only-folders' } })
  })

  test('it reads and writes in /photos/ with solid-client', async () => {
    expect(await runInApp(scopedApp, (api, url) => api.readTitle(url), u('/photos/beach'))).toBe('beach')
    await runInApp(scopedApp, (api, url) => api.writeTitle(url, 'sunset'), u('/photos/sunset'))
    expect(await runInApp(fullApp, (api, url) => api.readTitle(url), u('/photos/sunset'))).toBe('sunset')
  })

  test('and gets 403 everywhere else, reading or writing, and on the sharing settings of its own folder', async () => {
    expect(await status(scopedApp, u('/private/diary'))).toBe(403)
    expect(await status(scopedApp, u('/private/other'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).toBe(403)
    expect(await status(scopedApp, u('/'))).toBe(403)
    expect(await status(scopedApp, u('/photos/.acl'))).toBe(403)
  })

  test('the app with full access is unchanged', async () => {
    expect(await runInApp(fullApp, (api, url) => api.readTitle(url), u('/private/diary'))).toBe('diary')
    expect(await status(fullApp, u('/'))).toBe(200)
  })
})

describe('the owner re-scopes it in the dashboard', () => {
  let tab: Page
  afterAll(() => tab?.close())
  /** Both apps are "solopod test app": the limited one is the row of the client id the dashboard API says is limited. */
  let scopedClientId = ''

  test('Apps and sessions shows what each app may reach', async () => {
    tab = await scopedContext.newPage()
    await tab.goto(u('/.admin/sessions'))
    if (tab.url().includes('/.oidc/login')) {
      await signInAsOwner(tab)
      await tab.waitForURL(u('/.admin/sessions'))
    }
    await tab.getByRole('heading', { name: 'Apps you approved' }).waitFor()
    const consents = (await tab.evaluate(async () => (await fetch('/.admin/api/consents')).json())) as { clientId: string; access: { full: boolean } }[]
    expect(consents.map(c => c.access.full).sort()).toEqual([false, true])
    scopedClientId = consents.find(c => !c.access.full)!.clientId
    const row = tab.locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
    await expect(row.locator('.access-summary').textContent()).resolves.toBe('only to read and write /photos/')
    await screenshot(tab, 'dashboard-apps-access')
  })

  /** The app's access page, from its row's Change link. */
  const openAccessPage = async () => {
    await tab.goto(u('/.admin/sessions'))
    const row = tab.locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
    await row.getByRole('link', { name: /^Change what/ }).click()
    await tab.getByRole('heading', { name: /^What .* may reach$/ }).waitFor()
    expect(new URL(tab.url()).searchParams.get('client_id')).toBe(scopedClientId)
  }
  const summaryNow = () =>
    tab
      .locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
      .locator('.access-summary')
      .textContent()

  test("changed to /private/ (read) on its access page: the app's next request sees it", async () => {
    await openAccessPage()
    await tab.getByLabel('Access to /photos/').selectOption('none')
    await tab.getByLabel('Another folder').fill('/private/')
    await tab.getByLabel('Access to that folder').selectOption('read')
    await screenshot(tab, 'dashboard-apps-access-editor')
    await tab.getByRole('button', { name: 'Save' }).click()
    await tab.getByText(/^Access changed/).waitFor()
    expect(await summaryNow()).toBe('only to read /private/')

    expect(await runInApp(scopedApp, (api, url) => api.readTitle(url), u('/private/diary'))).toBe('diary')
    expect(await status(scopedApp, u('/photos/beach'))).toBe(403)
    expect(await status(scopedApp, u('/private/diary'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).toBe(403)
  })

  test('given full access, it reaches everything again', async () => {
    await openAccessPage()
    await tab.getByLabel(/Allow full access/).check()
    await tab.getByRole('button', { name: 'Save' }).click()
    await tab.getByText(/^Access changed/).waitFor()
    expect(await summaryNow()).toBe('everything you can reach: read, change and share')
    expect(await status(scopedApp, u('/photos/beach'))).toBe(200)
    expect(await status(scopedApp, u('/'))).toBe(200)
  })

  test('at phone width both pages fit', async () => {
    await tab.setViewportSize(PHONE)
    await tab.goto(u('/.admin/sessions'))
    expect(await horizontalOverflow(tab)).toBe(0)
    await screenshot(tab, 'dashboard-apps-access-phone')
    await openAccessPage()
    expect(await horizontalOverflow(tab)).toBe(0)
    await screenshot(tab, 'dashboard-app-access-page-phone')
  })
})
