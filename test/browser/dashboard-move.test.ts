// Issue 26, "rename and move files and folders", "select several" and "delete into the trash": the Files
// page's Rename link, the selection's Move selected to… and Delete selected (one question naming how many
// items go), the Trash page's Restore — with JavaScript (Select all, buttons enabled only with something
// ticked) and without.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { makeFolderHere, uploadHere } from './files-page-steps.ts'

let pod: RunningPod
let context: BrowserContext
let noJs: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const home = () => page.goto(a('/.admin/files?path=%2F'))
const notice = (p: Page = page) => p.locator('p.notice').textContent()

const makeFolder = (name: string) => makeFolderHere(page, name)

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  noJs = await newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
  await home()
  await makeFolder('Trip')
  await uploadHere(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('packing list') })
}, HOOK_TIMEOUT)
afterAll(async () => {
  await noJs?.close()
  await context?.close()
  await pod?.dispose()
})

describe('Rename', () => {
  test('the Rename link asks the new name; the folder shows it, and the file reads the same at its new address', async () => {
    await page.getByRole('link', { name: 'Rename or move notes.txt' }).click()
    await page.getByLabel('New name').fill('Packing – list.txt')
    await page.getByRole('button', { name: 'Rename or move' }).click()
    expect(await notice()).toBe('Moved Packing – list.txt here')
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
    expect(await page.getByRole('link', { name: 'notes.txt', exact: true }).count()).toBe(0)
    const body = await page.evaluate(
      async url => (await fetch(url, { credentials: 'same-origin' })).text(),
      a(`/.admin/files/download?path=${encodeURIComponent(`/Trip/${encodeURIComponent('Packing – list.txt')}`)}`),
    )
    expect(body).toBe('packing list')
  })

  test('a name that exists already: the refusal is shown, nothing changes', async () => {
    await home()
    await makeFolder('Old Trips')
    await home()
    await page.getByRole('link', { name: 'Rename or move Trip', exact: true }).click()
    await page.getByLabel('New name').fill('Old Trips')
    await page.getByRole('button', { name: 'Rename or move' }).click()
    expect(await page.locator('#error').textContent()).toBe('already_exists')
    await home()
    expect(await page.getByRole('link', { name: 'Trip/', exact: true }).count()).toBe(1)
  })
})

describe('the selection, with JavaScript', () => {
  test('the buttons wait for a ticked box; Select all ticks every row', async () => {
    await home()
    const del = page.getByRole('button', { name: 'Delete selected' })
    expect(await del.isDisabled()).toBe(true)
    await page.getByRole('checkbox', { name: 'Select Trip' }).check()
    expect(await del.isDisabled()).toBe(false)
    await page.getByRole('checkbox', { name: 'Select all' }).check()
    const boxes = page.locator('input[name=item]')
    expect(await boxes.evaluateAll(all => all.every(b => (b as HTMLInputElement).checked))).toBe(true)
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck()
    expect(await del.isDisabled()).toBe(true)
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-selection')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-selection-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('Move selected to… a folder typed as people name it', async () => {
    await page.goto(a('/.admin/files?path=%2FTrip%2F'))
    await page.getByRole('checkbox', { name: 'Select Packing – list.txt' }).check()
    await page.getByRole('button', { name: 'Move selected to…' }).click()
    await page.getByLabel('To the folder').fill('/Old Trips/')
    await page.getByRole('button', { name: 'Move', exact: true }).click()
    expect(await notice()).toBe('Moved 1 item here')
    expect(await page.locator('h1').textContent()).toBe('Old Trips')
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
  })

  test("Delete selected: one question naming how many items go (the folder's contents counted), then the trash; Restore puts it back", async () => {
    await home()
    await page.getByRole('checkbox', { name: 'Select Old Trips' }).check()
    await page.getByRole('checkbox', { name: 'Select Trip' }).check()
    await page.getByRole('button', { name: 'Delete selected' }).click()
    await page.getByText('Delete 3 items (with what the folders hold)?').waitFor()
    await page.getByRole('button', { name: 'Delete 3 items' }).click()
    expect(await notice()).toBe('Moved 2 items to the trash')
    expect(await page.getByRole('link', { name: 'Old Trips/', exact: true }).count()).toBe(0)
    await page.getByRole('link', { name: 'Trash', exact: true }).click()
    await page.getByRole('row', { name: /Old Trips\// }).waitFor()
    expect(
      await page
        .getByRole('row', { name: /Old Trips\// })
        .locator('td[data-label="Items"]')
        .textContent(),
    ).toBe('2')
    expect(await screenshotBothWidths(page, 'dashboard-trash')).toBe(0)
    await page.getByRole('button', { name: 'Restore Old Trips/' }).click()
    expect(await notice()).toBe('Restored Old Trips')
    await page.getByRole('link', { name: 'Old Trips/', exact: true }).click()
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
  })
})

describe('without JavaScript', () => {
  test('Delete selected with nothing ticked → the error page, 400 nothing_selected', async () => {
    const p = await noJs.newPage()
    await p.goto(a('/.admin/files?path=%2F'))
    const [res] = await Promise.all([p.waitForResponse(r => r.url().includes('/delete-selected')), p.getByRole('button', { name: 'Delete selected' }).click()])
    expect(res.status()).toBe(400)
    expect(await p.locator('#error').textContent()).toBe('nothing_selected')
    await p.close()
  })

  test('a ticked row deleted into the trash, and the single Delete link says where it goes', async () => {
    const p = await noJs.newPage()
    await p.goto(a('/.admin/files?path=%2F'))
    await p.getByRole('link', { name: 'Delete Old Trips', exact: true }).click()
    expect(await p.locator('main').textContent()).toContain('It stays in the trash for 30 days')
    await p.goBack()
    await p.getByRole('checkbox', { name: 'Select Old Trips' }).check()
    await p.getByRole('button', { name: 'Delete selected' }).click()
    await p.getByRole('button', { name: 'Delete 2 items' }).click()
    expect(await notice(p)).toBe('Moved 1 item to the trash')
    await p.goto(a('/.admin/trash'))
    await p.getByRole('button', { name: 'Restore Old Trips/' }).waitFor()
    await p.getByRole('button', { name: 'Restore Trip/' }).waitFor()
    await p.close()
  })
})
