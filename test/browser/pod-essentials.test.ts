// The audit's path to a dead WebID, in headless Chromium: the owner deletes /profile/card in the dashboard,
// then saves the profile. The delete is refused with a message the owner sees; the Save keeps the card
// usable (public, solid:oidcIssuer, pim:storage). Screenshot: test-artifacts/browser/essentials-delete-refused.png
// (and /tmp/solopod-essentials-delete-refused.png).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'
import { hasTriple, parseTurtle } from '../rs/rs-helpers.ts'

setDefaultTimeout(30_000)

let pod: RunningPod
let context: BrowserContext
let page: Page
beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
})

/** The card as anyone (an app, another pod) reads it: status, and whether it names the issuer and storage. */
async function publicCard() {
  const res = await fetch(`${pod.baseUrl}/profile/card`, { headers: { accept: 'text/turtle' } })
  const quads = res.ok ? parseTurtle(await res.text(), `${pod.baseUrl}/profile/card`) : []
  const webid = `${pod.baseUrl}/profile/card#me`
  return {
    status: res.status,
    issuer: hasTriple(quads, webid, 'http://www.w3.org/ns/solid/terms#oidcIssuer', pod.baseUrl),
    storage: hasTriple(quads, webid, 'http://www.w3.org/ns/pim/space#storage', `${pod.baseUrl}/`),
    name: quads.find(q => q.subject.value === webid && q.predicate.value === 'http://xmlns.com/foaf/0.1/name')?.object.value,
  }
}

describe("the dashboard cannot destroy the owner's identity", () => {
  test('Delete on /profile/card is refused with a message on the screen, and the card stays', async () => {
    await signInToDashboard(page, pod.baseUrl)
    // exact: the header's "Signed in as …/profile/card#me" link holds the words too (a different name, not a duplicate)
    await page.getByRole('link', { name: 'profile/', exact: true }).click()
    await page.getByRole('link', { name: 'Delete card', exact: true }).click()
    const [res] = await Promise.all([
      page.waitForResponse(r => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Delete', exact: true }).click(),
    ])
    expect(res.status()).toBe(409)
    expect(await page.locator('#error').textContent()).toBe('protected_resource')
    const alert = page.getByRole('alert')
    expect(await alert.textContent()).toContain('WebID document')
    await screenshot(page, 'essentials-delete-refused')
    await page.screenshot({ path: '/tmp/solopod-essentials-delete-refused.png' })
    expect(await publicCard()).toEqual({ status: 200, issuer: true, storage: true, name: undefined })
  })

  test('Profile → Save then leaves the card public, with its issuer and storage', async () => {
    await page.goto(`${pod.baseUrl}/.admin/profile`)
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Profile saved').waitFor()
    expect(await publicCard()).toEqual({ status: 200, issuer: true, storage: true, name: 'Ada Lovelace' })
  })
})
