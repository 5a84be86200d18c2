// Share links in Chromium (issue 38): a stranger in a fresh browser, at phone width, opens a folder link, sees the
// list, opens a photo whose preview shows under the links' CSP sandbox, downloads it; then drops two files through
// an upload-only link's form (a sandboxed page may still post it). Screenshots in test-artifacts/browser/.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { HOOK_TIMEOUT, PHONE, horizontalOverflow, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { runSolopod } from '../e2e/start-server.ts'
import { ownerScript, type OwnerSend } from '../e2e/owner-script.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let owner: OwnerSend
/** A 1×1 PNG: enough for the browser to decode and show. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

async function addLink(...args: string[]): Promise<string> {
  const r = await runSolopod('links', 'add', ...args, '--data', pod.dataDir)
  expect(r.code).toBe(0)
  return r.stdout.trim().split('\n')[1]!.slice('url='.length)
}

beforeAll(async () => {
  pod = await startBrowserPod()
  owner = await ownerScript(pod)
  expect((await owner('PUT', '/Trip%20to%20S%C3%A8te/beach%20day.png', PNG, { 'content-type': 'image/png' })).status).toBe(201)
  expect((await owner('PUT', '/inbox/readme.txt', 'here already', { 'content-type': 'text/plain' })).status).toBe(201)
}, HOOK_TIMEOUT)
afterAll(() => pod?.dispose())

test('a stranger opens a folder link on a phone and sees the photo', async () => {
  const url = await addLink('/Trip to Sète/', '--name', 'for Anna')
  const context = await newContext({ viewport: PHONE })
  try {
    const page = await context.newPage()
    const res = await page.goto(url)
    expect(res!.status()).toBe(200)
    expect(await page.locator('h1').textContent()).toBe('Trip to Sète')
    await page.getByRole('link', { name: 'beach day.png' }).click()
    await page.waitForSelector('img')
    // Decoded under the page's sandbox: a broken image has no natural width
    expect(await page.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1)
    expect(await horizontalOverflow(page)).toBe(0)
    await screenshot(page, 'share-link-photo-phone')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download/ }).click()])
    expect(download.suggestedFilename()).toBe('beach day.png')
  } finally {
    await context.close()
  }
})

test('a stranger drops two files through an upload-only link', async () => {
  const url = await addLink('/inbox/', '--upload-only', '--name', 'Send me your photos')
  const context = await newContext({ viewport: PHONE })
  try {
    const page = await context.newPage()
    await page.goto(url)
    expect(await page.content()).not.toContain('readme.txt')
    await page.setInputFiles('input[type=file]', [
      { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('first') },
      { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('second') },
    ])
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.waitForSelector('.notice')
    expect(await page.locator('.notice').textContent()).toBe('Your 2 files were received.')
    await screenshot(page, 'share-link-drop-phone')
    expect(await (await owner('GET', '/inbox/two.txt')).text()).toBe('second')
  } finally {
    await context.close()
  }
})

test("a stranger types a folder link's password, then sees the photo and downloads it (the cookie follows the sandboxed pages)", async () => {
  const file = `${pod.dataDir}/../link-password-${Date.now()}`
  await Bun.write(file, 'open sesame\n')
  const url = await addLink('/Trip to Sète/', '--password-file', file)
  const context = await newContext({ viewport: PHONE })
  try {
    const page = await context.newPage()
    const first = await page.goto(url)
    expect(first!.status()).toBe(401)
    await page.fill('input[name=link-password]', 'wrong')
    await page.getByRole('button', { name: 'Open' }).click()
    expect(await page.locator('#error').textContent()).toBe('link_password_wrong')
    await page.fill('input[name=link-password]', 'open sesame')
    await page.getByRole('button', { name: 'Open' }).click()
    expect(await page.locator('h1').textContent()).toBe('Trip to Sète')
    await page.getByRole('link', { name: 'beach day.png' }).click()
    await page.waitForSelector('img')
    expect(await page.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1)
    await screenshot(page, 'share-link-password-photo-phone')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download/ }).click()])
    expect(download.suggestedFilename()).toBe('beach day.png')
  } finally {
    await context.close()
  }
})
