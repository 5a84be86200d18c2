// Issue 13 "every failing API call shows a readable message; nothing fails silently", in Chromium:
// an upload of several files reports each one, and one declined or refused never stops the others; a
// listing that cannot be redrawn after an upload says the files landed; and at phone width an error
// is on the screen, not a screen above the form that caused it.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page

/** A phone's viewport as the audit measured it. */
const PHONE_390 = { width: 390, height: 844 } as const

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  expect((await asOwner('PUT', '/up/kept.txt', 'the old one')).status).toBe(201)
  expect((await asOwner('PUT', '/up/sub/', '', 'text/turtle')).status).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => { await context?.close(); await pod?.dispose() }, HOOK_TIMEOUT)

/** As the dashboard's script calls the pod (owner cookie + CSRF token). */
const asOwner = (method: string, path: string, body?: string, type = 'text/plain') => page.evaluate(async ([m, u, b, t]) => {
  const res = await fetch(u!, { method: m!, headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': t! }, ...(b === undefined ? {} : { body: b }) })
  return { status: res.status, text: await res.text() }
}, [method, pod.baseUrl + path, body, type] as const)
const status = (on: Page) => on.locator('#status')
const file = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) })

describe('uploads: every file reported, none skipped', () => {
  test('one declined and one refused: the others still land, the list shows them, each file says what happened', async () => {
    await page.goto(`${pod.baseUrl}/.admin/#/files/up/`)
    await page.getByRole('link', { name: 'kept.txt', exact: true }).waitFor()
    // The pod refuses one file (its disk full, as a 507 would say)
    await page.route(`${pod.baseUrl}/up/broken.txt`, (route) => route.request().method() === 'PUT'
      ? route.fulfill({ status: 507, contentType: 'application/problem+json', body: JSON.stringify({ title: 'no room', status: 507, detail: 'the disk is full', error: 'insufficient_storage' }) }) : route.continue())
    const asked: string[] = []
    page.once('dialog', (d) => { asked.push(d.message()); void d.dismiss() })
    await page.getByLabel('Files to upload').setInputFiles([file('a.txt', 'aaa'), file('kept.txt', 'new'), file('b.txt', 'bbbb'), file('broken.txt', 'x')])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'b.txt', exact: true }).waitFor()
    await page.locator('#upload-report li').nth(3).waitFor()
    expect(asked).toEqual(['"kept.txt" already exists here. Replace it? The old file cannot be recovered.'])
    expect(await page.locator('#upload-report li').allTextContents()).toEqual([
      'Uploaded a.txt',
      'kept.txt was not uploaded: a file of that name exists',
      'Uploaded b.txt',
      'broken.txt was not uploaded: Uploading broken.txt failed (507 insufficient_storage): the disk is full',
    ])
    expect(await status(page).getAttribute('role')).toBe('alert')
    expect(await status(page).textContent()).toBe('Uploaded a.txt, b.txt; kept.txt was not uploaded: a file of that name exists; '
      + 'broken.txt was not uploaded: Uploading broken.txt failed (507 insufficient_storage): the disk is full')
    expect(await page.getByRole('link', { name: 'a.txt', exact: true }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'broken.txt', exact: true }).count()).toBe(0)
    expect(await asOwner('GET', '/up/a.txt')).toEqual({ status: 200, text: 'aaa' })
    expect(await asOwner('GET', '/up/b.txt')).toEqual({ status: 200, text: 'bbbb' })
    expect(await asOwner('GET', '/up/kept.txt')).toEqual({ status: 200, text: 'the old one' })
    await page.unroute(`${pod.baseUrl}/up/broken.txt`)
  })

  test('the upload lands but the list cannot be redrawn: the message says both', async () => {
    await page.route(/\/\.admin\/api\/browse\?/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'server_error', error_description: 'the listing broke' }) }), { times: 1 })
    await page.getByLabel('Files to upload').setInputFiles([file('c.txt', 'ccc')])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.locator('#status[role="alert"]', { hasText: 'c.txt' }).waitFor()
    expect(await status(page).textContent()).toBe('Uploaded c.txt, but the folder list could not be refreshed (Opening /up/ failed (500 server_error): the listing broke): reload the page to see it')
    expect(await page.locator('#upload-report li').allTextContents()).toEqual(['Uploaded c.txt'])
    expect(await asOwner('GET', '/up/c.txt')).toEqual({ status: 200, text: 'ccc' })
  })
})

describe('at phone width an error is on the screen', () => {
  let phone: BrowserContext
  let p: Page
  beforeAll(async () => {
    phone = await newContext({ viewport: PHONE_390 })
    await phone.addCookies(await context.cookies())
    p = await phone.newPage()
  })
  afterAll(() => phone?.close())
  /** The element's box lies within the viewport (CSS pixels; a fraction of one off is layout rounding, scrollIntoView's own). */
  const inView = (selector: string) => p.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect()
    return r.height > 0 && r.top > -1 && r.bottom < window.innerHeight + 1
  })

  test('a folder name that is taken: the alert is scrolled into view from the form at the bottom', async () => {
    await p.goto(`${pod.baseUrl}/.admin/#/files/up/`)
    await p.getByRole('link', { name: 'kept.txt', exact: true }).waitFor()
    await p.getByLabel('Folder name').fill('sub')
    // the status line (just above the view) is scrolled off the top of the screen while the form is filled in
    expect(await p.locator('#view').evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(0)
    await p.getByRole('button', { name: 'Create folder' }).click()
    await p.locator('#status[role="alert"]').waitFor()
    expect(await status(p).textContent()).toBe('Creating folder sub failed: something named "sub" already exists here; choose another name')
    expect(await inView('#status')).toBe(true)
  })

  test('the share form: the problem beside its field, on the screen, the field focused', async () => {
    await p.goto(`${pod.baseUrl}/.admin/#/share/up/a.txt`)
    await p.getByRole('button', { name: 'Set access for this item only' }).click()
    await p.getByLabel('Who', { exact: true }).selectOption('agent')
    await p.getByRole('button', { name: 'Add', exact: true }).click()
    const error = p.locator('#share-value-error')
    await error.waitFor()
    expect(await error.textContent()).toBe('Person (WebID): enter a full URL (https://…) with no spaces')
    expect(await inView('#share-value-error')).toBe(true)
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('share-value')
    expect(await p.getByLabel('WebID, group or key URL').getAttribute('aria-invalid')).toBe('true')
    // corrected: the message goes, the entry is added
    await p.getByLabel('WebID, group or key URL').fill('https://bob.example/profile/card#me')
    await p.getByRole('button', { name: 'Add', exact: true }).click()
    await p.getByText('Added; press Save to apply').waitFor()
    expect(await p.locator('#share-value-error').isHidden()).toBe(true)
  })
})
