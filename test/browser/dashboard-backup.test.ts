// Issue 13 "Backup": the owner downloads a backup from the dashboard (a real download in Chromium),
// imports it with the real `solopod import` into a fresh data directory, and the restored pod serves
// the same documents, files and access rules over HTTP. The "last backup" line survives a restart.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshot, signInAsOwner, startBrowserPod, type RunningPod } from './harness.ts'
import { freePort, runSolopod, startPod } from '../e2e/start-server.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let restored: RunningPod | undefined
let context: BrowserContext
let page: Page
const work = mkdtempSync(join(tmpdir(), 'solopod-backup-'))

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ acceptDownloads: true })
  page = await context.newPage()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await Promise.all([pod?.dispose(), restored?.dispose()])
  rmSync(work, { recursive: true, force: true })
}, HOOK_TIMEOUT)

/** A request from the dashboard page, as its script makes them (owner cookie + CSRF token). */
const asOwner = (p: Page, url: string, init: { method?: string; type?: string; body?: string } = {}) =>
  p.evaluate(
    async ([u, i]) => {
      const res = await fetch(u!, {
        method: i!.method ?? 'GET',
        headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, ...(i!.type ? { 'content-type': i!.type } : {}) },
        ...(i!.body !== undefined ? { body: i!.body } : {}),
      })
      return { status: res.status, text: await res.text() }
    },
    [url, init] as const,
  )

async function signIn(p: Page, base: string): Promise<void> {
  await p.goto(`${base}/.admin/`)
  await signInAsOwner(p)
  await p.waitForURL(`${base}/.admin/`)
  await p.getByRole('link', { name: 'profile/' }).first().waitFor()
}

const PUBLIC_ACL = (base: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${base}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.
`

describe('backup from the dashboard, restored with solopod import', () => {
  test('the panel says no backup was made yet', async () => {
    await signIn(page, pod.baseUrl)
    await page.getByRole('link', { name: 'Backup' }).click()
    expect(await page.locator('#last-backup').textContent()).toBe('No backup has been made of this pod yet.')
  })

  test('download, import into a fresh pod: documents, files and ACLs match', async () => {
    const b = pod.baseUrl
    expect((await asOwner(page, `${b}/pub/`, { method: 'PUT', type: 'text/turtle', body: '' })).status).toBe(201)
    expect((await asOwner(page, `${b}/pub/.acl`, { method: 'PUT', type: 'text/turtle', body: PUBLIC_ACL(b) })).status).toBe(201)
    expect(
      (
        await asOwner(page, `${b}/pub/note.ttl`, {
          method: 'PUT',
          type: 'text/turtle',
          body: `<#it> <http://purl.org/dc/terms/title> "public note"; <http://xmlns.com/foaf/0.1/maker> <${b}/profile/card#me>.`,
        })
      ).status,
    ).toBe(201)
    expect((await asOwner(page, `${b}/private/secret.txt`, { method: 'PUT', type: 'text/plain', body: 'only mine' })).status).toBe(201)

    await page.getByRole('link', { name: 'Backup' }).click()
    await page.getByRole('button', { name: 'Download a backup' }).waitFor()
    await screenshot(page, 'dashboard-backup-desktop')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()])
    expect(download.suggestedFilename()).toMatch(/^solopod-backup-\d{8}T\d{6}Z\.tar\.gz$/)
    const file = join(work, download.suggestedFilename())
    await download.saveAs(file)
    expect(statSync(file).size).toBeGreaterThan(1000)
    // the page learns that the backup was made
    await page.locator('#last-backup', { hasText: 'downloaded here' }).waitFor({ timeout: 20_000 })

    // a fresh pod at another port (another base URL): import rewrites the IRIs
    const port = await freePort()
    const dataDir = join(work, 'restored')
    const imported = await runSolopod('import', file, '--data', dataDir, '--base-url', `http://localhost:${port}`)
    expect(imported.stderr).toBe('')
    expect(imported.code).toBe(0)
    restored = await startPod({ dataDir, port })
    const r = restored.baseUrl
    // public: readable by anyone, same content (with the new base URL)
    const note = await fetch(`${r}/pub/note.ttl`, { headers: { accept: 'text/turtle' } })
    expect(note.status).toBe(200)
    const noteText = await note.text()
    expect(noteText).toContain('"public note"')
    expect(noteText).toContain(`@base <${r}/pub/note.ttl>`)
    expect(noteText).toContain('foaf:maker <../profile/card#me>')
    expect(note.headers.get('wac-allow')).toContain('public="read"')
    // private stays private
    expect((await fetch(`${r}/private/secret.txt`)).status).toBe(401)
    // the owner (same password: the account came along) reads the private file and the same ACL
    const other = await newContext()
    try {
      const p2 = await other.newPage()
      await signIn(p2, r)
      expect(await asOwner(p2, `${r}/private/secret.txt`)).toEqual({ status: 200, text: 'only mine' })
      const [before, after] = [await asOwner(page, `${b}/pub/.acl`), await asOwner(p2, `${r}/pub/.acl`)]
      expect(after.status).toBe(200)
      expect(after.text).toBe(before.text.replaceAll(b, r))
      expect(after.text).toContain('acl:agentClass foaf:Agent')
      // and a restored pod has made no backup of its own yet
      await p2.getByRole('link', { name: 'Backup' }).click()
      expect(await p2.locator('#last-backup').textContent()).toBe('No backup has been made of this pod yet.')
    } finally {
      await other.close()
    }
  }, 120_000)

  test('the last backup is remembered across a restart', async () => {
    await pod.restart()
    // the login session is kept too: straight to the panel
    await page.goto(`${pod.baseUrl}/.admin/backup`)
    await page.locator('#last-backup').waitFor()
    expect(await page.locator('#last-backup').textContent()).toMatch(/^Your last backup was made .+ \(downloaded here, \d+ resources\)\.$/)
  }, 60_000)
})
