// What a person sees when a login goes wrong, in Chromium at phone width: a wrong password, a
// refused consent, an interaction that expired, the back button after a login. Each ends on a
// clear page (what happened, what to do), never a stack trace or a dead end.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { openStore } from '../../src/store/open-store.ts'
import { putRecord, readRecords } from '../../src/store/records.ts'
import { HOOK_TIMEOUT, PHONE, horizontalOverflow, newContext, screenshot, startBrowserPod, tabTo, type RunningPod } from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { answerPod, arrive, clickLogIn, openApp, waitLoggedIn } from './app-flow.ts'

// a browser, pods and argon2 password checks on a shared 2-core machine
setDefaultTimeout(30_000)
let pod: RunningPod
let app: TestApp
beforeAll(async () => {
  ;[pod, app] = await Promise.all([startBrowserPod(), startTestApp()])
}, HOOK_TIMEOUT)
afterAll(async () => {
  await app?.stop()
  await pod?.dispose()
}, HOOK_TIMEOUT)

/** A fresh phone-sized browser profile with the app open; closed after `fn`. */
async function onPhone(fn: (page: Page, context: BrowserContext) => Promise<void>, on: TestApp = app): Promise<void> {
  const context = await newContext({ viewport: PHONE })
  try {
    await fn(await openApp(context, on), context)
  } finally {
    await context.close()
  }
}

/** The page explains itself: a heading, readable text, no stack trace, nothing wider than a phone. */
async function expectClearPage(page: Page, shot: string): Promise<string> {
  await screenshot(page, shot)
  const text = (await page.locator('body').innerText()).trim()
  expect(text.length).toBeGreaterThan(40)
  expect(text).not.toMatch(/\n\s+at .+[.:]\d+|\.ts:\d+|TypeError|ReferenceError|Internal Server Error/)
  expect(await horizontalOverflow(page)).toBe(0)
  return text
}

describe('a wrong password', () => {
  test('shows the sign-in page again with the reason; the right password then goes on', async () => {
    await onPhone(async page => {
      await clickLogIn(page, pod.baseUrl)
      expect(await arrive(page, pod.baseUrl)).toBe('login')
      await page.locator('#password').pressSequentially('wrong horse battery staple')
      const next = arrive(page, pod.baseUrl, true)
      await page.keyboard.press('Enter')
      expect(await next).toBe('login')
      const text = await expectClearPage(page, 'error-wrong-password-phone')
      expect(text).toMatch(/the password is wrong/i)
      await answerPod(page, { pod: pod.baseUrl })
      expect(await waitLoggedIn(page)).toBe(`${pod.baseUrl}/profile/card#me`)
    })
  })
})

describe('the same app in another browser', () => {
  // Inrupt's client registers anew at each login; the same metadata is the same client (issue 40), so the app the
  // owner approved in the test above is not asked about again, and Apps and sessions lists it once
  test('is not asked about again: the consent is remembered', async () => {
    await onPhone(async page => {
      await clickLogIn(page, pod.baseUrl)
      await answerPod(page, { pod: pod.baseUrl, consent: 'remembered' })
      expect(await waitLoggedIn(page)).toBe(`${pod.baseUrl}/profile/card#me`)
    })
  })
})

describe('a refused consent', () => {
  // An app the owner approved before is remembered (it registers again as the same client): this one is new
  let fresh: TestApp
  beforeAll(async () => {
    fresh = await startTestApp()
  }, HOOK_TIMEOUT)
  afterAll(() => fresh?.stop(), HOOK_TIMEOUT)

  test('the app learns access_denied and says so; nothing is remembered', async () => {
    await onPhone(async page => {
      await clickLogIn(page, pod.baseUrl)
      await answerPod(page, { pod: pod.baseUrl, consent: 'deny', shots: { consent: 'consent-phone' } })
      expect(new URL(page.url()).origin).toBe(fresh.origin)
      await page.waitForFunction(() => !document.getElementById('error')?.hidden)
      expect(await page.locator('#error').textContent()).toContain('access_denied')
      expect(await page.locator('#status').textContent()).toBe('Not logged in')
      await expectClearPage(page, 'app-after-consent-denied-phone')
      // the next login asks again
      await clickLogIn(page, pod.baseUrl)
      expect(await arrive(page, pod.baseUrl)).toBe('consent')
    }, fresh)
  })
})

describe('an interaction that expired', () => {
  test('typing the password after ten minutes ends on a page that says to start again from the app', async () => {
    await onPhone(async page => {
      await clickLogIn(page, pod.baseUrl)
      expect(await arrive(page, pod.baseUrl)).toBe('login')
      await ageInteractions(pod)
      await page.locator('#password').pressSequentially('correct horse battery staple')
      const next = arrive(page, pod.baseUrl, true)
      await page.keyboard.press('Enter')
      await next
      const text = await expectClearPage(page, 'error-interaction-expired-phone')
      expect(text).toContain('go back to the application and sign in again')
      expect(await page.locator('#error').textContent()).toBe('interaction_expired')
    })
  })
})

describe('the back button after a login', () => {
  test("going back to the pod's pages says the sign-in is over and links back to the app, which is still logged in", async () => {
    await onPhone(async page => {
      await clickLogIn(page, pod.baseUrl)
      await answerPod(page, { pod: pod.baseUrl })
      const webId = await waitLoggedIn(page)
      const res = await page.goBack({ waitUntil: 'domcontentloaded' })
      expect(new URL(page.url()).origin).toBe(pod.baseUrl)
      expect(res?.status()).toBe(200)
      const text = await expectClearPage(page, 'back-after-login-phone')
      expect(text).toContain('This sign-in is already over')
      // not a dead end: the link (reached by keyboard) leads back to the app, still logged in
      await tabTo(page, 'a[href]')
      await page.keyboard.press('Enter')
      await page.waitForURL(`${app.origin}/`)
      expect(await waitLoggedIn(page)).toBe(webId)
    })
  })
})

/** Ten minutes pass for the pod's pending sign-ins: their records expire (the pod is stopped meanwhile). */
async function ageInteractions(p: RunningPod): Promise<void> {
  await p.stop()
  const store = await openStore(p.dataDir)
  try {
    for (const { key, value } of await readRecords<{ createdAt: number }>(store, 'interaction', 0)) {
      await putRecord(store, 'interaction', key, { ...value, createdAt: value.createdAt - 11 * 60_000 }, Date.now() - 60_000)
    }
  } finally {
    await store.close()
  }
  await p.restart()
}
