// The owner's dashboard in headless Chromium, as the owner uses it, on the pod's own pages (/.admin/files,
// /.admin/files/view, /.admin/files/edit, /.admin/share, /.admin/sessions, /.admin/grants, /.admin/profile)
// with the script's enhancements: sign in, upload with progress (throttled) and by drag and drop, open a
// file and download it, read a Turtle document with its IRIs as links, edit it (a syntax error named at its
// line; leaving asks before it drops changes), share it with the public and a WebID and see the effect over
// plain HTTP, remove the share, the owner's own Control refused, delete behind a confirmation page, apps and
// sessions, grants on http, profile; every screen at desktop and phone width (test-artifacts/browser/dashboard-*.png).

import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { CookieJar, dpopProof, newDpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument } from '../e2e/oidc-client.ts'
import type { Dialog } from 'playwright-core'
import {
  DESKTOP,
  OWNER_PASSWORD,
  PHONE,
  newContext,
  watchWrites,
  screenshotBothWidths,
  signInAsOwner,
  startBrowserPod,
  tabTo,
  type RunningPod,
} from './harness.ts'
import { contrastFailures, splitOptions, unlabelledControls } from './page-checks.ts'

let pod: RunningPod
/** A person the owner shares with: a profile document on loopback that describes her WebID. */
let aliceServer: ReturnType<typeof Bun.serve>
let alice: string
let context: BrowserContext
let page: Page
const problems: string[] = []

beforeAll(async () => {
  pod = await startBrowserPod()
  aliceServer = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response('<#me> a <http://xmlns.com/foaf/0.1/Person>.', { headers: { 'content-type': 'text/turtle' } }),
  })
  alice = `http://127.0.0.1:${aliceServer.port}/profile/card#me`
  context = await newContext()
  page = await context.newPage()
  // A CSP violation or an uncaught error is a failure of the page, whatever the test checks
  page.on('console', m => {
    if (m.type() === 'error' && !/status of 4(0[01349]|12|22)/.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', e => problems.push(String(e)))
})
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  void aliceServer?.stop()
})

/** Both widths of the current screen, and nothing to scroll sideways on the phone. */
async function shoot(name: string): Promise<void> {
  expect(await screenshotBothWidths(page, `dashboard-${name}`)).toBe(0)
}

const anonymous = (path: string) => fetch(pod.baseUrl + path)
const status = () => page.locator('#status').textContent()
const notice = () => page.locator('p.notice').textContent()
const files = (path: string) => `${pod.baseUrl}/.admin/files?path=${encodeURIComponent(path)}`
/** As the dashboard's script calls the pod: the owner's cookie and the page's CSRF token. */
const asOwner = (url: string) =>
  page.evaluate(u => fetch(u, { headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! } }).then(r => r.text()), url)
/** Answers the next dialog (accept or dismiss) and resolves with it. */
const nextDialog = (accept: boolean) =>
  new Promise<Dialog>(resolve =>
    page.once('dialog', d => {
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(d))
    }),
  )
