// The owner's previews (issue 26): /.admin/files/preview serves the bytes of an image, a film, a sound, a PDF
// or text, with Range, as a sandboxed inline answer; anything else (HTML) is refused; /.admin/files/view is
// the page without JavaScript that shows them. Owner only.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, type CookieJar, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), c => c.charCodeAt(0))

beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner } = ctx)
  const body = new FormData()
  body.append('csrf', ctx.csrf)
  body.append('path', '/media/')
  body.append('file', new File([PNG], 'dot.png', { type: 'image/png' }))
  body.append('file', new File(['<script>alert(1)</script>'], 'page.html', { type: 'text/html' }))
  body.append('file', new File(['0123456789'], 'digits.txt', { type: 'text/plain' }))
  const res = await pod.request('/.admin/files/upload', { method: 'POST', headers: { cookie: owner.header(), origin: BASE }, body })
  expect(res.status).toBe(303)
})
afterAll(() => pod.close())

const preview = (path: string, headers: Record<string, string> = {}) =>
  pod.request(`/.admin/files/preview?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header(), ...headers } })

describe('GET /.admin/files/preview', () => {
  test('an image: its bytes inline, sandboxed, never sniffed, not cached unchecked', async () => {
    const res = await preview('/media/dot.png')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-disposition')).toBe('inline')
    expect(res.headers.get('content-security-policy')).toBe('sandbox')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('private, no-cache')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG)
  })

  test('Range is passed on: 206 with Content-Range, only those bytes', async () => {
    const res = await preview('/media/digits.txt', { range: 'bytes=2-4' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe('bytes 2-4/10')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(await res.text()).toBe('234')
  })

  test("HTML → 415 unsupported_media_type: never shown from the pod's origin", async () => {
    const res = await preview('/media/page.html')
    expect(res.status).toBe(415)
    expect(await pageError(res)).toBe('unsupported_media_type')
  })

  test.each([
    ['/media/', 400, 'not_a_document'],
    ['/media/nope.png', 404, 'not_found'],
    ['media', 400, 'invalid_path'],
  ] as const)('%s → %d %s', async (path, status, code) => {
    const res = await preview(path)
    expect(res.status).toBe(status)
    expect(await pageError(res)).toBe(code)
  })

  test("without the owner's session → 303 to the login page, no bytes", async () => {
    const res = await pod.request('/.admin/files/preview?path=%2Fmedia%2Fdot.png')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/login?return=`)
  })
})

describe('GET /.admin/files/view (no JavaScript)', () => {
  test('an image page holds an <img> of the preview route and a Download link', async () => {
    const res = await pod.request('/.admin/files/view?path=%2Fmedia%2Fdot.png', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('<img class="preview" src="/.admin/files/preview?path=%2Fmedia%2Fdot.png" alt="dot.png">')
    expect(page).toContain('href="/.admin/files/download?path=%2Fmedia%2Fdot.png"')
    // The page's policy lets the pod's own origin serve its images and films
    expect(res.headers.get('content-security-policy')).toContain("img-src 'self' ")
    expect(res.headers.get('content-security-policy')).toContain("media-src 'self';")
  })

  test('an HTML file is named, not shown: its text appears nowhere in the page', async () => {
    const page = await (await pod.request('/.admin/files/view?path=%2Fmedia%2Fpage.html', { headers: { cookie: owner.header() } })).text()
    expect(page).toContain('This kind of file (text/html) is not shown here')
    expect(page).not.toContain('alert(1)')
  })

  test('the folder page links each file to its page, with a small picture of each image', async () => {
    const page = await (await pod.request('/.admin/files?path=%2Fmedia%2F', { headers: { cookie: owner.header() } })).text()
    expect(page).toContain(
      '<img class="thumb" src="/.admin/files/preview?path=%2Fmedia%2Fdot.png" alt="" loading="lazy"><a href="/.admin/files/view?path=%2Fmedia%2Fdot.png">dot.png</a>',
    )
    expect(page).toContain('<a href="/.admin/files/view?path=%2Fmedia%2Fdigits.txt">digits.txt</a>') // no picture for text
  })
})
