// Scripts and bots in the dashboard's Apps panel, in headless Chromium (issue 24): the owner makes a client
// credential limited to a folder with spaces and accents, sees its secret once, a script uses it (the list says
// when), and removing it (after a confirm) makes the script refused. Screenshots:
// test-artifacts/browser/dashboard-scripts-and-bots-{made,listed}-{desktop,phone}.png.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { unlabelledControls } from './page-checks.ts'
import { FORM, dpopProof, newDpopKey } from '../op/op-fixture.ts'

setDefaultTimeout(30_000)
let pod: RunningPod
let context: BrowserContext
let page: Page
beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
}, HOOK_TIMEOUT)
afterAll(async () => { await context?.close(); await pod?.dispose() }, HOOK_TIMEOUT)

async function tokenStatus(id: string, secret: string): Promise<number> {
  const url = `${pod.baseUrl}/.oidc/token`
  const res = await fetch(url, {
    method: 'POST', body: 'grant_type=client_credentials',
    headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${id}:${secret}`)}`, dpop: await dpopProof(await newDpopKey(), 'POST', url, Date.now()) },
  })
  return res.status
}

describe('Scripts and bots in the Apps panel', () => {
  let id = ''
  let secret = ''

  test('making a credential for one folder shows its secret once, with the folder in words', async () => {
    await page.goto(`${pod.baseUrl}/.admin/#/apps`)
    const section = page.locator('#scripts-and-bots')
    await section.getByRole('heading', { name: 'Scripts and bots' }).waitFor()
    await section.getByText('No client credentials yet').waitFor()
    await section.getByLabel('Name', { exact: true }).fill('Photo backup')
    await section.getByLabel('Folder 1', { exact: true }).fill('/Été photos/')
    await section.getByRole('button', { name: 'Make credential' }).click()
    const shown = await page.locator('#new-credential pre').textContent()
    const m = /client_id=(\S+)\nclient_secret=(\S+)/.exec(shown ?? '')
    id = m?.[1] ?? ''
    secret = m?.[2] ?? ''
    expect(id).toStartWith('script-')
    expect(secret).toHaveLength(43)
    await page.locator('#credentials-table').getByText('only to read and write /Été photos/').waitFor()
    expect(await unlabelledControls(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-scripts-and-bots-made')).toBe(0)
  })

  test('the list says when it was last used, and shows the secret no more', async () => {
    expect(await tokenStatus(id, secret)).toBe(200)
    await page.reload()
    const row = page.locator('#credentials-table tr', { hasText: 'Photo backup' })
    await row.waitFor()
    expect(await row.locator('td[data-label="Last used"]').textContent()).not.toBe('never')
    expect(await page.content()).not.toContain(secret)
    expect(await screenshotBothWidths(page, 'dashboard-scripts-and-bots-listed')).toBe(0)
  })

  test('Remove asks first, then the credential gets no token (401 invalid_client)', async () => {
    page.once('dialog', (d) => { expect(d.message()).toContain('Its tokens are refused'); void d.accept() })
    await page.getByRole('button', { name: 'Remove Photo backup' }).click()
    await page.getByText('Removed Photo backup').waitFor()
    await page.locator('#scripts-and-bots').getByText('No client credentials yet').waitFor()
    expect(await tokenStatus(id, secret)).toBe(401)
  })
})