/** Nothing unlabelled, nothing hard to read, in light and in dark. */
async function readable(): Promise<void> {
  expect(await unlabelledControls(page)).toEqual([])
  expect(await contrastFailures(page)).toEqual([])
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await contrastFailures(page)).toEqual([])
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('the owner dashboard in a real browser', () => {
  test('signing in from /.admin/ lands on the files of the pod', async () => {
    await page.goto(`${pod.baseUrl}/.admin/`)
    expect(page.url()).toContain('/.oidc/login?return=/.admin/')
    await signInAsOwner(page)
    await page.waitForURL(`${pod.baseUrl}/.admin/`)
    await page.getByRole('link', { name: 'profile/', exact: true }).waitFor()
    expect(await page.locator('h1').textContent()).toBe('Your files')
    await tabTo(page, 'a[href="/.admin/profile"]')
    await readable()
    await shoot('files')
  }, 60_000)

  test('a new folder, then an upload whose progress bar moves, and a file dropped on the drop zone', async () => {
    await page.getByLabel('Folder name').fill('notes')
    await page.getByRole('button', { name: 'Create folder' }).click()
    await page.waitForURL(files('/notes/') + '&done=folder&name=notes')
    expect(await notice()).toBe('Created the folder notes')
    await page.getByText('This folder is empty').waitFor()
    // Every value the bar takes, and the last words beside it, kept in sessionStorage: once the file has
    // landed the page loads the folder again. The upload is throttled to 1 MB/s (Chromium's network
    // emulation), so the 3 MB take seconds and the bar must move before the end (onload alone sets 100)
    await page.locator('#upload-progress').evaluate((bar: HTMLProgressElement) => {
      const seen: number[] = []
      const note = document.getElementById('upload-note')!
      new MutationObserver(() => {
        seen.push(bar.value)
        sessionStorage.setItem('progressSeen', JSON.stringify(seen))
      }).observe(bar, { attributes: true, attributeFilter: ['value'] })
      new MutationObserver(() => {
        sessionStorage.setItem('noteSeen', note.textContent ?? '')
      }).observe(note, { childList: true, characterData: true, subtree: true })
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
    const seen = JSON.parse(await page.evaluate(() => sessionStorage.getItem('progressSeen') ?? '[]')) as number[]
    const firstBetween = seen.findIndex(v => v > 0 && v < 100)
    expect(firstBetween).toBeGreaterThanOrEqual(0)
    expect(firstBetween).toBeLessThan(seen.indexOf(100))
    expect(seen.at(-1)).toBe(100)
    expect(await page.evaluate(() => sessionStorage.getItem('noteSeen'))).toBe('Uploading big.txt: 3.0\u00a0MB of 3.0\u00a0MB')
    // the folder, loaded again by the pod, with what landed said
    expect(await notice()).toBe('Uploaded big.txt')
    const row = page.getByRole('row', { name: /big\.txt/ })
    expect(await row.textContent()).toContain('3.0\u00a0MB')
    const ttl = '@prefix foaf: <http://xmlns.com/foaf/0.1/>.\n<#it> foaf:name "hello"; foaf:knows <../profile/card#me>.\n'
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'todo.ttl', mimeType: 'text/turtle', buffer: Buffer.from(ttl) }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).waitFor()
    expect(await (await anonymous('/notes/big.txt')).status).toBe(401) // private until shared
    // the same name again: the old file is kept, the new one gets a number before its extension
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('small') }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'big (2).txt', exact: true }).waitFor()
    expect(await notice()).toBe('Uploaded big (2).txt (a file of that name was already here, so the new one got a number)')
    expect(await page.getByRole('row', { name: /big\.txt/ }).textContent()).toContain('3.0\u00a0MB')
    expect(await page.getByRole('row', { name: /big \(2\)\.txt/ }).textContent()).toContain('5\u00a0B')
    expect(await asOwner(`${pod.baseUrl}/notes/big.txt`)).toHaveLength(3 * 1024 * 1024)
    // many files at once end with one line, not their names
    await page
      .getByLabel('Files to upload')
      .setInputFiles(['1', '2', '3', '4'].map(n => ({ name: `many-${n}.txt`, mimeType: 'text/plain', buffer: Buffer.from('x'.repeat(1024)) })))
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByRole('link', { name: 'many-4.txt', exact: true }).waitFor()
    expect(await notice()).toBe('4 files uploaded to notes\u00a0· 4.0\u00a0KB')
    await shoot('many-uploaded')
    // a file dropped on the drop zone is uploaded as a chosen one
    await page.locator('#drop-zone').evaluate(zone => {
      const data = new DataTransfer()
      data.items.add(new File(['dropped here'], 'dropped.txt', { type: 'text/plain' }))
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
    })
    await page.getByRole('link', { name: 'dropped.txt', exact: true }).waitFor()
    expect(await notice()).toBe('Uploaded dropped.txt')
    expect(await page.getByRole('row', { name: /dropped\.txt/ }).textContent()).toContain('12\u00a0B')
    await readable()
    await shoot('folder')
  }, 60_000)

  test("a file opens with its size and a Download link that saves it through the owner's download route, its bytes whole", async () => {
    let viewBytes = -1
    const count = (r: import('playwright-core').Response) => {
      if (r.url().includes('/.admin/files/view?'))
        void r.body().then(
          b => {
            viewBytes = b.length
          },
          () => {},
        )
    }
    page.on('response', count)
    await page.getByRole('link', { name: 'big.txt', exact: true }).click()
    await page.waitForURL(`${pod.baseUrl}/.admin/files/view?path=%2Fnotes%2Fbig.txt`)
    expect(await page.locator('h1').textContent()).toBe('big.txt')
    expect(await page.locator('.dash-body p.muted').first().textContent()).toBe('text/plain\u00a0· 3.0\u00a0MB')
    const link = page.getByRole('link', { name: 'Download', exact: true })
    expect(await link.getAttribute('href')).toBe('/.admin/files/download?path=%2Fnotes%2Fbig.txt')
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe('big.txt')
    const saved = readFileSync((await download.path())!)
    expect(saved.length).toBe(3 * 1024 * 1024)
    expect(saved.every(b => b === 0x61)).toBe(true)
    page.off('response', count)
    // Opening the file did not download it: the page says it is too long to show, only the link downloads
    expect(viewBytes).toBeGreaterThan(0)
    expect(viewBytes).toBeLessThan(100_000)
    await page.getByText('This text is too long to show here').waitFor()
    await page.getByRole('link', { name: 'Back to the folder' }).click()
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).waitFor()
  }, 60_000)

  test('an RDF document reads as Turtle with its prefixes and IRIs as links', async () => {
    await page.getByRole('link', { name: 'todo.ttl', exact: true }).click()
    const pre = page.locator('pre.rdf')
    await pre.waitFor()
    // the resource server's Turtle (its own layout), the prefix as the document declared it
    expect(await pre.textContent()).toContain('@prefix foaf: <http://xmlns.com/foaf/0.1/>.')
    expect(await pre.textContent()).toContain('foaf:name "hello"')
    // a pod IRI opens in the dashboard, an outside IRI as a plain link that tells its site nothing
    const card = pre.getByRole('link', { name: '<../profile/card#me>' })
    expect(await card.getAttribute('href')).toBe('/.admin/files/view?path=%2Fprofile%2Fcard')
    const name = pre.getByRole('link', { name: 'foaf:name' })
    expect(await name.getAttribute('href')).toBe('http://xmlns.com/foaf/0.1/name')
    expect(await name.getAttribute('rel')).toBe('noreferrer noopener')
    await readable()
    await shoot('document')
    await card.click()
    expect(await page.locator('h1').textContent()).toBe('card')
    await page.goBack()
    await pre.waitFor()
  })

  test('editing: a syntax error is shown at its line and nothing is saved', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "broken.\n')
    // said while typing (the script asks the pod's parser), and again by the save itself
    await page
      .locator('#rdf-check')
      .getByText(/^Line 2: /)
      .waitFor()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('#bad-line').waitFor()
    expect(await page.locator('#bad-line').textContent()).toBe('Line 2: <#it> ex:says "broken.')
    expect(await page.locator('#edit-problem').textContent()).toMatch(/line 2/i)
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"broken.')
    await readable()
    await shoot('edit-error')
    expect(await asOwner(`${pod.baseUrl}/notes/todo.ttl`)).toContain('"hello"')
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "edited".\n')
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await notice()).toBe('Saved')
    await page.getByRole('link', { name: 'View', exact: true }).click()
    expect(await page.locator('pre.rdf').textContent()).toContain('"edited"')
  })

  test('editing: leaving asks before it drops changes, and not when nothing changed', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByLabel('Turtle').fill('@prefix ex: <http://example.org/>.\n<#it> ex:says "not kept".\n')
    const edit = page.url()
    let asked = nextDialog(false)
    void page
      .getByRole('link', { name: 'Cancel' })
      .click()
      .catch(() => undefined)
    expect((await asked).type()).toBe('beforeunload')
    expect(page.url()).toBe(edit)
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"not kept"')
    asked = nextDialog(true)
    await page.getByRole('link', { name: 'Cancel' }).click()
    await asked
    await page.waitForURL(files('/notes/'))
    expect(await asOwner(`${pod.baseUrl}/notes/todo.ttl`)).toContain('"edited"')
    let dialogs = 0
    const counted = (d: Dialog) => {
      dialogs++
      void d.dismiss()
    }
    page.on('dialog', counted)
    await page.getByRole('link', { name: 'Edit todo.ttl' }).click()
    await page.getByLabel('Turtle').click()
    await page.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL(files('/notes/'))
    page.off('dialog', counted)
    expect(dialogs).toBe(0)
  })

  test('share with the public and a WebID, see it over HTTP, then remove the share', async () => {
    await page.goto(`${pod.baseUrl}/.admin/share?path=${encodeURIComponent('/notes/big.txt')}`)
    await page.getByRole('heading', { name: 'Inherited from /' }).waitFor()
    await page.getByLabel('Who', { exact: true }).selectOption('public')
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    expect(await notice()).toBe('Shared')
    // a WebID is read before it is shared with: one nobody answers for is refused, nothing shared
    const shareWith = async (webid: string) => {
      await page.getByLabel('Who', { exact: true }).selectOption('agent')
      await page.getByLabel('Their WebID (or the group or key URL)').fill(webid)
      await page.getByRole('checkbox', { name: 'Change' }).check()
      await page.getByRole('button', { name: 'Share', exact: true }).click()
    }
    await shareWith('https://alice.example/profile/card#me')
    expect(await page.locator('#error').textContent()).toBe('webid_not_found')
    await page.goto(`${pod.baseUrl}/.admin/share?path=${encodeURIComponent('/notes/big.txt')}`)
    expect(await asOwner(`${pod.baseUrl}/notes/big.txt.acl`)).not.toContain('alice')
    await shareWith(alice)
    expect(await notice()).toBe('Shared')
    await readable()
    await shoot('share')
    const pub = await anonymous('/notes/big.txt')
    expect(pub.status).toBe(200)
    expect(pub.headers.get('wac-allow')).toContain('public="read"')
    const acl = await asOwner(`${pod.baseUrl}/notes/big.txt.acl`)
    expect(acl).toContain(`acl:agent <${alice}>`)
    expect(acl).toMatch(new RegExp(`acl:accessTo <big\\.txt>;\\s*acl:agent <${alice.replace(/[.?]/g, '\\$&')}>;\\s*acl:mode acl:Read, acl:Write\\.`))

    // "why may the public read it?": the server's decision names the rule
    await page.getByLabel('Agent: a WebID, a key URL, or "public"').fill('public')
    await page.getByRole('button', { name: 'Check access' }).click()
    const why = page.locator('#check-answer')
    await why.getByText('public may: read').waitFor()
    expect(await why.textContent()).toMatch(new RegExp(`read: rule ${pod.baseUrl}/notes/big\\.txt\\.acl#\\w+ of ${pod.baseUrl}/notes/big\\.txt\\.acl`))
    await shoot('share-why')

    await page.getByRole('button', { name: 'Remove access of Everyone (public)' }).click()
    expect(await notice()).toBe('Access removed')
    expect((await anonymous('/notes/big.txt')).status).toBe(401)
    expect(await asOwner(`${pod.baseUrl}/notes/big.txt.acl`)).toContain(`<${alice}>`)
  }, 60_000)

  test("the owner's Control of the root cannot be removed: the server's refusal is shown", async () => {
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2F`)
    const remove = page.getByRole('button', { name: `Remove access of ${pod.baseUrl}/profile/card#me` })
    const removeOwner = async () => {
      const [res] = await Promise.all([page.waitForResponse(r => r.request().method() === 'POST'), remove.click()])
      return { status: res.status(), code: await page.locator('#error').textContent() }
    }
    // the owner's entry alone: removing it would leave no access at all
    expect((await removeOwner()).code).toBe('no_access_left')
    // beside another entry, the resource server itself refuses: the root must keep the owner's Control
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2F`)
    await page.getByLabel('Who', { exact: true }).selectOption({ label: 'Anyone signed in' })
    await page.getByText('More choices').click()
    await page.getByLabel('Applies to').selectOption({ label: 'This folder only' })
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    expect(await notice()).toBe('Shared')
    const shared = await asOwner(`${pod.baseUrl}/.acl`)
    expect(await removeOwner()).toEqual({ status: 409, code: 'owner_lockout' })
    expect(await page.locator('h1').textContent()).toBe('Access not changed')
    await shoot('share-refused')
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2F`)
    expect(await asOwner(`${pod.baseUrl}/.acl`)).toBe(shared)
    await page.getByRole('button', { name: 'Remove access of Anyone signed in' }).click()
    expect(await notice()).toBe('Access removed')
    const after = await asOwner(`${pod.baseUrl}/.acl`)
    expect(after).not.toContain('AuthenticatedAgent')
    expect(after).toMatch(/acl:agent <profile\/card#me>;[\s\S]*acl:mode acl:Control/)
  })

  test('delete asks first, on its own page; Cancel keeps the file, Delete moves it to the trash', async () => {
    await page.goto(files('/notes/'))
    const writes = watchWrites(page)
    await page.getByRole('link', { name: 'Delete big.txt' }).click()
    expect(await page.locator('h1').textContent()).toBe('Delete big.txt?')
    await shoot('delete')
    await page.getByRole('link', { name: 'Cancel' }).click()
    expect(await page.getByRole('link', { name: 'big.txt', exact: true }).count()).toBe(1)
    await page.getByRole('link', { name: 'Delete big.txt' }).click()
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    expect(await notice()).toBe('Moved big.txt to the trash')
    expect(await page.getByRole('link', { name: 'big.txt', exact: true }).count()).toBe(0)
    // One write, the confirmed delete's (into the trash): Cancel sent none
    expect(writes.end()).toEqual(['POST /.admin/delete'])
    expect(
      await page.evaluate(
        u => fetch(u, { headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! } }).then(r => r.status),
        `${pod.baseUrl}/notes/big.txt`,
      ),
    ).toBe(404)
  })

  test('apps and sessions: an approved app is listed; revoking it makes its token refused', async () => {
    // An app signs in over HTTP (its Client ID Document on loopback) and reads a private document
    const client = serveClientIdDocument('Notes App')
    try {
      const key = await newDpopKey()
      const tokens = await exchangeCode(pod.baseUrl, client, key, await obtainCodeOverHttp(pod.baseUrl, client, new CookieJar(), OWNER_PASSWORD))
      const read = async () =>
        fetch(`${pod.baseUrl}/notes/todo.ttl`, {
          headers: {
            authorization: `DPoP ${tokens.access_token}`,
            dpop: await dpopProof(key, 'GET', `${pod.baseUrl}/notes/todo.ttl`, Date.now(), { accessToken: String(tokens.access_token) }),
          },
        })
      expect((await read()).status).toBe(200)

      await page.getByRole('link', { name: 'Apps and sessions' }).click()
      await page.getByText('(this browser)').waitFor()
      await page.getByRole('button', { name: 'Revoke Notes App' }).waitFor()
      await readable()
      await shoot('apps')
      const asked = nextDialog(true)
      await page.getByRole('button', { name: 'Revoke Notes App' }).click()
      expect((await asked).message()).toContain('Notes App')
      await page.getByText('No apps approved yet').waitFor()
      const refused = await read()
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toContain('invalid_token')
    } finally {
      client.stop()
    }
  }, 60_000)

  test('grants on an http pod: the page says they need https and how to get it; a grant posted anyway is refused', async () => {
    await page.getByRole('link', { name: 'Grants' }).click()
    const why = page.locator('#grants-need-https')
    await why.waitFor()
    expect(await why.textContent()).toContain(`this pod runs at ${pod.baseUrl}`)
    // the options it names, each on one line on a phone (--tls-key broke after its first hyphen)
    await page.setViewportSize(PHONE)
    expect(await why.locator('code').allTextContents()).toEqual(expect.arrayContaining(['--base-url', '--tls-cert', '--tls-key']))
    expect(await splitOptions(page)).toEqual([])
    await page.setViewportSize(DESKTOP)
    expect(await page.getByRole('button', { name: 'Create grant' }).count()).toBe(0)
    expect(await page.getByText('No grants yet').count()).toBe(1)
    await shoot('grants')
    // the form's own post, sent without the form: refused, nothing created
    const refused = await page.evaluate(async u => {
      const body = new URLSearchParams({
        csrf: document.getElementById('dashboard')!.dataset.csrf!,
        grantee: 'https://bob.example/profile/card#me',
        registration: '/notes/',
        shapeTree: 'https://shapes.example/trees#Note',
        scope: 'AllFromRegistry',
        mode: 'Read',
      })
      const res = await fetch(u, { method: 'POST', body })
      return { status: res.status, text: await res.text() }
    }, `${pod.baseUrl}/.admin/grants`)
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Grants need an https base URL')
    await page.reload()
    expect(await page.getByText('No grants yet').count()).toBe(1)
  })

  test('profile: the name saved is in the public WebID document', async () => {
    await page.getByRole('link', { name: 'Profile', exact: true }).click()
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await page.getByLabel('About you').fill('Writes "notes" on engines')
    await page.getByLabel('Picture (image URL)').fill(`${pod.baseUrl}/profile/ada.png`)
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Profile saved').waitFor()
    // the picture may be anyone's: its site is not told where the dashboard is
    expect(await page.getByRole('img', { name: 'Your picture' }).getAttribute('referrerpolicy')).toBe('no-referrer')
    const card = await (await fetch(`${pod.baseUrl}/profile/card`, { headers: { accept: 'text/turtle' } })).text()
    expect(card).toContain('"Ada Lovelace"')
    expect(card).toContain('Writes \\"notes\\" on engines')
    await readable()
    await shoot('profile')
    expect(problems).toEqual([])
  })
})
