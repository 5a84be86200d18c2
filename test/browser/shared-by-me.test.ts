// Issue 40, "Shared by me" and "names by person": one page lists what the owner shared in Sharing, by link and by
// grant, with whom — a person by their profile's name, the WebID one click away — and takes each back. Over https
// (grants name the pod by https), phone and desktop widths, light and dark.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures } from './page-checks.ts'
import { makeLocalhostCertificate } from '../e2e/tls-cert.ts'

const ODD = 'Été 2026 #1 ?50% a+b'
const BOB_NAME = 'Bób Martin'
/** Grants name agents by https: Carol's profile is never reached here, so she stays her WebID. */
const CAROL = 'https://carol.example/profile/card#me'
let dir: string
let pod: RunningPod
let bobSite: ReturnType<typeof Bun.serve>
let bob = ''
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const folder = `/${encodeURIComponent(ODD)}/`

/** A form of the dashboard posted from the page, as its own forms post (same origin, the session's CSRF token). */
async function post(route: string, fields: Record<string, string>): Promise<number> {
  return page.evaluate(
    async ({ route, fields }) => {
      const { token } = await (await fetch('/.admin/api/csrf')).json()
      const res = await fetch(route, { method: 'POST', body: new URLSearchParams({ csrf: token, ...fields }), redirect: 'manual' })
      return res.type === 'opaqueredirect' ? 303 : res.status
    },
    { route, fields },
  )
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-browser-shared-'))
  // Bob's profile on his own (loopback) server: the pod reads his name through its guarded fetcher
  bobSite = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response(`<#me> a <http://xmlns.com/foaf/0.1/Person>; <http://xmlns.com/foaf/0.1/name> "${BOB_NAME}".`, {
        headers: { 'content-type': 'text/turtle' },
      }),
  })
  bob = `http://localhost:${bobSite.port}/profile/card#me`
  pod = await startBrowserPod({ tls: makeLocalhostCertificate(dir), extraArgs: ['--allow-insecure-local'] })
  context = await newContext({ ignoreHTTPSErrors: true })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.goto(a('/.admin/files?path=%2F'))
  await page.getByLabel('Folder name').fill(ODD)
  await page.getByRole('button', { name: 'Create folder' }).click()
  await page.getByText(`Created the folder ${ODD}`).waitFor()
  expect(await post('/.admin/share/add', { path: folder, version: '', kind: 'agent', value: bob, read: 'yes', scope: 'both' })).toBe(303)
  expect(await post('/.admin/links/add', { path: folder, allows: 'read', expires: '7d', name: 'For the family' })).toBe(200)
  const grant = await page.evaluate(
    async ({ base, folder, carol }) => {
      const { token } = await (await fetch('/.admin/api/csrf')).json()
      const res = await fetch('/.admin/api/grants', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({
          grantee: carol,
          grantedBy: `${base}/profile/card#me`,
          dataOwner: `${base}/profile/card#me`,
          registeredShapeTree: 'https://shapes.example/trees#Photo',
          hasDataRegistration: `${base}${folder}`,
          hasStorage: `${base}/`,
          scopeOfGrant: 'http://www.w3.org/ns/solid/interop#AllFromRegistry',
          accessMode: ['http://www.w3.org/ns/auth/acl#Read'],
        }),
      })
      return res.status
    },
    { base: pod.baseUrl, folder, carol: CAROL },
  )
  expect(grant).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  bobSite?.stop(true)
  await pod?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** The page once Bob's name has been read (the page never waits for it: it shows on a later visit). */
async function openSharedByMe(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await page.goto(a('/.admin/shared'))
    if ((await page.getByRole('link', { name: BOB_NAME }).count()) >= 1) return
    await page.waitForTimeout(250)
  }
  throw new Error(`${BOB_NAME} never appeared on Shared by me`)
}

describe('Shared by me', () => {
  test('lists the Sharing rule (Bob by name, his WebID one click away), the link and the grant', async () => {
    await openSharedByMe()
    // the pod's own public rules (the profile, the keys) are listed too: the one of the odd folder is Bob's
    const rule = page.locator('#shared-rules tbody tr', { hasText: ODD })
    expect(await rule.count()).toBe(1)
    expect(await rule.locator('td[data-label="What"]').textContent()).toBe(`/${ODD}/`)
    expect(await rule.getByRole('link', { name: BOB_NAME }).getAttribute('href')).toBe(bob)
    expect(await rule.locator('td[data-label="May"]').textContent()).toBe('read it and what is inside')
    expect(await page.locator('#links-h + * tbody tr, #links-h ~ div tbody tr').count()).toBe(1)
    expect(await page.locator('main').textContent()).toContain('For the family')
    const grant = page.locator('#shared-grants tbody tr')
    expect(await grant.count()).toBe(1)
    expect(await grant.locator('td[data-label="With"]').textContent()).toBe(CAROL)
    expect(await grant.locator('td[data-label="What"]').textContent()).toBe(`/${ODD}/`)
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'shared-by-me')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'shared-by-me-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('Revoke the grant and Remove the link (each asked first): each is gone from the page', async () => {
    await openSharedByMe()
    page.once('dialog', d => void d.accept())
    await page.getByRole('button', { name: `Revoke the grant for ${CAROL} on /${ODD}/` }).click()
    expect(await page.locator('p.notice').textContent()).toBe('Grant revoked: the access ends with the next request')
    // back on Shared by me, not the Grants page: the owner going down the list stays on it
    await page.getByRole('heading', { name: 'Shared by me' }).waitFor()
    await page.getByText('No access grants.').waitFor()
    // asked first too: a removed link cannot be made again
    page.once('dialog', d => void d.accept())
    await page.getByRole('button', { name: 'Remove link For the family' }).click()
    expect(await page.locator('p.notice').textContent()).toBe('Link removed: it opens nothing from now on')
    await page.getByRole('heading', { name: 'Shared by me' }).waitFor()
    await page.getByText('No share links.').waitFor()
    expect(await page.getByText('No access grants.').count()).toBe(1)
  })

  test("Change or remove leads to the item's sharing page, where Bob's access is removed; the page then has nothing left", async () => {
    await page.getByRole('link', { name: `Change or remove access to /${ODD}/` }).click()
    await page.getByRole('heading', { name: `Who can access /${ODD}/` }).waitFor()
    await page
      .getByRole('button', { name: new RegExp(`^Remove .*${bob.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`) })
      .first()
      .click()
    await page.goto(a('/.admin/shared'))
    expect(await page.locator('#shared-rules tbody tr', { hasText: ODD }).count()).toBe(0)
  })
})
