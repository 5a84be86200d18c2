// Issue 22 "Resumable uploads", in Chromium: the dashboard sends a large file as a resumable upload in chunks, and
// when the network fails midway it asks the pod for its offset and carries on from there.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const made = await page.evaluate(
    async u =>
      (
        await fetch(u, {
          method: 'PUT',
          headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'text/turtle' },
          body: '',
        })
      ).status,
    `${pod.baseUrl}/big/`,
  )
  expect(made).toBe(201)
}, HOOK_TIMEOUT)
const BYTES = randomBytes(9 * 1024 * 1024 + 3)
// The file is chosen from disk, as a person would: handed over as a buffer, Playwright sends its 9 MiB to the browser
// base64-encoded over the DevTools protocol, which took more than the action's 15 s on a loaded 2-core CI machine.
const picked = mkdtempSync(join(tmpdir(), 'solopod-resumable-'))
const FILE = join(picked, 'big film é.bin')
writeFileSync(FILE, BYTES)

afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  rmSync(picked, { recursive: true, force: true })
}, HOOK_TIMEOUT)

describe('dashboard: large files upload resumably', () => {
  test("a 9 MiB file goes up in chunks; after a connection reset it resumes from the pod's offset to the exact bytes", async () => {
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fbig%2F`)
    const seen: string[] = []
    let cut = false
    await page.route(`${pod.baseUrl}/.uploads/*`, route => {
      const method = route.request().method()
      const offset = route.request().headers()['upload-offset']
      seen.push(method === 'PATCH' ? `PATCH ${offset}` : method)
      // The second chunk's first attempt never reaches the pod: the network dropped.
      if (method === 'PATCH' && offset !== '0' && !cut) {
        cut = true
        return route.abort('connectionreset')
      }
      return route.continue()
    })
    await page.getByLabel('Files to upload').setInputFiles(FILE)
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    // Once it landed the page is loaded again with the pod's listing and its notice
    await page.locator('p.notice').filter({ hasText: 'Uploaded big film é.bin' }).waitFor()
    await page.getByRole('link', { name: 'big film é.bin', exact: true }).waitFor()
    const chunk = String(8 * 1024 * 1024)
    expect(seen).toEqual(['PATCH 0', `PATCH ${chunk}`, 'HEAD', `PATCH ${chunk}`])
    const digest = await page.evaluate(async u => {
      const res = await fetch(u, { headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! } })
      return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await res.arrayBuffer())))
        .map(b => b.toString(16).padStart(2, '0'))
        .join('')
    }, `${pod.baseUrl}/big/big%20film%20%C3%A9.bin`)
    expect(digest).toBe(createHash('sha256').update(BYTES).digest('hex'))
  })
})
