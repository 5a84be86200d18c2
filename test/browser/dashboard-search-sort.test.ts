// Issue 40, "Find and order": the Files page's search box (results with decoded paths, each a link that opens it)
// and its order (name, date, size, type; changed at once with the script, remembered on the next visit), at desktop
// and phone widths, light and dark.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { makeFolderHere, uploadHere } from './files-page-steps.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const rows = () => page.locator('input[name=item]').evaluateAll(all => all.map(b => decodeURIComponent((b as HTMLInputElement).value)))

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.goto(a('/.admin/files?path=%2F'))
  await makeFolderHere(page, 'Été 2026')
  for (const [name, type, bytes] of [
    ['plage #1.jpg', 'image/jpeg', 3000],
    ['carnet de route.txt', 'text/plain', 10],
    ['budget 100% + extras.csv', 'text/csv', 500],
  ] as const) {
    await uploadHere(page, { name, mimeType: type, buffer: Buffer.alloc(bytes, 120) })
  }
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
})

describe('search by name', () => {
  test('"ete" finds the folder Été 2026, "PLAGE" the photo in it, shown decoded; the result opens it', async () => {
    await page.goto(a('/.admin/files?path=%2F'))
    await page.getByRole('searchbox', { name: 'Search your pod by name' }).fill('ete')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByRole('heading', { name: 'Search: ete' }).waitFor()
    expect(await page.locator('ul.search-results a').first().textContent()).toBe('Été 2026/')
    await page.getByRole('searchbox', { name: 'Search your pod by name' }).fill('PLAGE')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    const result = page.locator('ul.search-results li').first()
    expect(await result.textContent()).toContain('plage #1.jpg in /Été 2026/')
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-search')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-search-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('link', { name: 'plage #1.jpg' }).click()
    await page.getByRole('heading', { name: 'plage #1.jpg' }).waitFor()
  })
})

describe('sort', () => {
  test('choosing Size sends the form at once; Largest first reverses it; the next visit keeps the order', async () => {
    await page.goto(a(`/.admin/files?path=${encodeURIComponent('/%C3%89t%C3%A9%202026/')}`))
    expect(await rows()).toEqual(['/Été 2026/budget 100% + extras.csv', '/Été 2026/carnet de route.txt', '/Été 2026/plage #1.jpg'])
    await Promise.all([page.waitForURL(/sort=size/), page.getByLabel('Sort by').selectOption('size')])
    expect(await rows()).toEqual(['/Été 2026/carnet de route.txt', '/Été 2026/budget 100% + extras.csv', '/Été 2026/plage #1.jpg'])
    await Promise.all([page.waitForURL(/order=desc/), page.getByLabel('Order').selectOption('desc')])
    expect(await rows()).toEqual(['/Été 2026/plage #1.jpg', '/Été 2026/budget 100% + extras.csv', '/Été 2026/carnet de route.txt'])
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-sort')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-sort-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(a(`/.admin/files?path=${encodeURIComponent('/%C3%89t%C3%A9%202026/')}`))
    expect(await rows()).toEqual(['/Été 2026/plage #1.jpg', '/Été 2026/budget 100% + extras.csv', '/Été 2026/carnet de route.txt'])
    expect(await page.getByLabel('Sort by').inputValue()).toBe('size')
  })
})
