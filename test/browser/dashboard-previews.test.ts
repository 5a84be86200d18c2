// Viewing and editing one file on the owner's pages (issue 26), in Chromium: an image, a film, a PDF,
// text and Markdown on the view page (/.admin/files/view), text and Markdown edited and saved (If-Match)
// on the edit page, two tabs editing one document (both answers of the conflict), with JavaScript and
// without, at desktop and phone width, light and dark, with an awkward name. HTML is never shown.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  screenshotBothWidths,
  signInToDashboard,
  startBrowserPod,
  type RunningPod,
} from './harness.ts'
import { drawPicture } from './drawn-picture.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'

setDefaultTimeout(60_000)

const FFMPEG = Bun.which('ffmpeg')
let pod: RunningPod
let context: BrowserContext
let page: Page
const work = mkdtempSync(join(tmpdir(), 'solopod-previews-'))
const at = (path: string) => pod.baseUrl + path
const view = (path: string) => at(`/.admin/files/view?path=${encodeURIComponent(path)}`)
const edit = (path: string) => at(`/.admin/files/edit?path=${encodeURIComponent(path)}`)
/** "Été notes #1 & co?.md" as the pod keeps its path. */
const NOTE = '/notes/%C3%89t%C3%A9%20notes%20%231%20&%20co%3F.md'

/** A request from the owner's page (its cookie and CSRF token), answering status and body text. */
async function asOwner(url: string, init: { method?: string; type?: string; body?: string; range?: string } = {}) {
  if ((await page.locator('#dashboard').count()) === 0) await page.goto(at('/.admin/files'))
  return page.evaluate(
    async ([u, i]) => {
      const res = await fetch(u!, {
        method: i!.method ?? 'GET',
        headers: {
          'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!,
          ...(i!.type ? { 'content-type': i!.type } : {}),
          ...(i!.range ? { range: i!.range } : {}),
        },
        ...(i!.body !== undefined ? { body: i!.body } : {}),
      })
      return { status: res.status, text: await res.text(), headers: Object.fromEntries(res.headers) }
    },
    [url, init] as const,
  )
}

