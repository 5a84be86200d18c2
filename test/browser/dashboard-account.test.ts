// The owner's account in the dashboard (issue 26): a picture uploaded from a file and the name saved show in
// the header instead of the WebID; the password changed (a wrong current one refused at its field) signs out
// the other browser and not this one; Sign out ends this browser's login. Screenshots at desktop and phone width.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  OWNER_PASSWORD,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  signInAsOwner,
  signInToDashboard,
  startBrowserPod,
  type RunningPod,
} from './harness.ts'
import { drawPicture } from './drawn-picture.ts'

setDefaultTimeout(60_000)

const NEW_PASSWORD = 'a new and longer password'
let pod: RunningPod
/** This browser (`page`) and another one (`other`), each with the owner signed in. */
let browsers: BrowserContext[] = []
let page: Page
let other: Page

beforeAll(async () => {
  pod = await startBrowserPod()
  browsers = await Promise.all([newContext({ viewport: DESKTOP }), newContext({ viewport: DESKTOP })])
  ;[page, other] = (await Promise.all(browsers.map(b => b.newPage()))) as [Page, Page]
  await signInToDashboard(page, pod.baseUrl)
  await signInToDashboard(other, pod.baseUrl)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await Promise.all(browsers.map(b => b.close()))
  await pod?.dispose()
}, HOOK_TIMEOUT)

describe('the profile in the dashboard', () => {
  test('a name saved and a picture uploaded show in the header instead of the WebID', async () => {
    await page.goto(`${pod.baseUrl}/.admin/profile`)
    await page.getByLabel('Name').fill('Alice Liddell')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Profile saved').waitFor()
    expect(await page.locator('#who-name').textContent()).toBe('Alice Liddell')
    const bytes = await drawPicture(page, { width: 120, height: 120, color: '#c2410c', text: 'AL', font: 'bold 56px sans-serif' })
    await page.getByLabel(/Picture file/).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(bytes) })
    await page.getByRole('button', { name: 'Upload picture' }).click()
    await page.getByText('Picture saved').waitFor()
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('#who-picture')
      return img !== null && img.complete && img.naturalWidth === 120
    })
    // After a reload the server draws the same header
    await page.reload()
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('#who-picture')
      return img !== null && img.complete && img.naturalWidth === 120
    })
    expect(await page.locator('header').textContent()).toContain('Signed in as Alice Liddell')
    expect(await page.locator('header').textContent()).not.toContain('/profile/card#me')
    // Anyone may see the picture
    expect((await fetch(`${pod.baseUrl}/profile/picture.png`)).status).toBe(200)
    await screenshot(page, 'account-header')
    await page.setViewportSize(PHONE)
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'account-header-phone')
    await page.setViewportSize(DESKTOP)
  })

  test('a wrong current password is refused at its field; the right one changes it and signs out the other browser only', async () => {
    await page.goto(`${pod.baseUrl}/.admin/profile`)
    await page.getByLabel('Current password').fill('not my password')
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('New password again').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    const refusal = page.locator('#password-current-error')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain('wrong_current_password')
    await screenshot(page, 'account-password-refused')
    // The form comes back with the problem at its field; the passwords are typed again
    expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Current password').fill(OWNER_PASSWORD)
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('New password again').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Password changed. Signed out in 1 other browser.').waitFor()
    await screenshot(page, 'account-password-changed')
    // This browser is still signed in; the other one is sent to the login page, where the new password works
    await page.reload()
    await page.locator('#who-name').waitFor()
    await other.goto(`${pod.baseUrl}/.admin/`)
    await other.waitForURL(/\/\.oidc\/login/)
    await signInAsOwner(other, NEW_PASSWORD)
    await other.waitForURL(`${pod.baseUrl}/.admin/`)
  })

  test("Sign out in the header ends this browser's login", async () => {
    await page.goto(`${pod.baseUrl}/.admin/`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Signed out' }).waitFor()
    await page.goto(`${pod.baseUrl}/.admin/`)
    await page.waitForURL(/\/\.oidc\/login/)
  })
})
