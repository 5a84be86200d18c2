// Previews in the owner's dashboard (issue 26): an image, a film and text shown in the document view, text
// edited and saved (If-Match), small pictures of images in the listing, and the same previews on the pages
// without JavaScript. HTML is never shown: the preview route refuses it.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { DESKTOP, HOOK_TIMEOUT, PHONE, horizontalOverflow, newContext, screenshot, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { drawPicture } from './drawn-picture.ts'

setDefaultTimeout(60_000)

const FFMPEG = Bun.which('ffmpeg')
let pod: RunningPod
let context: BrowserContext
let page: Page
const work = mkdtempSync(join(tmpdir(), 'solopod-previews-'))
const at = (path: string) => pod.baseUrl + path

/** A request from the owner's page (its cookie and CSRF token), answering status and body text. */
const asOwner = (url: string, init: { method?: string; type?: string; body?: string; range?: string } = {}) => page.evaluate(async ([u, i]) => {
  const res = await fetch(u!, { method: i!.method ?? 'GET', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, ...(i!.type ? { 'content-type': i!.type } : {}), ...(i!.range ? { range: i!.range } : {}) }, ...(i!.body !== undefined ? { body: i!.body } : {}) })
  return { status: res.status, text: await res.text(), headers: Object.fromEntries(res.headers) }
}, [url, init] as const)

/** A PNG drawn in the owner's page, PUT as the owner. */
async function putPicture(url: string): Promise<number> {
  const bytes = await drawPicture(page, { width: 320, height: 200, color: '#1f6fb2', text: 'Sète, day 1', font: '28px sans-serif' })
  return page.evaluate(async ([u, b]) => (await fetch(u as string, { method: 'PUT', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'image/png' }, body: new Uint8Array(b as number[]) })).status, [url, bytes] as const)
}

/** A second of ffmpeg's test card, tiny (160×90 VP8), PUT as the owner. */
async function putFilm(url: string): Promise<void> {
  const film = join(work, 'clip.webm')
  const made = Bun.spawnSync([FFMPEG!, '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=duration=1:size=160x90:rate=10', '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k', film])
  if (made.exitCode !== 0) throw new Error(`ffmpeg failed: ${made.stderr.toString()}`)
  const bytes = Buffer.from(readFileSync(film)).toString('base64')
  const status = await page.evaluate(async ([u, b64]) => {
    const body = Uint8Array.from(atob(b64!), (c) => c.charCodeAt(0))
    const res = await fetch(u!, { method: 'PUT', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'video/webm' }, body })
    return res.status
  }, [url, bytes] as const)
  expect(status).toBe(201)
}

const imageLoaded = (selector: string) => page.waitForFunction((s) => { const img = document.querySelector<HTMLImageElement>(s); return img !== null && img.complete && img.naturalWidth > 0 }, selector)

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ viewport: DESKTOP })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  expect(await putPicture(at('/photos/beach.png'))).toBe(201)
  if (FFMPEG) await putFilm(at('/photos/clip.webm'))
  expect((await asOwner(at('/notes/todo.txt'), { method: 'PUT', type: 'text/plain', body: 'buy bread\n' })).status).toBe(201)
  expect((await asOwner(at('/notes/plan.md'), { method: 'PUT', type: 'text/markdown', body: '# Plan\n\n- swim' })).status).toBe(201)
  expect((await asOwner(at('/notes/page.html'), { method: 'PUT', type: 'text/html', body: '<h1 id="ran">HTML</h1><script>document.title="ran"</script>' })).status).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  rmSync(work, { recursive: true, force: true })
}, HOOK_TIMEOUT)

