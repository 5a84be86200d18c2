// Issue 40, "Move offers a folder picker": on the Rename or move page a person goes into a folder and up with plain
// links, the name they typed kept on the way (the script), and moves there; without JavaScript the links work the
// same. Phone and desktop widths, light and dark.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { makeFolderHere, uploadHere } from './files-page-steps.ts'

const ODD = 'Été 2026 #1 ?50% a+b'
let pod: RunningPod
let context: BrowserContext
let noJs: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const notice = (p: Page) => p.locator('p.notice').textContent()

/** A folder made in `folder` (the page then shows the new folder). */
async function makeFolder(p: Page, folder: string, name: string) {
  await p.goto(a(`/.admin/files?path=${encodeURIComponent(folder)}`))
  await makeFolderHere(p, name)
}

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  noJs = await newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
  await makeFolder(page, '/', ODD)
  await makeFolder(page, '/', 'Plain')
  await page.goto(a('/.admin/files?path=%2F'))
  await uploadHere(page, { name: 'photo.txt', mimeType: 'text/plain', buffer: Buffer.from('a photo') })
  await makeFolder(page, `/${encodeURIComponent(ODD)}/`, 'Inner')
}, HOOK_TIMEOUT)
afterAll(async () => {
  await noJs?.close()
  await context?.close()
  await pod?.dispose()
})

describe('with JavaScript', () => {
  test('go into the odd folder and up again, the typed name kept; the field names the folder decoded', async () => {
    await page.goto(a('/.admin/files?path=%2F'))
    await page.getByRole('link', { name: 'Rename or move photo.txt' }).click()
    await page.getByRole('heading', { name: 'Choose a folder' }).waitFor()
    await page.getByLabel('New name').fill('Photo + 1%.txt')
    await page.getByRole('link', { name: `Open the folder ${ODD}` }).click()
    await page.getByRole('link', { name: 'Open the folder Inner' }).waitFor()
    expect(await page.getByLabel('In the folder').inputValue()).toBe(`/${ODD}/`)
    expect(await page.getByLabel('New name').inputValue()).toBe('Photo + 1%.txt')
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'move-picker')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'move-picker-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('link', { name: 'Up to /' }).click()
    await page.getByRole('link', { name: 'Open the folder Plain' }).waitFor()
    expect(await page.getByLabel('In the folder').inputValue()).toBe('/')
    await page.getByRole('link', { name: `Open the folder ${ODD}` }).click()
    await page.getByRole('link', { name: 'Open the folder Inner' }).click()
    expect(await page.getByLabel('In the folder').inputValue()).toBe(`/${ODD}/Inner/`)
    await page.getByRole('button', { name: 'Rename or move' }).click()
    expect(await notice(page)).toBe('Moved Photo + 1%.txt here')
    expect(await page.locator('h1').textContent()).toBe('Inner')
    await page.getByRole('link', { name: 'Photo + 1%.txt', exact: true }).waitFor()
  })

  test('a folder is not offered as a place for itself: moving it into its own folder is refused', async () => {
    await page.goto(a('/.admin/files?path=%2F'))
    await page.getByRole('link', { name: `Rename or move ${ODD}`, exact: true }).click()
    await page.getByText(`${ODD}/ (being moved)`).waitFor()
    expect(await page.getByRole('link', { name: `Open the folder ${ODD}` }).count()).toBe(0)
    await page.getByLabel('In the folder').fill(`/${ODD}/Inner/`)
    const [res] = await Promise.all([page.waitForResponse(r => r.request().method() === 'POST'), page.getByRole('button', { name: 'Rename or move' }).click()])
    expect(res.status()).toBe(400)
    expect(await page.locator('#error').textContent()).toBe('move_into_itself')
  })
})

describe('without JavaScript', () => {
  test('the picker links and the form move the file back to the top', async () => {
    const p = await noJs.newPage()
    await p.goto(a(`/.admin/files?path=${encodeURIComponent(`/${encodeURIComponent(ODD)}/Inner/`)}`))
    await p.getByRole('link', { name: 'Rename or move Photo + 1%.txt' }).click()
    await p.getByRole('link', { name: `Up to /${ODD}/` }).click()
    await p.getByRole('link', { name: 'Up to /' }).click()
    await p.getByRole('link', { name: 'Open the folder Plain' }).click()
    expect(await p.getByLabel('In the folder').inputValue()).toBe('/Plain/')
    await p.getByRole('button', { name: 'Rename or move' }).click()
    expect(await notice(p)).toBe('Moved Photo + 1%.txt here')
    expect(await p.locator('h1').textContent()).toBe('Plain')
    await p.close()
  })
})
