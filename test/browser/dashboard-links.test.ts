// Issue 38 in Chromium at phone width: the owner makes a share link for a folder on its share page (view and
// upload, 30 days, a name), copies the URL shown once, and a fresh browser with no session opens it; the
// Links page lists it, and Remove ends it.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
  HOOK_TIMEOUT,
  PHONE,
  dismissNextDialog,
  horizontalOverflow,
  newContext,
  screenshot,
  startBrowserPod,
  signInToDashboard,
  watchWrites,
  type RunningPod,
} from './harness.ts'
import { unlabelledControls, unstyledFields } from './page-checks.ts'
import jsQR from 'jsqr'

/** The page's QR code as pixels (its SVG drawn on a canvas in the page), decoded by jsQR, a camera app's decoder. */
async function qrCodeOnPage(page: Page): Promise<string | undefined> {
  const { data, size } = await page.evaluate(async () => {
    const svg = document.querySelector('svg.qr-code')!.outerHTML
    const img = new Image()
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
    await img.decode()
    const size = 400
    const canvas = Object.assign(document.createElement('canvas'), { width: size, height: size })
    const g = canvas.getContext('2d')!
    g.drawImage(img, 0, 0, size, size)
    return { data: Array.from(g.getImageData(0, 0, size, size).data), size }
  })
  return jsQR(Uint8ClampedArray.from(data), size, size)?.data
}

setDefaultTimeout(60_000)
let pod: RunningPod
let owner: BrowserContext
let page: Page

beforeAll(async () => {
  pod = await startBrowserPod()
  owner = await newContext({ viewport: PHONE })
  page = await owner.newPage()
  await signInToDashboard(page, pod.baseUrl)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await owner?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

describe('a share link made on the share page, on a phone', () => {
  test('Create link shows the URL once with Copy; a fresh browser opens it; Links lists it; Remove ends it', async () => {
    const put = await page.evaluate(async () => {
      const res = await fetch('/trip/notes.txt', {
        method: 'PUT',
        headers: { 'content-type': 'text/plain', 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! },
        body: 'pack the tent',
      })
      return res.status
    })
    expect(put).toBe(201)
    await page.goto(`${pod.baseUrl}/.admin/share?path=${encodeURIComponent('/trip/')}`)
    await page.getByRole('heading', { name: 'Send a link to anyone' }).waitFor()
    await page.getByLabel('View and upload').check()
    await page.getByLabel('Expires after').selectOption('30d')
    await page.getByLabel('Name (optional)').fill('for the campers')
    expect(await unlabelledControls(page)).toEqual([])
    expect(await unstyledFields(page)).toEqual([])
    await screenshot(page, 'dashboard-links-form-phone')
    await page.getByRole('button', { name: 'Create link' }).click()
    const field = page.getByLabel('The link', { exact: true })
    const url = await field.inputValue()
    expect(url).toMatch(/\/\.links\/[\w-]{43}\/$/)
    expect(await page.getByRole('button', { name: /^Copy/ }).count()).toBe(1)
    await page.getByText('shown only this once').waitFor()
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'dashboard-links-created-phone')
    // The QR code a phone's camera reads: the page's own SVG, drawn as Chromium draws it, decodes to the same URL
    expect(await qrCodeOnPage(page)).toBe(url)

    const stranger = await newContext({ viewport: PHONE })
    const visit = await stranger.newPage()
    const res = await visit.goto(url)
    expect(res?.status()).toBe(200)
    await visit.getByText('notes.txt').first().waitFor()
    await screenshot(visit, 'dashboard-links-stranger-phone')

    await page.goto(`${pod.baseUrl}/.admin/links`)
    await page.getByText('for the campers').waitFor()
    expect(await page.getByText('in 30 days').count()).toBe(1) // a 30-day link made a moment ago, rounded
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'dashboard-links-list-phone')
    // Remove asks first, as every other Remove and Revoke does: the link cannot be made again (a new one has a new address)
    const writes = watchWrites(page)
    const asked = dismissNextDialog(page)
    await page.getByRole('button', { name: 'Remove link for the campers' }).click()
    expect(await Promise.race([asked, Bun.sleep(5000).then(() => 'no question asked')])).toBe(
      'Remove the link “for the campers” to /trip/? Whoever holds it can no longer open it. This cannot be undone: a new link has a new address.',
    )
    expect(writes.end()).toEqual([])
    expect((await visit.goto(url))?.status()).toBe(200)
    page.once('dialog', d => void d.accept())
    await page.getByRole('button', { name: 'Remove link for the campers' }).click()
    await page.getByText('Link removed').waitFor()
    expect((await visit.goto(url))?.status()).toBe(404)
    await stranger.close()
  })
})