/** Bytes PUT as the owner from the owner's page. */
const putBytes = (url: string, bytes: Uint8Array | number[], type: string) =>
  page.evaluate(
    async ([u, b64, t]) => {
      const body = Uint8Array.from(atob(b64!), c => c.charCodeAt(0))
      return (await fetch(u!, { method: 'PUT', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': t! }, body }))
        .status
    },
    [url, Buffer.from(Uint8Array.from(bytes)).toString('base64'), type] as const,
  )

/** A second of ffmpeg's test card, tiny (160×90 VP8). */
function film(): Uint8Array {
  const out = join(work, 'clip.webm')
  const made = Bun.spawnSync([
    FFMPEG!,
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=duration=1:size=160x90:rate=10',
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-b:v',
    '200k',
    out,
  ])
  if (made.exitCode !== 0) throw new Error(`ffmpeg failed: ${made.stderr.toString()}`)
  return readFileSync(out)
}

/** A one-page PDF saying "Hello PDF" (the smallest valid file: catalog, pages, page, content, font, xref). */
function pdf(): Uint8Array {
  const stream = 'BT /F1 24 Tf 40 70 Td (Hello PDF) Tj ET'
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets = objects.map((o, i) => {
    const at = out.length
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
    return at
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map(o => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}

const imageLoaded = (on: Page, selector: string) =>
  on.waitForFunction(s => {
    const img = document.querySelector<HTMLImageElement>(s)
    return img !== null && img.complete && img.naturalWidth > 0
  }, selector)

/** Screenshots at both widths in light and dark, each checked for sideways scrolling, contrast and labels. */
async function lookAt(on: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await on.emulateMedia({ colorScheme })
    expect(await screenshotBothWidths(on, `${name}-${colorScheme}`)).toBe(0)
    expect(await contrastFailures(on)).toEqual([])
  }
  await on.emulateMedia({ colorScheme: 'light' })
  expect(await unlabelledControls(on)).toEqual([])
}

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ viewport: DESKTOP })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  expect(
    await putBytes(
      at('/photos/beach.png'),
      await drawPicture(page, { width: 320, height: 200, color: '#1f6fb2', text: 'Sète, day 1', font: '28px sans-serif' }),
      'image/png',
    ),
  ).toBe(201)
  if (FFMPEG) expect(await putBytes(at('/photos/clip.webm'), film(), 'video/webm')).toBe(201)
  expect(await putBytes(at('/papers/hello.pdf'), pdf(), 'application/pdf')).toBe(201)
  expect((await asOwner(at('/notes/todo.txt'), { method: 'PUT', type: 'text/plain', body: 'buy bread\n' })).status).toBe(201)
  expect((await asOwner(at(NOTE), { method: 'PUT', type: 'text/markdown', body: '# Plan\n\n- swim\n' })).status).toBe(201)
  expect(
    (await asOwner(at('/notes/page.html'), { method: 'PUT', type: 'text/html', body: '<h1 id="ran">HTML</h1><script>document.title="ran"</script>' })).status,
  ).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  rmSync(work, { recursive: true, force: true })
}, HOOK_TIMEOUT)

describe('the view page shows the file', () => {
  test('a folder of images shows a small picture of each', async () => {
    await page.goto(at('/.admin/files?path=%2Fphotos%2F'))
    await imageLoaded(page, 'img.thumb')
    const box = await page.locator('img.thumb').first().boundingBox()
    expect(box!.width).toBeLessThanOrEqual(40)
    await page.setViewportSize(PHONE)
    expect(await horizontalOverflow(page)).toBe(0)
    await page.setViewportSize(DESKTOP)
  })

  test('an image is shown', async () => {
    await page.goto(at('/.admin/files?path=%2Fphotos%2F'))
    await page.getByRole('link', { name: 'beach.png', exact: true }).click()
    await imageLoaded(page, 'img.preview')
    expect(await page.locator('img.preview').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320)
    await lookAt(page, 'view-image')
  })

  test.skipIf(!FFMPEG)('a film plays in the page, and the preview route answers a Range with 206', async () => {
    await page.goto(view('/photos/clip.webm'))
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('video.preview')
      return v !== null && v.readyState >= 1 && v.videoWidth === 160
    })
    expect(await page.locator('video.preview').getAttribute('controls')).not.toBeNull()
    await lookAt(page, 'view-film')
    const part = await asOwner(at('/.admin/files/preview?path=%2Fphotos%2Fclip.webm'), { range: 'bytes=0-99' })
    expect(part.status).toBe(206)
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/)
    expect(part.headers['content-length']).toBe('100')
    expect(part.headers['content-security-policy']).toBe('sandbox')
  })

  test("a PDF opens in a tab in Chromium's viewer, still sandboxed: shown, not downloaded", async () => {
    await page.goto(view('/papers/hello.pdf'))
    await lookAt(page, 'view-pdf')
    let downloaded = false
    context.on('download', () => {
      downloaded = true
    })
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open the PDF' }).click()])
    const answer = await tab.waitForResponse(r => r.url().includes('/.admin/files/preview'))
    expect(answer.status()).toBe(200)
    await tab.waitForLoadState()
    // Shown by the viewer (Chromium's PDF extension in a frame of the tab), not refused: a sandboxed
    // document Chromium will not show is its own error page, with no such frame
    expect(await tab.evaluate(() => document.contentType)).toBe('application/pdf')
    expect(tab.frames().some(f => f.url().startsWith('chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/'))).toBe(true)
    // Chromium's viewer does not show the answer's headers to Playwright: the same request, from the page
    const same = await asOwner(at('/.admin/files/preview?path=%2Fpapers%2Fhello.pdf'))
    expect(same.headers['content-type']).toBe('application/pdf')
    expect(same.headers['content-security-policy']).toBe('sandbox')
    expect(same.headers['content-disposition']).toBe('inline')
    await Bun.sleep(1000)
    await screenshot(tab, 'view-pdf-opened')
    expect(downloaded).toBe(false)
    await tab.close()
  })

  test('Markdown with an awkward name is shown rendered, its text and Edit one click away; no script of it runs', async () => {
    await page.goto(at('/.admin/files?path=%2Fnotes%2F'))
    await page.getByRole('link', { name: 'Été notes #1 & co?.md', exact: true }).click()
    await expect(page.locator('.markdown h1').textContent()).resolves.toBe('Plan')
    await expect(page.locator('.markdown li').textContent()).resolves.toBe('swim')
    await page.getByRole('heading', { name: 'Été notes #1 & co?.md' }).waitFor()
    await lookAt(page, 'view-markdown')
    await page.getByRole('link', { name: 'Show as text' }).click()
    await expect(page.locator('pre.preview-text').textContent()).resolves.toBe('# Plan\n\n- swim\n')
    const HOSTILE = '/notes/hostile.md'
    expect(
      (
        await asOwner(at(HOSTILE), {
          method: 'PUT',
          type: 'text/markdown',
          body: '# Hostile\n\n<script>window.ran = 1</script>\n\n<img src=x onerror="window.ran = 2">\n\n![far](https://img.example/far.png)\n',
        })
      ).status,
    ).toBe(201)
    await page.goto(view(HOSTILE))
    expect(await page.locator('.markdown script, .markdown img').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { ran?: number }).ran)).toBeUndefined()
    expect(await page.locator('.markdown').textContent()).toContain('<script>window.ran = 1</script>')
    await lookAt(page, 'view-markdown-hostile')
    await page.getByRole('link', { name: 'Show images' }).click()
    expect(await page.locator('.markdown img[src="https://img.example/far.png"]').count()).toBe(1)
    await page.goto(view(NOTE))
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByLabel('Markdown').waitFor()
    await lookAt(page, 'edit-markdown')
  })

  test('HTML is never shown: no preview, and the preview route refuses it', async () => {
    await page.goto(view('/notes/page.html'))
    await page.getByText('is not shown here').waitFor()
    expect(await page.locator('iframe, #ran').count()).toBe(0)
    const refused = await asOwner(at('/.admin/files/preview?path=%2Fnotes%2Fpage.html'))
    expect(refused.status).toBe(415)
    expect(refused.text).toContain('unsupported_media_type')
  })

  test('a file that is not there: the error page says so in plain words first, the code small', async () => {
    const res = await page.goto(view('/notes/gone.txt'))
    expect(res!.status()).toBe(404)
    const box = page.locator('.error[role=alert]')
    expect(await box.locator('p').first().textContent()).toBe('This is not here: it was moved or deleted, or the address is wrong.')
    expect(await box.locator('.code').textContent()).toBe('Error code: not_found')
    await lookAt(page, 'error-page')
  })
})

