// Issue 26, "rename and move files and folders" and "delete a folder with everything in it": the dashboard's Rename,
// Move to… and Delete on a row, each in one step after one question, and the page without JavaScript.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, signInToDashboard, startBrowserPod, watchWrites, type RunningPod } from './harness.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const a = (path: string) => pod.baseUrl + path

/** Answers the next prompt with `text` and resolves with its question. */
const answerNextPrompt = (text: string | null) => new Promise<string>((resolve) => page.once('dialog', (d) => {
  const message = d.message()
  void (text === null ? d.dismiss() : d.accept(text)).then(() => resolve(message))
}))

async function makeFolder(name: string) {
  await page.getByLabel('Folder name').fill(name)
  await page.getByRole('button', { name: 'Create folder' }).click()
  await page.getByRole('heading', { name, exact: true }).waitFor()
}

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.goto(a('/.admin/#/files/'))
  await makeFolder('Trip')
  await page.locator('#upload-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('packing list') })
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('link', { name: 'notes.txt', exact: true }).waitFor()
}, HOOK_TIMEOUT)
afterAll(async () => { await context?.close(); await pod?.dispose() })

describe('Rename and Move to… in the dashboard', () => {
  test('Rename asks the new name and the row shows it; the file reads the same at its new address', async () => {
    const asked = answerNextPrompt('Packing – list.txt')
    await page.getByRole('button', { name: 'Rename notes.txt' }).click()
    expect(await asked).toBe('New name for "notes.txt"')
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
    expect(await page.getByRole('link', { name: 'notes.txt', exact: true }).count()).toBe(0)
    expect(await page.locator('#status').textContent()).toContain('Renamed notes.txt to Packing – list.txt')
    const body = await page.evaluate(async (url) => (await fetch(url, { credentials: 'same-origin' })).text(),
      a(`/.admin/files/download?path=${encodeURIComponent(`/Trip/${encodeURIComponent('Packing – list.txt')}`)}`))
    expect(body).toBe('packing list')
  })

  test('cancelling the question sends nothing', async () => {
    const writes = watchWrites(page)
    const asked = answerNextPrompt(null)
    await page.getByRole('button', { name: 'Rename Packing – list.txt' }).click()
    await asked
    expect(writes.end()).toEqual([])
  })

  test('Move to… a folder typed as people name it; the folder is renamed with what is in it', async () => {
    await page.goto(a('/.admin/#/files/'))
    await makeFolder('Old Trips')
    await page.goto(a('/.admin/#/files/Trip/'))
    await page.getByRole('heading', { name: 'Trip', exact: true }).waitFor()
    const asked = answerNextPrompt('/Old Trips/')
    await page.getByRole('button', { name: 'Move Packing – list.txt to another folder' }).click()
    await asked
    await page.getByText('This folder is empty').waitFor()
    await page.goto(a('/.admin/#/files/'))
    const renamed = answerNextPrompt('Trip 2025')
    await page.getByRole('button', { name: 'Rename Trip', exact: true }).click()
    await renamed
    await page.getByRole('link', { name: 'Trip 2025/', exact: true }).waitFor()
    await page.getByRole('link', { name: 'Old Trips/', exact: true }).click()
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
  })

  test('a name that exists already: the refusal is shown, nothing changes', async () => {
    await page.goto(a('/.admin/#/files/'))
    await page.getByRole('link', { name: 'Trip 2025/', exact: true }).waitFor()
    const asked = answerNextPrompt('Old Trips')
    await page.getByRole('button', { name: 'Rename Trip 2025', exact: true }).click()
    await asked
    await page.locator('#status[role="alert"]').waitFor()
    expect(await page.locator('#status').textContent()).toContain('exists already')
    expect(await page.getByRole('link', { name: 'Trip 2025/', exact: true }).count()).toBe(1)
  })
})

describe('Delete a folder with what is in it, into the trash', () => {
  test('one question that says how many items go; after it, the folder is gone', async () => {
    await page.goto(a('/.admin/#/files/'))
    await page.getByRole('link', { name: 'Old Trips/', exact: true }).waitFor()
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => { const m = d.message(); void d.accept().then(() => resolve(m)) }))
    await page.getByRole('button', { name: 'Delete Old Trips', exact: true }).click()
    expect(await asked).toBe('Delete "Old Trips" and the 1 item in it? It is kept in the trash for 30 days.')
    await page.locator('#status').getByText('Deleted Old Trips').waitFor()
    expect(await page.getByRole('link', { name: 'Old Trips/', exact: true }).count()).toBe(0)
  })

  test('the trash on Home lists it, and Restore puts it back with what was in it', async () => {
    const trash = page.locator('section[aria-labelledby="trash-h"]')
    await trash.getByText('/Old Trips/ (1 item)').waitFor()
    await trash.getByRole('button', { name: 'Restore /Old Trips/' }).click()
    await page.locator('#status').getByText('Restored /Old Trips/').waitFor()
    await trash.getByText('The trash is empty').waitFor()
    await page.getByRole('link', { name: 'Old Trips/', exact: true }).click()
    await page.getByRole('link', { name: 'Packing – list.txt', exact: true }).waitFor()
  })
})

describe('without JavaScript', () => {
  test('the Rename link leads to a form; saving it goes to the folder with the item in it', async () => {
    const nojs = await newContext({ javaScriptEnabled: false })
    try {
      const p = await nojs.newPage()
      await p.context().addCookies(await context.cookies())
      await p.goto(a(`/.admin/files?path=${encodeURIComponent('/')}`))
      await p.getByRole('link', { name: 'Rename or move Trip 2025' }).click()
      await p.getByLabel('New name').fill('Trips')
      await p.getByRole('button', { name: 'Rename or move' }).click()
      expect(await p.locator('[role="status"], .notice').first().textContent()).toContain('Moved Trips here')
      await p.getByRole('link', { name: 'Trips/', exact: true }).waitFor()
    } finally { await nojs.close() }
  })
})
