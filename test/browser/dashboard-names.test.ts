// Issue 26, "names with a space or an accent": folders and files named as people name them — a space,
// accents, `&`, `#`, `?`, `%` and `+` — open, show their names and share, in the dashboard and without JavaScript.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newContext, screenshot, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const FOLDERS = ['Holiday Photos', 'Ünïcode & spaces', 'a#b?c%d+e']
const FILE = 'café – résumé.txt'

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
}, 60_000)
afterAll(async () => { await context?.close(); await pod?.dispose() })

describe('awkward names in the dashboard', () => {
  for (const name of FOLDERS) {
    test(`a folder "${name}": made, opened (not 404), named as typed, and a file in it shared`, async () => {
      await page.goto(a('/.admin/#/files/'))
      await page.getByLabel('Folder name').fill(name)
      await page.getByRole('button', { name: 'Create folder' }).click()
      await page.getByRole('heading', { name, exact: true }).waitFor()
      expect(await page.locator('nav[aria-label="Breadcrumbs"]').textContent()).toContain(name)
      await page.locator('#upload-file').setInputFiles({ name: FILE, mimeType: 'text/plain', buffer: Buffer.from('hello') })
      await page.getByRole('button', { name: 'Upload', exact: true }).click()
      await page.getByRole('link', { name: FILE, exact: true }).waitFor()
      await page.getByRole('link', { name: `Share ${FILE}` }).click()
      await page.getByRole('heading', { name: `Who can access /${name}/${FILE}` }).waitFor()
      expect(await page.locator('#status[role="alert"]').count()).toBe(0)
    })
  }

  test('without JavaScript the folder\'s heading and the share page read as typed', async () => {
    const folder = `/${encodeURIComponent('Holiday Photos')}/`
    await page.goto(a(`/.admin/files?path=${encodeURIComponent(folder)}`))
    expect(await page.locator('h1').textContent()).toBe('Holiday Photos')
    await page.goto(a(`/.admin/share?path=${encodeURIComponent(folder)}`))
    expect(await page.locator('h1').textContent()).toBe('Who can access /Holiday Photos/')
    await screenshot(page, 'names-share-nojs')
  })
})
