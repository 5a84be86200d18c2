// A folder's photos and films as a gallery, and the viewer's Previous and Next (issue 40), in Chromium: tiles of
// the pictures only (a text file in the folder is left to the list), awkward names, the arrow keys and a swipe on a
// phone stepping through the pictures in name order, at desktop and phone width, light and dark; and without script.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { DESKTOP, HOOK_TIMEOUT, PHONE, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { drawPicture } from './drawn-picture.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'

setDefaultTimeout(60_000)

let pod: RunningPod
let context: BrowserContext
let page: Page
const at = (path: string) => pod.baseUrl + path
const enc = (name: string) => encodeURIComponent(name)
// Name order: "A plage #1.png" < "B Été+soleil 100%.png" < "C notes?.txt" < "D coucher.png"
const NAMES = ['A plage #1.png', 'B Été+soleil 100%.png', 'D coucher.png']
const FOLDER = `/${enc('Vacances été')}/`
const pathOf = (name: string) => FOLDER + enc(name)
const shown = (p: Page) => p.locator('h1').textContent()

async function asOwnerPut(url: string, body: number[] | string, type: string): Promise<number> {
  return page.evaluate(
    async ([u, b, t]) => {
      const bytes = typeof b === 'string' ? b : Uint8Array.from(b as number[])
      return (
        await fetch(u as string, {
          method: 'PUT',
          headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': t as string },
          body: bytes,
        })
      ).status
    },
    [url, body, type] as const,
  )
}

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ viewport: DESKTOP })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const colors = ['#1f6fb2', '#b2491f', '#2f8f3a']
  for (const [i, name] of NAMES.entries()) {
    const png = await drawPicture(page, { width: 320, height: 200, color: colors[i]!, text: name, font: '24px sans-serif' })
    expect(await asOwnerPut(at(pathOf(name)), png, 'image/png')).toBe(201)
  }
  expect(await asOwnerPut(at(pathOf('C notes?.txt')), 'not a picture\n', 'text/plain')).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

describe('the gallery', () => {
  test('Files links to it; it shows a tile for each picture and none for the text file', async () => {
    await page.goto(at(`/.admin/files?path=${enc(FOLDER)}`))
    await page.getByRole('link', { name: 'Photos and films' }).click()
    expect(await shown(page)).toBe('Photos and films in /Vacances été/')
    const tiles = page.locator('ul.gallery img.tile')
    expect(await tiles.count()).toBe(3)
    expect(await tiles.evaluateAll(imgs => imgs.map(i => (i as HTMLImageElement).alt))).toEqual(NAMES)
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.tile')].every(i => i.complete && i.naturalWidth === 320))
    expect(await page.locator('main').textContent()).toContain('1 other item on this page is in the list')
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      expect(await screenshotBothWidths(page, `gallery-${colorScheme}`)).toBe(0)
      expect(await contrastFailures(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await unlabelledControls(page)).toEqual([])
  })

  test('a tile opens the viewer; the arrow keys step through the pictures, skipping the text file', async () => {
    await page.goto(at(`/.admin/files/gallery?path=${enc(FOLDER)}`))
    await page.locator('ul.gallery a').first().click()
    expect(await shown(page)).toBe(NAMES[0]!)
    expect(await page.locator('a[rel="prev"]').count()).toBe(0)
    await Promise.all([page.waitForURL(/B%2520/), page.keyboard.press('ArrowRight')])
    expect(await shown(page)).toBe(NAMES[1]!)
    await Promise.all([page.waitForURL(/D%2520/), page.keyboard.press('ArrowRight')])
    expect(await shown(page)).toBe(NAMES[2]!)
    expect(await page.locator('a[rel="next"]').count()).toBe(0)
    await Promise.all([page.waitForURL(/B%2520/), page.keyboard.press('ArrowLeft')])
    expect(await shown(page)).toBe(NAMES[1]!)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      expect(await screenshotBothWidths(page, `viewer-${colorScheme}`)).toBe(0)
    }
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('on a phone, a swipe to the left brings the next picture, to the right the one before', async () => {
    const phone = await newContext({ viewport: PHONE, hasTouch: true, isMobile: true, storageState: await context.storageState() })
    const p = await phone.newPage()
    await p.goto(at(`/.admin/files/view?path=${enc(pathOf(NAMES[1]!))}`))
    const swipe = (fromX: number, toX: number) =>
      p.evaluate(
        ([a, b]) => {
          const touch = (x: number) => new Touch({ identifier: 1, target: document.body, clientX: x, clientY: 300 })
          document.body.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(a!)], changedTouches: [touch(a!)], bubbles: true }))
          document.body.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(b!)], bubbles: true }))
        },
        [fromX, toX] as const,
      )
    await Promise.all([p.waitForURL(/D%2520/), swipe(300, 60)])
    expect(await shown(p)).toBe(NAMES[2]!)
    await Promise.all([p.waitForURL(/B%2520/), swipe(60, 300)])
    expect(await shown(p)).toBe(NAMES[1]!)
    // a short or mostly vertical move is a scroll, not a swipe
    await swipe(200, 170)
    await p.waitForTimeout(300)
    expect(await shown(p)).toBe(NAMES[1]!)
    await phone.close()
  })

  test('without script, Previous and Next are links that work', async () => {
    const plain = await newContext({ viewport: DESKTOP, javaScriptEnabled: false, storageState: await context.storageState() })
    const p = await plain.newPage()
    await p.goto(at(`/.admin/files/view?path=${enc(pathOf(NAMES[0]!))}`))
    await p.getByRole('link', { name: 'Next →' }).click()
    expect(await shown(p)).toBe(NAMES[1]!)
    await p.getByRole('link', { name: 'All photos and films' }).click()
    expect(await shown(p)).toBe('Photos and films in /Vacances été/')
    await plain.close()
  })
})
