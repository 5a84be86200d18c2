// Scripts and bots (/.admin/credentials), in headless Chromium (issue 24): the owner makes a client credential
// limited to a folder with spaces and accents, sees its secret once, a script uses it (the list says when), and
// removing it (after a confirm with the script; a plain post without) makes the script refused. Screenshots:
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
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

async function tokenStatus(id: string, secret: string): Promise<number> {
  const url = `${pod.baseUrl}/.oidc/token`
  const res = await fetch(url, {
    method: 'POST',
    body: 'grant_type=client_credentials',
    headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${id}:${secret}`)}`, dpop: await dpopProof(await newDpopKey(), 'POST', url, Date.now()) },
  })
  return res.status
}

describe('Scripts and bots', () => {
  let id = ''
  let secret = ''

  test('making a credential for one folder shows its secret once, with the folder in words', async () => {
    await page.goto(`${pod.baseUrl}/.admin/credentials`)
    await page.getByRole('heading', { name: 'Scripts and bots' }).waitFor()
    await page.getByText('No client credentials yet').waitFor()
    await page.getByLabel(/^Name/).fill('Photo backup')
    await page.getByLabel(/Allow access only to/).check()
    await page.getByLabel('Another folder').fill('/Été photos/')
    await page.getByRole('button', { name: 'Make credential' }).click()
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
    // The page anew (a reload would post the form again)
    await page.goto(`${pod.baseUrl}/.admin/credentials`)
    const row = page.locator('#credentials-table tr', { hasText: 'Photo backup' })
    await row.waitFor()
    expect(await row.locator('td[data-label="Last used"]').textContent()).not.toBe('never')
    expect(await page.content()).not.toContain(secret)
    expect(await screenshotBothWidths(page, 'dashboard-scripts-and-bots-listed')).toBe(0)
  })

  test("connecting a phone or computer: the address with a Copy button, the user name and password, each system's steps", async () => {
    await page.goto(`${pod.baseUrl}/.admin/credentials`)
    const section = page.locator('#connect-drive')
    await section.getByRole('heading', { name: 'Connect a phone or computer' }).waitFor()
    expect(await section.getByRole('textbox', { name: 'Address of your pod' }).inputValue()).toBe(`${pod.baseUrl}/`)
    await section.getByRole('button', { name: 'Copy address of your pod' }).waitFor()
    const text = (await section.textContent()) ?? ''
    for (const words of ['iPhone or iPad', 'Android', 'Mac', 'Windows', 'rclone', 'client_id', 'client_secret']) expect(text).toContain(words)
    expect(text).toContain(`rclone config create pod webdav url=${pod.baseUrl}/`)
    expect(await unlabelledControls(page)).toEqual([])
    await section.scrollIntoViewIfNeeded()
    expect(await screenshotBothWidths(page, 'dashboard-scripts-and-bots-connect-drive')).toBe(0)
  })

  test('Remove asks first: answered no, nothing is removed; yes, the credential gets no token (401 invalid_client)', async () => {
    page.once('dialog', d => {
      expect(d.message()).toContain('Its tokens are refused')
      void d.dismiss()
    })
    await page.getByRole('button', { name: 'Remove Photo backup' }).click()
    await page.waitForTimeout(300)
    expect(await tokenStatus(id, secret)).toBe(200)
    page.once('dialog', d => {
      void d.accept()
    })
    await page.getByRole('button', { name: 'Remove Photo backup' }).click()
    await page.getByText('Credential removed: its tokens are refused from now on').waitFor()
    await page.getByText('No client credentials yet').waitFor()
    expect(await tokenStatus(id, secret)).toBe(401)
  })

  test('without JavaScript: made and removed by plain posts', async () => {
    const plain = await newContext({ javaScriptEnabled: false })
    try {
      const p = await plain.newPage()
      await signInToDashboard(p, pod.baseUrl)
      await p.goto(`${pod.baseUrl}/.admin/credentials`)
      await p.getByLabel(/^Name/).fill('Nightly & #1')
      await p.getByLabel('Another folder').fill('/Bills #2 & 50% +tax?/')
      await p.getByRole('button', { name: 'Make credential' }).click()
      await p.locator('#credentials-table').getByText('only to read and write /Bills #2 & 50% +tax?/').waitFor()
      const m = /client_id=(\S+)\nclient_secret=(\S+)/.exec((await p.locator('#new-credential pre').textContent()) ?? '')
      expect(await tokenStatus(m![1]!, m![2]!)).toBe(200)
      // The drive's address is there to select and copy by hand
      expect(await p.getByRole('textbox', { name: 'Address of your pod' }).inputValue()).toBe(`${pod.baseUrl}/`)
      expect(await p.getByRole('button', { name: /^Copy/ }).count()).toBe(0)
      await p.getByRole('button', { name: 'Remove Nightly & #1' }).click()
      await p.getByText('Credential removed').waitFor()
      expect(await tokenStatus(m![1]!, m![2]!)).toBe(401)
    } finally {
      await plain.close()
    }
  })
})
