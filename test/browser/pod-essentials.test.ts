// The audit's path to a dead WebID, in headless Chromium: the owner deletes /profile/card in the dashboard,
// then saves the profile. The delete page says why it cannot be, and a Delete sent anyway is refused; the Save keeps the card
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
  test('Delete on /profile/card says why it cannot be, instead of asking; a Delete sent anyway is refused; the card stays', async () => {
    await signInToDashboard(page, pod.baseUrl)
    // exact: the header's "Signed in as …/profile/card#me" link holds the words too (a different name, not a duplicate)
    await page.getByRole('link', { name: 'profile/', exact: true }).click()
    await page.getByRole('link', { name: 'Delete card', exact: true }).click()
    // no question whose Delete cannot work, then "Something went wrong … correct what the message says": the reason at once
    await page.getByRole('heading', { name: 'card cannot be deleted' }).waitFor()
    expect(await page.locator('#undeletable').textContent()).toContain('WebID document')
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0)
    await screenshot(page, 'essentials-delete-refused')
    await page.screenshot({ path: '/tmp/solopod-essentials-delete-refused.png' })
    // the folder that holds it says the same
    await page.goto(`${pod.baseUrl}/.admin/delete?path=${encodeURIComponent('/profile/')}`)
    await page.getByRole('heading', { name: 'profile cannot be deleted' }).waitFor()
    // the form's POST, sent anyway, is still refused by the layer
    const refused = await page.evaluate(async () => {
      const csrf = document.querySelector<HTMLInputElement>('input[name=csrf]')?.value ?? document.getElementById('dashboard')?.dataset.csrf ?? ''
      const res = await fetch('/.admin/delete', { method: 'POST', body: new URLSearchParams({ csrf, path: '/profile/card' }) })
      return res.status
    })
    expect(refused).toBe(409)
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
