// The pod's own forms (setup, sign-in) filled in headless Chromium as a person does: the browser's
// real POST (its Origin header under the page's referrer policy) must pass the CSRF check.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page, Request as BrowserRequest } from 'playwright-core'
import {
  HOOK_TIMEOUT,
  OWNER_PASSWORD,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  setupLink,
  startBrowserPod,
  tabTo,
  type RunningPod,
} from './harness.ts'

// a browser, pods and argon2 password checks on a shared 2-core machine
setDefaultTimeout(30_000)
let pod: RunningPod
beforeAll(async () => {
  pod = await startBrowserPod({ withoutPassword: true })
}, HOOK_TIMEOUT)
afterAll(() => pod?.dispose())

/** The Origin header of every form POST the page sends to the pod. */
function recordPostOrigins(page: Page): (string | null)[] {
  const origins: (string | null)[] = []
  page.on('request', (r: BrowserRequest) => {
    if (r.method() === 'POST' && r.url().startsWith(pod.baseUrl)) origins.push(r.headers()['origin'] ?? null)
  })
  return origins
}

describe('owner pages in a real browser (issue 8: Origin of same-origin form posts)', () => {
  test('the setup link sets the password by typing and clicking, at phone width', async () => {
    const context = await newContext({ viewport: PHONE })
    try {
      const page = await context.newPage()
      const origins = recordPostOrigins(page)
      await page.goto(await setupLink(pod))
      await screenshot(page, 'setup-phone')
      expect(await horizontalOverflow(page)).toBe(0)
      await page.locator('#password').pressSequentially(OWNER_PASSWORD)
      await page.locator('#confirm').fill(OWNER_PASSWORD)
      await page.getByRole('button', { name: 'Set password' }).click()
      expect(await page.locator('h1').textContent()).toBe('Password set')
      await screenshot(page, 'setup-done-phone')
      // Fetch "append a request Origin header": under no-referrer this would be "null"
      expect(origins).toEqual([pod.baseUrl])
    } finally {
      await context.close()
    }
  })

  test('a wrong password shows the sign-in page again with the reason', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${pod.baseUrl}/.oidc/login?return=/.admin/sessions`)
      await page.locator('#password').fill('not the password at all')
      await page.keyboard.press('Enter')
      await page.waitForLoadState()
      expect(await page.locator('.error').textContent()).toContain('The password is wrong')
      await screenshot(page, 'login-wrong-password')
    } finally {
      await context.close()
    }
  })

  test('the owner signs in with the keyboard only and lands on the sessions page', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const origins = recordPostOrigins(page)
      await page.goto(`${pod.baseUrl}/.oidc/login?return=/.admin/sessions`)
      await screenshot(page, 'login')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('password') // autofocus
      await page.keyboard.type(OWNER_PASSWORD)
      await tabTo(page, 'button[type="submit"]')
      await page.keyboard.press('Enter')
      await page.waitForURL(`${pod.baseUrl}/.admin/sessions`)
      expect(await page.locator('h1').textContent()).toBe('Apps and sessions')
      expect(origins).toEqual([pod.baseUrl])
      await screenshot(page, 'sessions')
    } finally {
      await context.close()
    }
  })

  test('every page says referrer policy same-origin, in the header and the <meta>', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const res = await page.goto(`${pod.baseUrl}/.oidc/login`)
      expect(res?.headers()['referrer-policy']).toBe('same-origin')
      expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe('same-origin')
    } finally {
      await context.close()
    }
  })
})
