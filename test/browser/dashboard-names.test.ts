// Issue 26, "names with a space or an accent": folders and files named as people name them — a space,
// accents, `&`, `#`, `?`, `%` and `+` — open, show their names and share, in the dashboard and without JavaScript.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { makeFolderHere, uploadHere } from './files-page-steps.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
let noJs: BrowserContext
const a = (path: string) => pod.baseUrl + path
const FOLDERS = ['Holiday Photos', 'Ünïcode & spaces', 'a#b?c%d+e']
const FILE = 'café – résumé.txt'

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  // The same session without JavaScript: the pages are the same, the forms plain
  noJs = await newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
}, 60_000)
afterAll(async () => {
  await noJs?.close()
  await context?.close()
  await pod?.dispose()
})

describe('awkward names in the dashboard', () => {
  for (const [script, name] of [...FOLDERS.map(n => [true, n] as const), [false, 'Été sans script & co']] as const) {
    test(`a folder "${name}" ${script ? 'with' : 'without'} JavaScript: made, opened (not 404), named as typed, a file uploaded in it, selected and shared`, async () => {
      const p = script ? page : await noJs.newPage()
      await p.goto(a('/.admin/files?path=%2F'))
      await makeFolderHere(p, name)
      expect(await p.locator('nav[aria-label="Breadcrumbs"]').textContent()).toContain(name)
      await uploadHere(p, { name: FILE, mimeType: 'text/plain', buffer: Buffer.from('hello') })
      expect(await p.locator('p.notice').textContent()).toBe(`Uploaded ${FILE}`)
      await p.getByRole('checkbox', { name: `Select ${FILE}` }).check()
      await p.getByRole('button', { name: 'Move selected to…' }).click()
      await p.getByRole('heading', { name: 'Move 1 item' }).waitFor()
      expect(await p.getByLabel('To the folder').inputValue()).toBe(`/${name}/`)
      await p.goBack()
      await p.getByRole('link', { name: `Share ${FILE}` }).click()
      await p.getByRole('heading', { name: `Who can access /${name}/${FILE}` }).waitFor()
      expect(await p.locator('#status[role="alert"]').count()).toBe(0)
      if (!script) await p.close()
    })
  }

  test("without JavaScript the folder's heading and the share page read as typed", async () => {
    const folder = `/${encodeURIComponent('Holiday Photos')}/`
    await page.goto(a(`/.admin/files?path=${encodeURIComponent(folder)}`))
    expect(await page.locator('h1').textContent()).toBe('Holiday Photos')
    await page.goto(a(`/.admin/share?path=${encodeURIComponent(folder)}`))
    expect(await page.locator('h1').textContent()).toBe('Who can access /Holiday Photos/')
    await page.goto(a(`/.admin/files?path=${encodeURIComponent('/a%23b%3Fc%25d+e/')}`))
    expect(await page.locator('h1').textContent()).toBe('a#b?c%d+e')
    expect(await screenshotBothWidths(page, 'names-folder')).toBe(0)
  })
})