for (const javaScriptEnabled of [true, false]) {
  describe(`text edited and saved, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    let ctx: BrowserContext
    let one: Page
    let two: Page
    beforeAll(async () => {
      ctx = await newContext({ viewport: DESKTOP, javaScriptEnabled })
      await ctx.addCookies(await context.cookies())
      one = await ctx.newPage()
      two = await ctx.newPage()
    })
    afterAll(() => ctx?.close())

    test('plain text: View, Edit, Save; the page says Saved and the file holds the new text', async () => {
      await one.goto(view('/notes/todo.txt'))
      await one.getByRole('link', { name: 'Edit', exact: true }).click()
      await one.getByLabel('Text', { exact: true }).fill(`buy bread\nbuy milk (${javaScriptEnabled})\n`)
      await one.getByRole('button', { name: 'Save' }).click()
      await one.locator('.notice', { hasText: 'Saved' }).waitFor()
      expect(await one.getByLabel('Text', { exact: true }).inputValue()).toBe(`buy bread\nbuy milk (${javaScriptEnabled})\n`)
      const stored = await asOwner(at('/notes/todo.txt'))
      expect(stored.text).toBe(`buy bread\nbuy milk (${javaScriptEnabled})\n`)
      expect(stored.headers['content-type']).toStartWith('text/plain')
    })

    /** Both tabs open the editor; tab two saves first; tab one's save meets the conflict page. */
    async function conflict(mine: string, theirs: string): Promise<void> {
      await one.goto(edit(NOTE))
      await two.goto(edit(NOTE))
      await two.getByLabel('Markdown').fill(theirs)
      await two.getByRole('button', { name: 'Save' }).click()
      await two.locator('.notice', { hasText: 'Saved' }).waitFor()
      await one.getByLabel('Markdown').fill(mine)
      const [answer] = await Promise.all([one.waitForResponse(r => r.request().method() === 'POST'), one.getByRole('button', { name: 'Save' }).click()])
      expect(answer.status()).toBe(412)
      await one.getByText('Someone changed this document while you were editing: reload it, or keep your version.').waitFor()
      expect(await one.locator('#error').textContent()).toBe('changed_meanwhile')
      expect(await one.getByLabel('Markdown').inputValue()).toBe(mine)
      expect((await asOwner(at(NOTE))).text).toBe(theirs)
    }

    test('two tabs: "Reload (lose my changes)" shows the newer text', async () => {
      await conflict('# mine, to lose\n', '# theirs, kept\n')
      await lookAt(one, `edit-conflict-js-${javaScriptEnabled ? 'on' : 'off'}`)
      let asked = 0
      one.on('dialog', d => {
        asked++
        void d.accept()
      })
      await one.getByRole('link', { name: 'Reload (lose my changes)' }).click()
      await one.waitForURL(edit(NOTE))
      expect(await one.getByLabel('Markdown').inputValue()).toBe('# theirs, kept\n')
      expect(await one.locator('.error').count()).toBe(0)
      expect(asked).toBe(0)
      one.removeAllListeners('dialog')
    })

    test('two tabs: "Keep my version" saves mine over theirs', async () => {
      await conflict('# mine, kept\n', '# theirs, replaced\n')
      await one.getByRole('button', { name: 'Keep my version' }).click()
      await one.locator('.notice', { hasText: 'Saved' }).waitFor()
      expect(await one.getByLabel('Markdown').inputValue()).toBe('# mine, kept\n')
      expect((await asOwner(at(NOTE))).text).toBe('# mine, kept\n')
    })
  })
}
