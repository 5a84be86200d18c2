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
let fullContext: BrowserContext
let scopedContext: BrowserContext
let fullApp: Page
let scopedApp: Page

beforeAll(async () => {
  [pod, app] = await Promise.all([startBrowserPod(), startTestApp()])
  fullContext = await newContext({ viewport: DESKTOP })
  scopedContext = await newContext({ viewport: DESKTOP })
  fullApp = await openApp(fullContext, app)
  scopedApp = await openApp(scopedContext, app)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await fullContext?.close()
  await scopedContext?.close()
  await app?.stop()
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

  test('the Apps panel shows what each app may reach', async () => {
    tab = await scopedContext.newPage()
    await tab.goto(u('/.admin/#/apps'))
    if (tab.url().includes('/.oidc/login')) {
      await signInAsOwner(tab)
      await tab.waitForURL(u('/.admin/'))
      await tab.goto(u('/.admin/#/apps'))
    }
    await tab.getByRole('heading', { name: 'Apps you approved' }).waitFor()
    const consents = await tab.evaluate(async () => (await fetch('/.admin/api/consents')).json()) as { clientId: string; access: { full: boolean } }[]
    expect(consents.map((c) => c.access.full).sort()).toEqual([false, true])
    scopedClientId = consents.find((c) => !c.access.full)!.clientId
    const row = tab.locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
    await expect(row.locator('.access-summary').textContent()).resolves.toBe('Only /photos/ (read and write)')
    await screenshot(tab, 'dashboard-apps-access')
  })

  test('changed to /private/ (read): the app\'s next request sees it', async () => {
    const row = tab.locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
    await row.getByRole('button', { name: /^Change what/ }).click()
    const editor = row.locator('fieldset.access-editor')
    await editor.getByLabel('Folder', { exact: true }).first().fill('/private/')
    await editor.getByLabel('Access', { exact: true }).first().selectOption('read')
    await screenshot(tab, 'dashboard-apps-access-editor')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(row.locator('.access-summary').textContent()).resolves.toBe('Only /private/ (read)')

    expect(await runInApp(scopedApp, (api, url) => api.readTitle(url), u('/private/diary'))).toBe('diary')
    expect(await status(scopedApp, u('/photos/beach'))).toBe(403)
    expect(await status(scopedApp, u('/private/diary'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).toBe(403)
  })

  test('given full access, it reaches everything again', async () => {
    const row = tab.locator('tr', { has: tab.locator('code', { hasText: scopedClientId }) })
    await row.getByRole('button', { name: /^Change what/ }).click()
    await row.getByLabel(/Full access/).check()
    await row.getByRole('button', { name: 'Save' }).click()
    await expect(row.locator('.access-summary').textContent()).resolves.toBe('Full access')
    expect(await status(scopedApp, u('/photos/beach'))).toBe(200)
    expect(await status(scopedApp, u('/'))).toBe(200)
  })

  test('at phone width the panel fits', async () => {
    await tab.setViewportSize(PHONE)
    expect(await horizontalOverflow(tab)).toBe(0)
    await screenshot(tab, 'dashboard-apps-access-phone')
  })
})
