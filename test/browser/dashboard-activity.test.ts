// Issue 36 in Chromium: the Activity page lists what an app (a WebDAV client credential) changed and deleted, the
// folder it wrecked is restored from the folder's history page with one form, contrast holds in both colour
// schemes and nothing scrolls sideways on a phone; screenshots in test-artifacts/browser/.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { textContrastFailures } from './page-checks.ts'
import { runSolopod } from '../e2e/start-server.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let auth = ''

beforeAll(async () => {
  pod = await startBrowserPod()
  const r = await runSolopod('clients', 'add', '--name', 'Notes app', '--data', pod.dataDir)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  auth = `Basic ${btoa(`${id}:${secret}`)}`
  context = await newContext()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const app = (method: string, path: string, body?: string) =>
  fetch(pod.baseUrl + path, {
    method,
    headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'text/plain' } : {}) },
    ...(body !== undefined ? { body } : {}),
  })
const text = async (path: string) => (await app('GET', path)).text()

async function checkLooks(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect({ colorScheme, failures: await textContrastFailures(page) }).toEqual({ colorScheme, failures: [] })
    expect(await screenshotBothWidths(page, `${name}${colorScheme === 'dark' ? '-dark' : ''}`)).toBe(0)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('an app wrecks a folder; the Activity page shows it; the folder is restored from its history page', async () => {
  expect((await app('MKCOL', '/Notizen für mich/')).status).toBe(201)
  expect((await app('PUT', '/Notizen%20f%C3%BCr%20mich/shopping.txt', 'milk, eggs')).status).toBe(201)
  expect((await app('PUT', '/Notizen%20f%C3%BCr%20mich/todo.txt', 'call Ann')).status).toBe(201)
  await Bun.sleep(1100)
  expect((await app('PUT', '/Notizen%20f%C3%BCr%20mich/shopping.txt', '')).status).toBe(204)
  expect((await app('DELETE', '/Notizen%20f%C3%BCr%20mich/todo.txt')).status).toBe(204)
  expect((await app('PUT', '/Notizen%20f%C3%BCr%20mich/new.txt', 'written after')).status).toBe(201)

  const page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.getByRole('link', { name: 'Activity' }).click()
  await page.getByRole('heading', { name: 'Activity' }).waitFor()
  const rows = page.locator('tbody tr')
  // Newest first; who created each file is kept from its creation (the folder's MKCOL too), then what the pod made at its first start
  expect((await rows.locator('td[data-label="What"]').allTextContents()).slice(0, 7)).toEqual([
    'created /Notizen für mich/new.txt',
    'deleted /Notizen für mich/todo.txt',
    'changed /Notizen für mich/shopping.txt',
    'created /Notizen für mich/todo.txt',
    'created /Notizen für mich/shopping.txt',
    'created /Notizen für mich/',
    // an access rule is said of the item it governs, not as its .acl document
    'set who can access /settings/publicTypeIndex.ttl',
  ])
  expect(await rows.nth(1).locator('td[data-label="Who"]').textContent()).toBe('Youwith Notes app')
  await checkLooks(page, 'activity')

  await page.getByRole('link', { name: 'Recently deleted' }).click()
  await page.getByRole('heading', { name: 'Recently deleted' }).waitFor()
  expect(await rows.count()).toBe(1)

  // the folder's history: restore it as it was before the app's first change
  await page.goto(`${pod.baseUrl}/.admin/history?path=${encodeURIComponent('/Notizen%20f%C3%BCr%20mich/')}`)
  const moments = page.locator('#restore-at option')
  // one moment before each change: the creation of new.txt, the delete, the change, the two files' and the folder's creations
  expect(await moments.count()).toBe(6)
  // each moment said as the other pages say a time, to the second (several changes fall in one minute)
  for (const moment of await moments.allTextContents()) expect(moment).toMatch(/^Before \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \S+: /)
  await page.locator('#restore-at').selectOption({ index: 2 })
  await checkLooks(page, 'folder-history')
  await page.getByRole('button', { name: 'Restore the folder' }).click()
  await page.getByRole('status').filter({ hasText: 'Folder restored' }).waitFor()
  expect(await page.locator('.notice').textContent()).toBe(
    'Folder restored: 2 items put back as they were, 0 already were, 1 item made since deleted (it is in Recently deleted)',
  )
  expect(await text('/Notizen%20f%C3%BCr%20mich/shopping.txt')).toBe('milk, eggs')
  expect(await text('/Notizen%20f%C3%BCr%20mich/todo.txt')).toBe('call Ann')
  // created after that moment: deleted, a version kept (Recently deleted)
  expect((await app('GET', '/Notizen%20f%C3%BCr%20mich/new.txt')).status).toBe(404)
  await checkLooks(page, 'folder-restored')
  // a file's history, from its row: the versions the app and the restore left
  await page.getByRole('link', { name: '/Notizen für mich/shopping.txt' }).first().click()
  await page.getByRole('heading', { name: 'History of /Notizen für mich/shopping.txt' }).waitFor()
  expect(await page.getByRole('button', { name: /^Restore the version of \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \S+$/ }).count()).toBe(2)
  await checkLooks(page, 'file-history')
  await page.close()
})
