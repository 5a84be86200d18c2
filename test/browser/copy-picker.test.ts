// The dashboard's Copy to…: from the Files page's Copy link a person goes into a folder with the picker and copies the
// file there; the folder opens with the notice and the copy, the original stays. Names with spaces, accents, #, ?, %
// and +. Phone and desktop widths, light and dark.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  horizontalOverflow,
  newContext,
  screenshot,
  screenshotBothWidths,
  signInToDashboard,
  startBrowserPod,
  type RunningPod,
} from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { makeFolderHere, uploadHere } from './files-page-steps.ts'

const ODD = 'Été 2026 #1 ?50% a+b'
const FILE = 'photo #2 100%+? é.txt'
let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path

/** The screen at a common phone's width besides the harness's narrowest (`name`-390.png); the pixels it is too wide. */
async function screenshotAt390(p: Page, name: string): Promise<number> {
  await p.setViewportSize({ width: 390, height: 844 })
  await screenshot(p, `${name}-390`)
  const overflow = await horizontalOverflow(p)
  await p.setViewportSize(DESKTOP)
  return overflow
}

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.goto(a('/.admin/files?path=%2F'))
  await makeFolderHere(page, ODD)
  await makeFolderHere(page, 'Inner')
  await page.goto(a('/.admin/files?path=%2F'))
  await uploadHere(page, { name: FILE, mimeType: 'text/plain', buffer: Buffer.from('a photo') })
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
})

describe('Copy to…', () => {
  test('the Copy link, the picker into a folder, Copy here: that folder opens with the copy and the notice; the original stays', async () => {
    await page.goto(a('/.admin/files?path=%2F'))
    await page.getByRole('link', { name: `Copy ${FILE} to another folder` }).click()
    await page.getByRole('heading', { name: 'Choose a folder' }).waitFor()
    expect(await page.getByLabel('Into the folder').inputValue()).toBe('/')
    await page.getByRole('link', { name: `Open the folder ${ODD}` }).click()
    await page.getByRole('link', { name: 'Open the folder Inner' }).click()
    await page.getByText(`Browsing /${ODD}/Inner/`).waitFor()
    expect(await page.getByLabel('Into the folder').inputValue()).toBe(`/${ODD}/Inner/`)
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'copy-picker')).toBe(0)
    expect(await screenshotAt390(page, 'copy-picker')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'copy-picker-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('button', { name: 'Copy here' }).click()
    expect(await page.locator('p.notice').textContent()).toBe(`Copied ${FILE} here`)
    expect(await page.locator('h1').textContent()).toBe('Inner')
    await page.getByRole('link', { name: FILE, exact: true }).waitFor()
    expect(await screenshotBothWidths(page, 'copy-done')).toBe(0)
    expect(await screenshotAt390(page, 'copy-done')).toBe(0)
    await page.goto(a('/.admin/files?path=%2F'))
    await page.getByRole('link', { name: FILE, exact: true }).waitFor()
  })
})
