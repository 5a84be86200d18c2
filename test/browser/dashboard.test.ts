// The owner's dashboard in headless Chromium, as the owner uses it: sign in, upload with progress
// (throttled) and by drag and drop, open and edit a document (Cancel asks before it drops changes),
// share it with the public and a WebID and see the effect over plain HTTP, remove the share, delete
// with confirmation, apps and sessions, profile; every screen at desktop and phone width
// (test-artifacts/browser/dashboard-*.png).

import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { CookieJar, dpopProof, newDpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument } from '../e2e/oidc-client.ts'
import { OWNER_PASSWORD, dismissNextDialog, gotoLeavingUnsaved, newContext, watchWrites, screenshotBothWidths, signInAsOwner, startBrowserPod, tabTo, type RunningPod } from './harness.ts'

let pod: RunningPod
let context: BrowserContext
let page: Page
const problems: string[] = []

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  page = await context.newPage()
  // A CSP violation or an uncaught error is a failure of the page, whatever the test checks
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4(0[01349]|12|22)/.test(m.text())) problems.push(m.text()) })
  page.on('pageerror', (e) => problems.push(String(e)))
})
afterAll(async () => { await context?.close(); await pod?.dispose() })

/** Both widths of the current screen, and nothing to scroll sideways on the phone. */
async function shoot(name: string): Promise<void> {
  expect(await screenshotBothWidths(page, `dashboard-${name}`)).toBe(0)
}

const anonymous = (path: string) => fetch(pod.baseUrl + path)
const status = () => page.locator('#status').textContent()

