// Issue 26, "leaving loses work silently": mid-edit, or after "Added; press Save to apply" on the share
// panel, moving to another view or reloading asks first; staying keeps the work and the address.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Dialog, Page } from 'playwright-core'
import { newContext, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const put = await page.evaluate((u) => fetch(u, { method: 'PUT', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'text/turtle' }, body: '<#it> <http://example.org/says> "hello".' }).then((r) => r.status), a('/notes/caf%C3%A9.ttl'))
  expect(put).toBe(201)
}, 60_000)
afterAll(async () => { await context?.close(); await pod?.dispose() })

/** Answers the next dialog (accept or dismiss) and resolves with it. */
const nextDialog = (accept: boolean) => new Promise<Dialog>((resolve) => page.once('dialog', (d) => { void (accept ? d.accept() : d.dismiss()).then(() => resolve(d)) }))

describe('unsaved work is not lost without a question', () => {
  test('an edit in progress: going to another view asks; "stay" keeps the text and the address', async () => {
    await page.goto(a('/.admin/#/files/notes/caf%C3%A9.ttl'))
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Turtle').fill('<#it> <http://example.org/says> "half written".')
    const asked = nextDialog(false)
    await page.getByRole('link', { name: 'Apps and sessions' }).click()
    expect((await asked).message()).toBe('Your changes to café.ttl are not saved. Leave and lose them?')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('half written')
    expect(new URL(page.url()).hash).toBe('#/files/notes/caf%C3%A9.ttl')
  })

  test('a reload asks too (the browser\'s own question)', async () => {
    const asked = nextDialog(false)
    void page.reload().catch(() => undefined)
    expect((await asked).type()).toBe('beforeunload')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('half written')
  })

  test('"leave" leaves; after a save nothing is asked', async () => {
    const asked = nextDialog(true)
    await page.getByRole('link', { name: 'Apps and sessions' }).click()
    await asked
    await page.getByRole('heading', { name: 'Apps you approved' }).waitFor()
    await page.goto(a('/.admin/#/files/notes/caf%C3%A9.ttl'))
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Turtle').fill('<#it> <http://example.org/says> "saved".')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved café.ttl').waitFor()
    expect(await page.locator('pre.rdf').textContent()).toContain('"saved"')
    let dialogs = 0
    page.on('dialog', (d) => { dialogs++; void d.dismiss() })
    await page.getByRole('link', { name: 'Apps and sessions' }).click()
    await page.getByRole('heading', { name: 'Apps you approved' }).waitFor()
    expect(dialogs).toBe(0)
    page.removeAllListeners('dialog')
  })

  test('access added on the share panel but not saved: leaving asks', async () => {
    await page.goto(a('/.admin/#/share/notes/caf%C3%A9.ttl'))
    await page.getByRole('button', { name: 'Set access for this item only' }).click()
    await page.getByLabel('Who', { exact: true }).selectOption('public')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByText('Added; press Save to apply').waitFor()
    const asked = nextDialog(false)
    await page.getByRole('link', { name: 'Files' }).click()
    expect((await asked).message()).toBe('The access you added or removed is not saved. Leave and lose it?')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect((await fetch(a('/notes/caf%C3%A9.ttl'))).status).toBe(200)
  })
})
