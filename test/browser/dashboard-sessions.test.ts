// Issue 13 "Apps and sessions" in Chromium with a real third-party app (Inrupt's libraries): signing
// a browser out in the dashboard ends the app sessions started from it, and revoking an app makes its
// token refused. An app over plain HTTP shows the refresh token refused too.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, OWNER_PASSWORD, newContext, screenshot, signInAsOwner, startBrowserPod, type RunningPod } from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { logInThroughApp, openApp, runInApp, waitAppReady } from './app-flow.ts'
import { CookieJar, newDpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, requestTokens, serveClientIdDocument } from '../e2e/oidc-client.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let app: TestApp
beforeAll(async () => {
  ;[pod, app] = await Promise.all([startBrowserPod(), startTestApp()])
}, HOOK_TIMEOUT)
afterAll(async () => {
  await app?.stop()
  await pod?.dispose()
}, HOOK_TIMEOUT)

/** Apps and sessions (/.admin/sessions) in a new tab of `context` (signing in if this browser is not). */
async function appsPanel(context: BrowserContext): Promise<Page> {
  const tab = await context.newPage()
  await tab.goto(`${pod.baseUrl}/.admin/sessions`)
  if (tab.url().includes('/.oidc/login')) {
    await signInAsOwner(tab)
    await tab.waitForURL(`${pod.baseUrl}/.admin/sessions`)
  }
  await tab.getByRole('heading', { name: 'Browsers signed in' }).waitFor()
  return tab
}

describe('revoking in the dashboard ends what an app holds', () => {
  test("signing this browser out ends the app session started from it: the app's token is refused, its silent restore fails", async () => {
    const context = await newContext()
    try {
      const page = await openApp(context, app)
      await logInThroughApp(page, { pod: pod.baseUrl })
      expect(await runInApp(page, (api, url) => api.status(url), `${pod.baseUrl}/`)).toBe(200)

      const tab = await appsPanel(context)
      await tab
        .getByRole('cell', { name: /solopod test app/ })
        .first()
        .waitFor()
      await screenshot(tab, 'dashboard-apps-with-app-desktop')
      tab.once('dialog', d => {
        expect(d.message()).toContain('Apps you signed in to from it lose their access too.')
        void d.accept()
      })
      await tab.getByRole('button', { name: /^Sign out .*\(this browser\)$/ }).click()
      // the dashboard goes back to the sign-in page
      await tab.waitForURL(/\/\.oidc\/login\?return=\/\.admin\/sessions/)

      // the app's DPoP access token is refused at once
      expect(await runInApp(page, (api, url) => api.status(url), `${pod.baseUrl}/`)).toBe(401)
      // and its session cannot be renewed: the silent restore (prompt=none) finds no sign-in
      await page.reload()
      await waitAppReady(page)
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Not logged in')
      expect(await runInApp(page, api => api.info().isLoggedIn)).toBe(false)
    } finally {
      await context.close()
    }
  })

  test('signing another browser out ends its app sessions: the refresh token gets 400 invalid_grant', async () => {
    const client = serveClientIdDocument('HTTP Notes')
    const context = await newContext()
    try {
      const key = await newDpopKey()
      const tokens = await exchangeCode(pod.baseUrl, client, key, await obtainCodeOverHttp(pod.baseUrl, client, new CookieJar(), OWNER_PASSWORD))
      const tab = await appsPanel(context)
      await tab
        .getByRole('cell', { name: /HTTP Notes/ })
        .first()
        .waitFor()
      // the other browser (this HTTP client's sign-in) is the one not marked "this browser"
      tab.once('dialog', d => {
        void d.accept()
      })
      await tab.getByRole('button', { name: /^Sign out (?!.*this browser)/ }).click()
      await tab.getByText(/^Signed out: that browser needs the password again/).waitFor()
      expect(await tab.locator('section[aria-labelledby="app-sessions-h"]').getByText('HTTP Notes').count()).toBe(0)
      const refreshed = await requestTokens(`${pod.baseUrl}/.oidc/token`, key, {
        grant_type: 'refresh_token',
        refresh_token: String(tokens.refresh_token),
        client_id: client.clientId,
      })
      expect(refreshed.status).toBe(400)
      expect((await refreshed.json()).error).toBe('invalid_grant')
    } finally {
      client.stop()
      await context.close()
    }
  })

  test('revoking the app (Inrupt library, dynamic registration) makes its token refused', async () => {
    const context = await newContext()
    try {
      const page = await openApp(context, app)
      await logInThroughApp(page, { pod: pod.baseUrl })
      expect(await runInApp(page, (api, url) => api.status(url), `${pod.baseUrl}/`)).toBe(200)
      // each dynamic registration is a new client: revoke the one this login registered
      const clientId = await runInApp(page, api => api.info().clientAppId)
      expect(clientId).toBeString()
      const tab = await appsPanel(context)
      tab.once('dialog', d => {
        void d.accept()
      })
      await tab.locator('section[aria-labelledby="apps-h"] tr', { hasText: clientId! }).getByRole('button', { name: 'Revoke solopod test app' }).click()
      await tab.getByText(/^Revoked: its tokens are refused/).waitFor()
      expect(await runInApp(page, (api, url) => api.status(url), `${pod.baseUrl}/`)).toBe(401)
      // this browser stays signed in to the dashboard
      expect(await tab.getByText('(this browser)').count()).toBe(1)
    } finally {
      await context.close()
    }
  })
})

describe('approved apps show their logo', () => {
  test("the Client ID Document's logo_uri as an image; an app without one by its name alone", async () => {
    const context = await newContext()
    const plain = serveClientIdDocument('No Logo App')
    try {
      const page = await openApp(context, app)
      await logInThroughApp(page, { pod: pod.baseUrl, how: 'client-id' })
      await obtainCodeOverHttp(pod.baseUrl, plain, new CookieJar(), OWNER_PASSWORD)
      const tab = await appsPanel(context)
      const approved = tab.locator('section[aria-labelledby="apps-h"]')
      const row = approved.locator('tr', { hasText: app.clientId })
      const img = row.locator('img.app-logo')
      await img.waitFor()
      expect(await img.getAttribute('src')).toBe(`${app.origin}/logo.png`)
      expect(await img.getAttribute('referrerpolicy')).toBe('no-referrer')
      await tab.waitForFunction(el => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle())
      expect(await row.textContent()).toContain('solopod test app (Client ID Document)')
      const other = approved.locator('tr', { hasText: 'No Logo App' })
      expect(await other.locator('img').count()).toBe(0)
      expect(await other.textContent()).toContain(plain.clientId)
      await screenshot(tab, 'dashboard-apps-logo-desktop')
      // the page without JavaScript shows it too
      const noScript = await tab.context().newPage()
      await noScript.goto(`${pod.baseUrl}/.admin/sessions`)
      expect(await noScript.locator('tr', { hasText: app.clientId }).locator('img.app-logo').first().getAttribute('src')).toBe(`${app.origin}/logo.png`)
    } finally {
      plain.stop()
      await context.close()
    }
  })
})