describe('the owner dashboard in a real browser', () => {
  test('signing in from /.admin/ lands on the files of the pod', async () => {
    await page.goto(`${pod.baseUrl}/.admin/`)
    expect(page.url()).toContain('/.oidc/login?return=/.admin/')
    await signInAsOwner(page)
    await page.waitForURL(`${pod.baseUrl}/.admin/`)
    await page.getByRole('link', { name: 'profile/' }).waitFor()
    expect(await page.locator('h2').first().textContent()).toBe('Your files')
    await tabTo(page, 'a[href="#/profile"]')
    await shoot('files')
  }, 60_000)

  test('a new folder, then an upload whose progress bar moves, and a file dropped on the drop zone', async () => {
    await page.getByLabel('Folder name').fill('notes')
    await page.getByRole('button', { name: 'Create folder' }).click()
    await page.waitForFunction(() => location.hash === '#/files/notes/')
    await page.getByText('This folder is empty').waitFor()
    // Every value the bar takes; the upload throttled to 1 MB/s (Chromium's network emulation), so the
    // 3 MB take seconds and the bar must move before the end (onload alone sets 100)
    await page.locator('#upload-progress').evaluate((bar: HTMLProgressElement) => {
      const seen: number[] = []
      Object.assign(window, { progressSeen: seen })
      new MutationObserver(() => { seen.push(bar.value) }).observe(bar, { attributes: true, attributeFilter: ['value'] })
    })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 })
    const big = Buffer.alloc(3 * 1024 * 1024, 'a')
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'big.txt', mimeType: 'text/plain', buffer: big }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'big.txt', exact: true }).waitFor()
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    await cdp.detach()
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen)
    const firstBetween = seen.findIndex((v) => v > 0 && v < 100)
    expect(firstBetween).toBeGreaterThanOrEqual(0)
    expect(firstBetween).toBeLessThan(seen.indexOf(100))
    expect(seen.at(-1)).toBe(100)
    expect(await page.locator('#upload-note').textContent()).toBe('Uploading big.txt: 3.0 MB of 3.0 MB')
    expect(await status()).toBe('Uploaded big.txt')
    const row = page.getByRole('row', { name: /big\.txt/ })
    expect(await row.textContent()).toContain('3.0 MB')
    const ttl = '@prefix foaf: <http://xmlns.com/foaf/0.1/>.\n<#it> foaf:name "hello"; foaf:knows <../profile/card#me>.\n'
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'todo.ttl', mimeType: 'text/turtle', buffer: Buffer.from(ttl) }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).waitFor()
    expect(await (await anonymous('/notes/big.txt')).status).toBe(401) // private until shared
    // the same name again: replacing asks first, and "no" keeps the old file
    page.once('dialog', (d) => { expect(d.message()).toContain('"big.txt" already exists'); void d.dismiss() })
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('small') }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.locator('#upload-report').getByText('big.txt was not uploaded: a file of that name exists').waitFor()
    expect(await status()).toBe('big.txt was not uploaded: a file of that name exists')
    expect(await page.getByRole('row', { name: /big\.txt/ }).textContent()).toContain('3.0 MB')
    // a file dropped on the drop zone is uploaded as a chosen one
    await page.locator('#drop-zone').evaluate((zone) => {
      const data = new DataTransfer()
      data.items.add(new File(['dropped here'], 'dropped.txt', { type: 'text/plain' }))
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
    })
    await page.getByRole('link', { name: 'dropped.txt', exact: true }).waitFor()
    expect(await status()).toBe('Uploaded dropped.txt')
    expect(await page.getByRole('row', { name: /dropped\.txt/ }).textContent()).toContain('12 B')
    await shoot('folder')
  }, 60_000)

  test('a file opens with its size and a Download link that saves it through the owner\'s download route, its bytes whole', async () => {
    let fetchedBytes = 0
    const count = (r: import('playwright-core').Response) => { if (r.url().endsWith('/notes/big.txt')) void r.body().then((b) => { fetchedBytes += b.length }, () => {}) }
    page.on('response', count)
    await page.getByRole('link', { name: 'big.txt', exact: true }).click()
    const link = page.getByRole('link', { name: 'Download (3.0 MB)' })
    await link.waitFor()
    expect(await link.getAttribute('href')).toBe('/.admin/files/download?path=%2Fnotes%2Fbig.txt')
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe('big.txt')
    const saved = readFileSync((await download.path())!)
    expect(saved.length).toBe(3 * 1024 * 1024)
    expect(saved.every((b) => b === 0x61)).toBe(true)
    page.off('response', count)
    // Opening the file did not download it: only the link does
    expect(fetchedBytes).toBeLessThan(3 * 1024 * 1024)
    await page.goto(`${pod.baseUrl}/.admin/#/files/notes/`)
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).waitFor()
  }, 60_000)

  test('an RDF document reads as Turtle with its prefixes and IRIs as links', async () => {
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).click()
    const pre = page.locator('pre.rdf')
    await pre.waitFor()
    expect(await pre.textContent()).toContain('@prefix foaf: <http://xmlns.com/foaf/0.1/>')
    // a pod IRI opens in the dashboard, an outside IRI as a plain link
    expect(await pre.getByRole('link', { name: '<../profile/card#me>' }).getAttribute('href')).toBe('#/files/profile/card')
    expect(await pre.getByRole('link', { name: 'foaf:name' }).getAttribute('href')).toBe('http://xmlns.com/foaf/0.1/name')
    await shoot('document')
  })

  test('editing: a syntax error is shown at its line and nothing is saved', async () => {
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "broken.\n')
    await page.getByRole('button', { name: 'Save' }).click()
    const problem = page.locator('#rdf-problem')
    await problem.getByText(/Line 2/).waitFor()
    expect(await problem.textContent()).toContain('syntax error at line 2')
    await shoot('edit-error')
    const saved = await page.evaluate((u) => fetch(u, { headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! } }).then((r) => r.text()), `${pod.baseUrl}/notes/todo.ttl`)
    expect(saved).toContain('"hello"')
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "edited".\n')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved todo.ttl').waitFor()
    expect(await page.locator('pre.rdf').textContent()).toContain('"edited"')
  })

  test('editing: Cancel asks before it drops changes, and not when nothing changed', async () => {
    const asked: string[] = []
    const answer = (accept: boolean) => page.once('dialog', (d) => { asked.push(d.message()); void (accept ? d.accept() : d.dismiss()) })
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "not kept".\n')
    answer(false)
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(asked).toEqual(['Discard your changes to todo.ttl? They have not been saved.'])
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"not kept"')
    answer(true)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('pre.rdf').waitFor()
    expect(asked).toHaveLength(2)
    expect(await page.locator('pre.rdf').textContent()).toContain('"edited"')
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('pre.rdf').waitFor()
    expect(asked).toHaveLength(2)
  })

  test('share with the public and a WebID, see it over HTTP, then remove the share', async () => {
    await page.goto(`${pod.baseUrl}/.admin/#/share/notes/big.txt`)
    await page.getByText('Inherited from /').waitFor()
    await page.getByRole('button', { name: 'Set access for this item only' }).click()
    await page.getByLabel('Who', { exact: true }).selectOption('public')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByLabel('Who', { exact: true }).selectOption('agent')
    await page.getByLabel('WebID, group or key URL').fill('https://alice.example/profile/card#me')
    await page.getByRole('checkbox', { name: 'Write' }).check()
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    await shoot('share')
    const pub = await anonymous('/notes/big.txt')
    expect(pub.status).toBe(200)
    expect(pub.headers.get('wac-allow')).toContain('public="read"')
    const acl = await page.evaluate((u) => fetch(u, { headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! } }).then((r) => r.text()), `${pod.baseUrl}/notes/big.txt.acl`)
    expect(acl).toContain('<https://alice.example/profile/card#me>')
    expect(acl).toMatch(/acl:accessTo <big\.txt>;\s*acl:agent <https:\/\/alice\.example\/profile\/card#me>;\s*acl:mode acl:Read, acl:Write\./)

    // "why may the public read it?": the server's decision names the rule
    await page.getByLabel('Agent: a WebID, a key URL, or "public"').fill('public')
    await page.getByRole('button', { name: 'Check access' }).click()
    const why = page.locator('#check-answer')
    await why.getByText('public may: read').waitFor()
    expect(await why.textContent()).toContain(`read: rule ${pod.baseUrl}/notes/big.txt.acl#rule2 of ${pod.baseUrl}/notes/big.txt.acl`)
    await shoot('share-why')

    await page.getByRole('button', { name: 'Remove access of Everyone (public)' }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect((await anonymous('/notes/big.txt')).status).toBe(401)
  }, 60_000)

  test("the owner's Control of the root cannot be removed: the server's refusal is shown", async () => {
    await page.goto(`${pod.baseUrl}/.admin/#/share/`)
    const remove = page.getByRole('button', { name: /^Remove access of .*profile\/card#me$/ })
    await remove.first().waitFor()
    const count = await remove.count()
    for (let i = 0; i < count; i++) await remove.first().click()
    page.once('dialog', (d) => { void d.accept() }) // "you will no longer have Control…: save anyway?"
    await page.getByLabel('Who', { exact: true }).selectOption('public')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    const alert = page.locator('#status[role="alert"]')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('409 owner_lockout')
    await shoot('share-refused')
  })

  test('delete asks first; dismissing keeps the file, accepting removes it', async () => {
    // the refused Save above left the root's access unsaved: going on asks first
    expect(await gotoLeavingUnsaved(page, `${pod.baseUrl}/.admin/#/files/notes/`)).toBe('The access you added or removed is not saved. Leave and lose it?')
    await page.getByRole('link', { name: 'big.txt', exact: true }).waitFor()
    const writes = watchWrites(page)
    const dismissed = dismissNextDialog(page)
    await page.getByRole('button', { name: 'Delete big.txt' }).click()
    expect(await dismissed).toContain('big.txt')
    expect(await page.getByRole('link', { name: 'big.txt', exact: true }).count()).toBe(1)
    page.once('dialog', (d) => { void d.accept() })
    await page.getByRole('button', { name: 'Delete big.txt' }).click()
    await page.getByText('Deleted big.txt').waitFor()
    expect(await page.getByRole('link', { name: 'big.txt', exact: true }).count()).toBe(0)
    // One write, the accepted delete's (into the trash): the dismissed one sent none (it would have gone before the second click)
    expect(writes.end()).toEqual(['POST /.admin/api/trash'])
  })

  test('apps and sessions: an approved app is listed; revoking it makes its token refused', async () => {
    // An app signs in over HTTP (its Client ID Document on loopback) and reads a private document
    const client = serveClientIdDocument('Notes App')
    try {
      const key = await newDpopKey()
      const tokens = await exchangeCode(pod.baseUrl, client, key, await obtainCodeOverHttp(pod.baseUrl, client, new CookieJar(), OWNER_PASSWORD))
      const read = async () => fetch(`${pod.baseUrl}/notes/todo.ttl`, { headers: {
        authorization: `DPoP ${tokens.access_token}`, dpop: await dpopProof(key, 'GET', `${pod.baseUrl}/notes/todo.ttl`, Date.now(), { accessToken: String(tokens.access_token) }) } })
      expect((await read()).status).toBe(200)

      await page.getByRole('link', { name: 'Apps and sessions' }).click()
      await page.getByText('(this browser)').waitFor()
      await page.getByRole('button', { name: 'Revoke Notes App' }).waitFor()
      await shoot('apps')
      page.once('dialog', (d) => { expect(d.message()).toContain('Notes App'); void d.accept() })
      await page.getByRole('button', { name: 'Revoke Notes App' }).click()
      await page.getByText('No apps approved yet').waitFor()
      const refused = await read()
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toContain('invalid_token')
    } finally { client.stop() }
  }, 60_000)

  test('grants on an http pod: the panel says they need https, and the refusal says how to get it', async () => {
    await page.getByRole('link', { name: 'Grants' }).click()
    await page.locator('#grants-need-https').waitFor()
    await page.getByLabel('Grantee').fill('https://bob.example/profile/card#me')
    await page.getByLabel('Folder (data registration)').fill('/notes/')
    await page.getByLabel('Shape tree').fill('https://shapes.example/trees#Note')
    await page.getByRole('button', { name: 'Create grant' }).click()
    const general = page.locator('#grant-form-error')
    await general.waitFor()
    expect(await general.textContent()).toContain("/dataOwner: expected the owner of the data (this pod's owner): an https URL")
    expect(await general.textContent()).toContain('Grants need an https base URL')
    expect(await page.locator('#grant-grantee-error').isHidden()).toBe(true)
    expect(await page.locator('#grant-registration-error').textContent()).toBe('Folder: expected the data registration (container) holding the instances: an https URL')
    expect(await page.getByText('No grants yet').count()).toBe(1)
  })

  test('profile: the name saved is in the public WebID document', async () => {
    await page.getByRole('link', { name: 'Profile' }).click()
    await page.getByLabel('Name').fill('Ada Lovelace')
    await page.getByLabel('About you').fill('Writes "notes" on engines')
    await page.getByLabel('Picture (image URL)').fill(`${pod.baseUrl}/profile/ada.png`)
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Profile saved').waitFor()
    // the picture may be anyone's: its site is not told where the dashboard is
    expect(await page.getByRole('img', { name: 'Your picture' }).getAttribute('referrerpolicy')).toBe('no-referrer')
    const card = await (await fetch(`${pod.baseUrl}/profile/card`, { headers: { accept: 'text/turtle' } })).text()
    expect(card).toContain('"Ada Lovelace"')
    expect(card).toContain('Writes \\"notes\\" on engines')
    await shoot('profile')
    expect(problems).toEqual([])
  })
})