describe('the dashboard shows files in the page', () => {
  test('a folder of images shows a small picture of each, at desktop and phone width', async () => {
    await page.goto(at('/.admin/#/files/photos/'))
    await imageLoaded('img.thumb')
    const box = await page.locator('img.thumb').first().boundingBox()
    expect(box!.width).toBeLessThanOrEqual(40)
    expect(box!.height).toBeLessThanOrEqual(40)
    expect(await page.locator('img.thumb').first().getAttribute('loading')).toBe('lazy')
    await screenshot(page, 'previews-listing')
    await page.setViewportSize(PHONE)
    await imageLoaded('img.thumb')
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'previews-listing-phone')
    await page.setViewportSize(DESKTOP)
  })

  test('an image is shown in its document view', async () => {
    await page.goto(at('/.admin/#/files/photos/beach.png'))
    await imageLoaded('img.preview')
    expect(await page.locator('img.preview').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320)
    await screenshot(page, 'previews-image')
    await page.setViewportSize(PHONE)
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'previews-image-phone')
    await page.setViewportSize(DESKTOP)
  })

  test.skipIf(!FFMPEG)('a film plays in the page, and the preview route answers a Range with 206', async () => {
    await page.goto(at('/.admin/#/files/photos/clip.webm'))
    await page.waitForFunction(() => { const v = document.querySelector<HTMLVideoElement>('video.preview'); return v !== null && v.readyState >= 1 && v.videoWidth === 160 })
    expect(await page.locator('video.preview').getAttribute('controls')).not.toBeNull()
    await screenshot(page, 'previews-film')
    const part = await asOwner(at('/.admin/files/preview?path=%2Fphotos%2Fclip.webm'), { range: 'bytes=0-99' })
    expect(part.status).toBe(206)
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/)
    expect(part.headers['content-length']).toBe('100')
    expect(part.headers['content-security-policy']).toBe('sandbox')
  })

  test('plain text is shown, edited and saved; the file holds the new text', async () => {
    await page.goto(at('/.admin/#/files/notes/todo.txt'))
    await expect(page.locator('#text-preview').textContent()).resolves.toBe('buy bread\n')
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Text', { exact: true }).fill('buy bread\nbuy milk\n')
    await screenshot(page, 'previews-text-edit')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved todo.txt').waitFor()
    await expect(page.locator('#text-preview').textContent()).resolves.toBe('buy bread\nbuy milk\n')
    const stored = await asOwner(at('/notes/todo.txt'))
    expect(stored.text).toBe('buy bread\nbuy milk\n')
    expect(stored.headers['content-type']).toStartWith('text/plain')
  })

  test('a save after someone else changed the file is refused (If-Match), and the file keeps their text', async () => {
    await page.goto(at('/.admin/#/files/notes/plan.md'))
    await page.getByRole('button', { name: 'Edit' }).click()
    expect((await asOwner(at('/notes/plan.md'), { method: 'PUT', type: 'text/markdown', body: '# Plan B' })).status).toBe(204)
    await page.getByLabel('Markdown').fill('# Plan\n\n- swim\n- eat')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('[role=alert], .error').filter({ hasText: /412|changed|precondition/i }).first().waitFor()
    await screenshot(page, 'previews-text-conflict')
    expect((await asOwner(at('/notes/plan.md'))).text).toBe('# Plan B')
    // Cancel throws the typed text away, after asking
    page.once('dialog', (d) => { void d.accept() })
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.locator('#text-preview').textContent()).resolves.toBe('# Plan B')
  })

  test('HTML is never shown: no preview, and the preview route refuses it', async () => {
    await page.goto(at('/.admin/#/files/notes/page.html'))
    await page.getByText('is not shown here').waitFor()
    expect(await page.locator('iframe, #ran').count()).toBe(0)
    const refused = await asOwner(at('/.admin/files/preview?path=%2Fnotes%2Fpage.html'))
    expect(refused.status).toBe(415)
    expect(refused.text).toContain('unsupported_media_type')
  })
})

describe('the pages without JavaScript', () => {
  test('the folder shows a small picture of each image; a file page shows the image, and the film in a <video>', async () => {
    await page.goto(at('/.admin/files?path=%2Fphotos%2F'))
    await imageLoaded('img.thumb')
    await screenshot(page, 'previews-basic-listing')
    await page.getByRole('link', { name: 'beach.png', exact: true }).click()
    await imageLoaded('img.preview')
    await page.getByRole('link', { name: 'Download' }).waitFor()
    await screenshot(page, 'previews-basic-image')
    if (FFMPEG) {
      await page.goto(at('/.admin/files/view?path=%2Fphotos%2Fclip.webm'))
      await page.waitForFunction(() => { const v = document.querySelector<HTMLVideoElement>('video.preview'); return v !== null && v.readyState >= 1 })
    }
  })
})
