// Zip downloads in Chromium (issues 38 and 40): the owner downloads a folder, then a selection of it, from the
// dashboard's Files page; a stranger downloads the whole folder from a share link's page (sandboxed, downloads
// allowed). Each download event's file is a zip Info-ZIP reads, holding the folder's files byte for byte.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import type { Download, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { runSolopod } from '../e2e/start-server.ts'
import { ownerScript, type OwnerSend } from '../e2e/owner-script.ts'
import { unzipEntries } from '../unzip.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let owner: OwnerSend
const FOLDER = '/Trip%20to%20S%C3%A8te/'
const FILES: Record<string, string> = { 'beach day #1.txt': 'sand', 'menu + prices?.txt': '12 €', 'photos/50% off.txt': 'sale' }

const entriesOf = async (download: Download) => unzipEntries(new Uint8Array(await readFile((await download.path())!)))
const textOf = (entries: Map<string, Uint8Array>) =>
  Object.fromEntries([...entries].filter(([name]) => !name.endsWith('/')).map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]))
const downloading = (page: Page, click: () => Promise<void>) => Promise.all([page.waitForEvent('download'), click()]).then(([d]) => d)

beforeAll(async () => {
  pod = await startBrowserPod()
  owner = await ownerScript(pod)
  for (const [name, text] of Object.entries(FILES)) {
    const path = FOLDER + name.split('/').map(encodeURIComponent).join('/')
    expect((await owner('PUT', path, text, { 'content-type': 'text/plain' })).status).toBe(201)
  }
}, HOOK_TIMEOUT)
afterAll(() => pod?.dispose())

test('the owner downloads a folder, then two rows of it, from the Files page', async () => {
  const context = await newContext({ acceptDownloads: true })
  try {
    const page = await context.newPage()
    await signInToDashboard(page, pod.baseUrl)
    await page.goto(`${pod.baseUrl}/.admin/files?path=${encodeURIComponent(FOLDER)}`)
    const whole = await downloading(page, () => page.getByRole('link', { name: 'Download this folder as zip' }).click())
    expect(whole.suggestedFilename()).toBe('Trip to Sète.zip')
    expect(textOf(await entriesOf(whole))).toEqual(FILES)
    await page.getByRole('checkbox', { name: 'Select beach day #1.txt' }).check()
    await page.getByRole('checkbox', { name: 'Select photos' }).check()
    const some = await downloading(page, () => page.getByRole('button', { name: 'Download selected as zip' }).click())
    expect(textOf(await entriesOf(some))).toEqual({ 'beach day #1.txt': 'sand', 'photos/50% off.txt': 'sale' })
  } finally {
    await context.close()
  }
})

test("a stranger downloads the whole folder from a share link's page", async () => {
  const r = await runSolopod('links', 'add', '/Trip to Sète/', '--data', pod.dataDir)
  expect(r.code).toBe(0)
  const url = r.stdout.trim().split('\n')[1]!.slice('url='.length)
  const context = await newContext({ acceptDownloads: true })
  try {
    const page = await context.newPage()
    await page.goto(url)
    const zip = await downloading(page, () => page.getByRole('link', { name: 'Download all (zip)' }).click())
    expect(zip.suggestedFilename()).toBe('Trip to Sète.zip')
    expect(textOf(await entriesOf(zip))).toEqual(FILES)
  } finally {
    await context.close()
  }
})
