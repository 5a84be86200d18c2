// Issue 40, "Trash": Delete for good for one item and Empty trash, each asked on a page of its own naming the space
// it frees, in Chromium at phone and desktop widths, light and dark, with names holding spaces, accents, #, ?, % and +.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures } from './page-checks.ts'
import { uploadHere } from './files-page-steps.ts'

const NAMES = ['Été #1 ?50% a+b.txt', 'notes – 2026.txt', 'big file.bin']
let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.goto(a('/.admin/files?path=%2F'))
  await uploadHere(
    page,
    NAMES.map((name, i) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.alloc(i === 2 ? 2 * 1024 * 1024 : 1000, 1) })),
  )
  for (const name of NAMES) await page.getByRole('checkbox', { name: `Select ${name}` }).check()
  await page.getByRole('button', { name: 'Delete selected' }).click()
  await page.getByRole('button', { name: 'Delete 3 items' }).click()
  await page.getByText('Moved 3 items to the trash').waitFor()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
})

describe('the trash', () => {
  test('Delete for good asks, naming the space, and the item is gone for good', async () => {
    await page.goto(a('/.admin/trash'))
    expect(await page.getByRole('link', { name: /^Empty trash \(/ }).textContent()).toBe('Empty trash (2.0\u00a0MB)')
    await page.getByRole('link', { name: `Delete ${NAMES[0]} for good` }).click()
    await page.getByRole('heading', { name: `Delete ${NAMES[0]} for good?` }).waitFor()
    expect(await page.locator('main').textContent()).toContain(`Delete /${NAMES[0]} for good? This frees 1000\u00a0B.`)
    await page.getByRole('button', { name: 'Delete for good' }).click()
    expect(await page.locator('p.notice').textContent()).toBe(`Deleted ${NAMES[0]} for good\u00a0· 1000\u00a0B freed`)
    expect(await page.getByRole('button', { name: `Restore ${NAMES[0]}` }).count()).toBe(0)
  })

  test('Empty trash asks with the count and the space, then the trash is empty', async () => {
    await page.getByRole('link', { name: /^Empty trash \(/ }).click()
    await page.getByRole('heading', { name: 'Empty the trash?' }).waitFor()
    expect(await page.locator('main p').first().textContent()).toBe(
      'Delete the 2 items in the trash for good? This frees 2.0\u00a0MB. None of it can be restored afterwards.',
    )
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'empty-trash-ask')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'empty-trash-ask-dark')).toBe(0)
    await page.getByRole('button', { name: 'Empty trash' }).click()
    expect(await page.locator('p.notice').textContent()).toBe('Emptied the trash: 2 items deleted for good\u00a0· 2.0\u00a0MB freed')
    await page.getByText('The trash is empty').waitFor()
    expect(await screenshotBothWidths(page, 'empty-trash-done-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await screenshotBothWidths(page, 'empty-trash-done')).toBe(0)
  })
})
