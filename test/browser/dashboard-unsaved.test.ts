// Issue 26, "leaving loses work silently": on the edit page (a server form marked data-enhance="unsaved"),
// a change not saved makes a link away or a reload ask first (the browser's own question); staying keeps
// the text; saving asks nothing. Turtle is checked while typing, beside the text box, before Save.
// (The share panel's case moved with the share page, another area's.)

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Dialog, Page } from 'playwright-core'
import { newContext, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path
const EDIT = '/.admin/files/edit?path=%2Fnotes%2Fcaf%25C3%25A9.ttl'

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const put = await page.evaluate(
    u =>
      fetch(u, {
        method: 'PUT',
        headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'text/turtle' },
        body: '<#it> <http://example.org/says> "hello".',
      }).then(r => r.status),
    a('/notes/caf%C3%A9.ttl'),
  )
  expect(put).toBe(201)
}, 60_000)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
})

/** Answers the next dialog (accept or dismiss) and resolves with it. */
const nextDialog = (accept: boolean) =>
  new Promise<Dialog>(resolve =>
    page.once('dialog', d => {
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(d))
    }),
  )

describe('unsaved work is not lost without a question', () => {
  test('an edit in progress: a link away asks; "stay" keeps the text and the address', async () => {
    await page.goto(a(EDIT))
    await page.getByLabel('Turtle').fill('<#it> <http://example.org/says> "half written".')
    const asked = nextDialog(false)
    void page
      .getByRole('link', { name: 'Apps and sessions' })
      .click()
      .catch(() => undefined)
    expect((await asked).type()).toBe('beforeunload')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('half written')
    expect(page.url()).toBe(a(EDIT))
  })

  test("a reload asks too (the browser's own question)", async () => {
    const asked = nextDialog(false)
    void page.reload().catch(() => undefined)
    expect((await asked).type()).toBe('beforeunload')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('half written')
  })

  test('"leave" leaves; after a save nothing is asked', async () => {
    const asked = nextDialog(true)
    await page.getByRole('link', { name: 'Apps and sessions' }).click()
    await asked
    await page.waitForURL(a('/.admin/sessions'))
    await page.goto(a(EDIT))
    await page.getByLabel('Turtle').fill('<#it> <http://example.org/says> "saved".')
    let dialogs = 0
    page.on('dialog', d => {
      dialogs++
      void d.dismiss()
    })
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('.notice', { hasText: 'Saved' }).waitFor()
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"saved"')
    await page.getByRole('link', { name: 'Apps and sessions' }).click()
    await page.waitForURL(a('/.admin/sessions'))
    expect(dialogs).toBe(0)
    page.removeAllListeners('dialog')
  })
})

describe('Turtle checked while typing', () => {
  test('a problem is shown beside the text box, with its line, before Save; fixed, it goes', async () => {
    await page.goto(a(EDIT))
    const box = page.getByLabel('Turtle')
    await box.fill('<#it> <http://example.org/says> "ok".\n<#it> <http://example.org/says> "unterminated')
    const problem = page.locator('#rdf-check')
    await problem.waitFor()
    expect(await problem.textContent()).toMatch(/^Line 2: .+ \(invalid_rdf\)$/)
    expect(await box.getAttribute('aria-invalid')).toBe('true')
    expect((await box.getAttribute('aria-describedby'))?.split(' ')).toContain('rdf-check')
    await box.fill('<#it> <http://example.org/says> "fixed".')
    await problem.waitFor({ state: 'hidden' })
    expect(await box.getAttribute('aria-invalid')).toBeNull()
    // Saved anyway with bad Turtle, the server refuses it: 400 with the line, the text kept
    await box.fill('<#it> <#p> "unterminated')
    const [answer] = await Promise.all([page.waitForResponse(r => r.request().method() === 'POST'), page.getByRole('button', { name: 'Save' }).click()])
    expect(answer.status()).toBe(400)
    expect(await page.locator('#error').textContent()).toBe('invalid_rdf')
    expect(await page.locator('#bad-line').textContent()).toContain('Line 1:')
    expect(await box.inputValue()).toBe('<#it> <#p> "unterminated')
  })
})
