// Issue 13 "works with JavaScript-disabled fallbacks where a form can do the job" (and issue 26: every
// owner page works without script): Chromium with JavaScript off signs in, visits every section, makes a
// folder, uploads (multipart form), deletes into the trash behind a confirmation page and restores, shares
// a document (and is refused locking the owner out), goes back to inherited access behind a confirmation
// page, edits Turtle in a text box, ends an app's access and a browser's sign-in,
// downloads a backup and edits the profile.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  OWNER_PASSWORD,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  startBrowserPod,
  type RunningPod,
  signInToDashboard,
} from './harness.ts'
import { CookieJar, dpopProof, newDpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, requestTokens, serveClientIdDocument } from '../e2e/oidc-client.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page
beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ javaScriptEnabled: false, acceptDownloads: true })
  page = await context.newPage()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const notice = () => page.locator('p.notice').textContent()
const errorCode = () => page.locator('#error').textContent()

async function shoot(name: string): Promise<void> {
  expect(await unlabelledControls(page)).toEqual([])
  expect(await contrastFailures(page)).toEqual([])
  await screenshot(page, `nojs-${name}-desktop`)
  await page.setViewportSize(PHONE)
  await screenshot(page, `nojs-${name}-phone`)
  expect(await horizontalOverflow(page)).toBe(0)
  await page.setViewportSize(DESKTOP)
}

describe('the owner pages with JavaScript off', () => {
  test('sign in from /.admin/: with JavaScript off it is the Files page, with every section a link to a page complete without script', async () => {
    await signInToDashboard(page, pod.baseUrl)
    expect(await page.locator('h1').textContent()).toBe('Your files')
    expect(await page.getByRole('button', { name: 'Create folder' }).count()).toBe(1)
    // Every page works without script now: no notice sends the owner elsewhere
    expect(await page.locator('noscript').count()).toBe(0)
    const nav = page.getByRole('navigation', { name: 'Dashboard sections' })
    const sections = await nav.getByRole('link').evaluateAll(links => links.map(a => [a.textContent ?? '', (a as HTMLAnchorElement).pathname]))
    expect(sections.map(([label]) => label)).toEqual([
      'Files',
      'Activity',
      'Sharing',
      'Links',
      'Apps and sessions',
      'Scripts and bots',
      'Live updates',
      'Grants',
      'Keys',
      'Profile',
      'Backup',
      'Pod status',
    ])
    for (const [label, path] of sections) {
      const response = await page.goto(`${pod.baseUrl}${path}`)
      expect([label, response?.status()]).toEqual([label, 200])
      // the page itself, not a shell a script would fill: its heading, its section marked, something to read or do
      expect([label, (await page.locator('h1').textContent())?.trim()]).not.toEqual([label, ''])
      expect([label, await nav.getByRole('link', { name: label, exact: true }).getAttribute('aria-current')]).toEqual([label, 'page'])
      expect([label, (await page.locator('.dash-body').locator('form, table, dl, p, ul').count()) > 0]).toEqual([label, true])
      expect([label, await page.locator('noscript').count()]).toEqual([label, 0])
    }
    await page.goto(`${pod.baseUrl}/.admin/`)
  })

  test('new folder', async () => {
    await page.getByLabel('Folder name').fill('notes')
    await page.getByRole('button', { name: 'Create folder' }).click()
    await page.waitForURL(/path=%2Fnotes%2F/)
    expect(await notice()).toBe('Created the folder notes')
    expect(await page.getByText('This folder is empty').count()).toBe(1)
    // the same name again: refused, nothing replaced
    await page.goto(`${pod.baseUrl}/.admin/files`)
    await page.getByLabel('Folder name').fill('notes')
    await page.getByRole('button', { name: 'Create folder' }).click()
    expect(await errorCode()).toBe('already_exists')
  })

  test('upload with a plain multipart form; the same name gets a number unless "Replace" is ticked', async () => {
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fnotes%2F`)
    await page.getByLabel('Files to upload').setInputFiles([
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first') },
      { name: 'b.ttl', mimeType: 'text/turtle', buffer: Buffer.from('<#it> <http://purl.org/dc/terms/title> "b".') },
    ])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.waitForURL(/done=upload/)
    expect(await notice()).toMatch(/^2 files uploaded to notes\u00a0· \d+\u00a0B$/) // the Turtle's size is what a GET serves
    expect(await page.getByRole('row', { name: /a\.txt/ }).textContent()).toContain('5\u00a0B')
    expect(await page.getByRole('row', { name: /b\.ttl/ }).textContent()).toContain('RDF document')
    await shoot('files')
    expect((await fetch(`${pod.baseUrl}/notes/a.txt`)).status).toBe(401) // private, as every upload
    // a file's name opens its page (the text shown), whose Download link saves it
    await page.getByRole('link', { name: 'b.ttl', exact: true }).click()
    expect(await page.locator('pre.rdf').textContent()).toContain('"b"')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download', exact: true }).click()])
    expect(download.suggestedFilename()).toBe('b.ttl')
    expect(await Bun.file((await download.path())!).text()).toContain('"b"')
    await page.getByRole('link', { name: 'Back to the folder' }).click()

    await page.getByLabel('Files to upload').setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('second!') }])
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.waitForURL(/done=upload/)
    expect(await notice()).toBe('Uploaded a (2).txt (a file of that name was already here, so the new one got a number)')
    expect(await page.getByRole('row', { name: /a \(2\)\.txt/ }).textContent()).toContain('7\u00a0B')
    expect(
      await page
        .getByRole('row', { name: /a\.txt/ })
        .first()
        .textContent(),
    ).toContain('5\u00a0B')
    await shoot('upload-numbered')
    await page.getByRole('link', { name: 'Delete a (2).txt' }).click()
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByLabel('Files to upload').setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('second!') }])
    await page.getByLabel('Replace files of the same name').check()
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.waitForURL(/done=upload/)
    expect(await page.getByRole('row', { name: /a\.txt/ }).textContent()).toContain('7\u00a0B')
  })

  test('delete asks on a page of its own: Cancel keeps the file, Delete moves it to the trash, Restore puts it back', async () => {
    await page.getByRole('link', { name: 'Delete a.txt' }).click()
    expect(await page.locator('h1').textContent()).toBe('Delete a.txt?')
    expect(await page.locator('main').textContent()).toContain('Delete /notes/a.txt? It stays in the trash for 30 days, where you can restore it.')
    await shoot('delete')
    await page.getByRole('link', { name: 'Cancel' }).click()
    expect(await page.getByRole('row', { name: /a\.txt/ }).count()).toBe(1)
    await page.getByRole('link', { name: 'Delete a.txt' }).click()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/done=/)
    expect(await notice()).toBe('Moved a.txt to the trash')
    expect(await page.getByRole('row', { name: /a\.txt/ }).count()).toBe(0)
    // the trash keeps it, and its Restore (a plain form) puts it back where it was, content and all
    await page.goto(`${pod.baseUrl}/.admin/trash`)
    const row = page.getByRole('row', { name: /a\.txt/ })
    expect(await row.locator('td[data-label="Was in"]').textContent()).toBe('/notes/')
    await shoot('trash')
    await row.getByRole('button', { name: 'Restore a.txt' }).click()
    await page.waitForURL(/path=%2Fnotes%2F/)
    expect(await notice()).toBe('Restored a.txt')
    expect(await page.getByRole('row', { name: /a\.txt/ }).textContent()).toContain('7\u00a0B')
    await page.goto(`${pod.baseUrl}/.admin/trash`)
    expect(await page.getByRole('row', { name: /a\.txt/ }).count()).toBe(0)
    // then gone again, so that what follows finds the folder as before
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fnotes%2F`)
    await page.getByRole('link', { name: 'Delete a.txt' }).click()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/done=/)
    expect(await page.getByRole('row', { name: /a\.txt/ }).count()).toBe(0)
  })

  test('the trash: Delete for good and Empty trash each ask on a page of their own, saying the space they free', async () => {
    await page.goto(`${pod.baseUrl}/.admin/trash`)
    expect(await page.getByRole('link', { name: 'Empty trash (14\u00a0B)' }).count()).toBe(1)
    await page.getByRole('link', { name: 'Delete a (2).txt for good' }).click()
    expect(await page.locator('h1').textContent()).toBe('Delete a (2).txt for good?')
    expect(await page.locator('main').textContent()).toContain('Delete /notes/a (2).txt for good? This frees 7\u00a0B. It cannot be restored afterwards.')
    await shoot('trash-delete-for-good')
    await page.getByRole('button', { name: 'Delete for good' }).click()
    await page.waitForURL(/done=deleteForGood/)
    expect(await notice()).toBe('Deleted a (2).txt for good\u00a0· 7\u00a0B freed')
    expect(await page.getByRole('row', { name: /a \(2\)\.txt/ }).count()).toBe(0)
    await page.getByRole('link', { name: 'Empty trash (7\u00a0B)' }).click()
    expect(await page.locator('main').textContent()).toContain('Delete the 1 item in the trash for good? This frees 7\u00a0B.')
    await page.getByRole('button', { name: 'Empty trash' }).click()
    await page.waitForURL(/done=empty/)
    expect(await notice()).toBe('Emptied the trash: 1 item deleted for good\u00a0· 7\u00a0B freed')
    expect(await page.getByText('The trash is empty').count()).toBe(1)
    await shoot('trash-emptied')
  })

  test('share without JavaScript: public Read added, then removed; the public reader sees 200, then 401', async () => {
    const publicRead = async () => (await fetch(`${pod.baseUrl}/notes/b.ttl`)).status
    expect(await publicRead()).toBe(401)
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fnotes%2F`)
    await page.getByRole('link', { name: 'Share b.ttl' }).click()
    expect(await page.locator('h1').textContent()).toBe('Who can access /notes/b.ttl')
    expect(await page.locator('#inherited-h').textContent()).toBe('Inherited from /')
    await page.getByLabel('Who', { exact: true }).selectOption({ label: 'Everyone (public)' })
    expect(await page.getByLabel('Read', { exact: true }).isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.waitForURL(/done=added/)
    expect(await notice()).toBe('Shared')
    expect(
      await page
        .locator('section', { has: page.locator('#own-h') })
        .getByRole('row', { name: /Everyone \(public\)/ })
        .last()
        .textContent(),
    ).toContain('Read')
    expect(await publicRead()).toBe(200)
    await shoot('share')
    await page.getByRole('button', { name: 'Remove access of Everyone (public)' }).click()
    await page.waitForURL(/done=removed/)
    expect(await notice()).toBe('Access removed')
    expect(await publicRead()).toBe(401)
  })

  test('"Use inherited access instead" asks on a page of its own, and needs the "drop" tick when the ACL holds what the page cannot show', async () => {
    const cookies = await context.cookies(pod.baseUrl)
    const csrf = cookies.find(c => c.name.endsWith('solopod_csrf'))!.value
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#o> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <b.ttl>; acl:mode acl:Read, acl:Write, acl:Control; rdfs:comment "keep: agreed".
<#p> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <b.ttl>; acl:mode acl:Read.`
    const put = await fetch(`${pod.baseUrl}/notes/b.ttl.acl`, {
      method: 'PUT',
      body: acl,
      headers: {
        cookie: cookies.map(c => `${c.name}=${c.value}`).join('; '),
        origin: pod.baseUrl,
        'x-csrf-token': csrf,
        'content-type': 'text/turtle',
      },
    })
    expect(put.ok).toBe(true)
    const publicRead = async () => (await fetch(`${pod.baseUrl}/notes/b.ttl`)).status
    expect(await publicRead()).toBe(200)
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2Fnotes%2Fb.ttl`)
    await page.getByRole('link', { name: 'Use inherited access instead' }).click()
    expect(await page.locator('h1').textContent()).toBe('Use inherited access for /notes/b.ttl?')
    expect(await page.locator('#acl-leftovers code').textContent()).toBe('<#o> rdfs:comment "keep: agreed".')
    expect(await page.getByRole('row', { name: /You \(owner\)/ }).count()).toBe(1) // what it will then have
    await shoot('share-inherit')
    await page.getByRole('link', { name: 'Cancel' }).click()
    expect(await page.locator('h1').textContent()).toBe('Who can access /notes/b.ttl')
    expect(await publicRead()).toBe(200)
    // the button without the tick: the browser refuses to send the form
    await page.getByRole('link', { name: 'Use inherited access instead' }).click()
    await page.getByRole('button', { name: 'Use inherited access', exact: true }).click()
    expect(await page.locator('h1').textContent()).toBe('Use inherited access for /notes/b.ttl?')
    expect(await publicRead()).toBe(200)
    await page.getByLabel('Drop the 1 statement this page cannot show').check()
    await page.getByRole('button', { name: 'Use inherited access', exact: true }).click()
    await page.waitForURL(/done=inherited/)
    expect(await notice()).toBe('This item now has the access inherited from its folder')
    expect(await publicRead()).toBe(401)
  })

  test("share: taking the owner's Control of the root is refused in words, nothing changed", async () => {
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2F`)
    await page.getByLabel('Who', { exact: true }).selectOption({ label: 'Anyone signed in' })
    await page.getByText('More choices').click()
    await page.getByLabel('Applies to').selectOption({ label: 'This folder only' })
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.waitForURL(/done=added/)
    await page.getByRole('button', { name: `Remove access of ${pod.baseUrl}/profile/card#me` }).click()
    expect(await errorCode()).toBe('owner_lockout')
    expect(await page.locator('h1').textContent()).toBe('Access not changed')
    expect(await page.locator('main').textContent()).toContain("The root ACL must keep an acl:Authorization giving the owner's WebID acl:Control")
    await shoot('share-lockout')
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2F`)
    expect(await page.getByRole('button', { name: `Remove access of ${pod.baseUrl}/profile/card#me` }).count()).toBe(1)
    await page.getByRole('button', { name: 'Remove access of Anyone signed in' }).click()
    await page.waitForURL(/done=removed/)
  })

  test('edit Turtle without JavaScript: a parse error comes back with its line and the text kept; good text is saved', async () => {
    const cookies = await context.cookies(pod.baseUrl)
    const csrf = cookies.find(c => c.name.endsWith('solopod_csrf'))!.value
    const asOwner = async () =>
      (
        await fetch(`${pod.baseUrl}/notes/b.ttl`, {
          headers: {
            cookie: cookies.map(c => `${c.name}=${c.value}`).join('; '),
            origin: pod.baseUrl,
            'x-csrf-token': csrf,
            accept: 'text/turtle',
          },
        })
      ).text()
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fnotes%2F`)
    await page.getByRole('link', { name: 'Edit b.ttl' }).click()
    expect(await page.locator('h1').textContent()).toBe('Edit b.ttl')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"b"')
    const bad = '<#it> <http://purl.org/dc/terms/title> "changed".\n<#it> <#p> "unterminated'
    await page.getByLabel('Turtle').fill(bad)
    await page.getByRole('button', { name: 'Save' }).click()
    expect(await errorCode()).toBe('invalid_rdf')
    expect(await page.locator('#bad-line').textContent()).toBe('Line 2: <#it> <#p> "unterminated')
    expect(await page.getByLabel('Turtle').inputValue()).toBe(bad)
    await shoot('edit-error')
    expect(await asOwner()).not.toContain('changed')
    await page.getByLabel('Turtle').fill('<#it> <http://purl.org/dc/terms/title> "edited without script".')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/done=saved/)
    expect(await notice()).toBe('Saved')
    expect(await page.getByLabel('Turtle').inputValue()).toContain('"edited without script"')
    expect(await asOwner()).toContain('"edited without script"')
  })

  test("revoke an app and sign another browser out on the sessions page: the app's tokens are refused", async () => {
    const client = serveClientIdDocument('Form App')
    try {
      const key = await newDpopKey()
      const tokens = await exchangeCode(pod.baseUrl, client, key, await obtainCodeOverHttp(pod.baseUrl, client, new CookieJar(), OWNER_PASSWORD))
      const read = async () =>
        fetch(`${pod.baseUrl}/notes/b.ttl`, {
          headers: {
            authorization: `DPoP ${tokens.access_token}`,
            dpop: await dpopProof(key, 'GET', `${pod.baseUrl}/notes/b.ttl`, Date.now(), { accessToken: String(tokens.access_token) }),
          },
        })
      expect((await read()).status).toBe(200)
      await page.goto(`${pod.baseUrl}/.admin/sessions`)
      await shoot('sessions')
      // Remembered consents: Revoke ends the app's sessions too
      await page
        .locator('tr', { hasText: 'Form App' })
        .filter({ has: page.locator('form[action="/.admin/consents/revoke"]') })
        .getByRole('button', { name: /^Revoke/ })
        .click()
      await page.waitForURL(`${pod.baseUrl}/.admin/sessions?done=revoked`)
      expect(await page.locator('main').textContent()).not.toContain('Form App')
      expect((await read()).status).toBe(401)
      const refreshed = await requestTokens(`${pod.baseUrl}/.oidc/token`, key, {
        grant_type: 'refresh_token',
        refresh_token: String(tokens.refresh_token),
        client_id: client.clientId,
      })
      expect(refreshed.status).toBe(400)
      // the HTTP client's browser sign-in: the row that is not this browser
      const other = page.locator('tr', { hasText: /Bun|unknown/ }).filter({ hasNotText: 'this browser' })
      expect(await other.count()).toBe(1)
      await other.getByRole('button', { name: /^Sign out/ }).click()
      await page.waitForURL(`${pod.baseUrl}/.admin/sessions?done=signed_out`)
      expect(
        await page
          .locator('tr', { hasText: /Bun|unknown/ })
          .filter({ hasNotText: 'this browser' })
          .count(),
      ).toBe(0)
    } finally {
      client.stop()
    }
  })

  test('backup: the form downloads the archive', async () => {
    await page.goto(`${pod.baseUrl}/.admin/backup`)
    expect(await page.locator('#last-backup').textContent()).toBe('No backup has been made of this pod yet.')
    await shoot('backup')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()])
    expect(download.suggestedFilename()).toMatch(/^solopod-backup-\d{8}T\d{6}Z\.tar\.gz$/)
    expect(await download.failure()).toBeNull()
    // The pod records a backup once the browser has received it whole, then logs it
    await pod.waitForOutput(/"event":"backup\.downloaded"/)
    await page.reload()
    expect(await page.locator('#last-backup').textContent()).toContain('downloaded here')
  })

  test('profile: the form saves the WebID document; a bad URL is refused with the field named', async () => {
    await page.goto(`${pod.baseUrl}/.admin/profile`)
    await page.getByLabel('Name').fill('Grace Hopper')
    await page.getByLabel('Picture (image URL)').fill('https://example.org/grace.png')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.waitForURL(/done=saved/)
    expect(await notice()).toBe('Profile saved')
    expect(await page.getByLabel('Name').inputValue()).toBe('Grace Hopper')
    await shoot('profile')
    const card = await (await fetch(`${pod.baseUrl}/profile/card`, { headers: { accept: 'text/turtle' } })).text()
    expect(card).toContain('"Grace Hopper"')
    expect(card).toContain('<https://example.org/grace.png>')
    // type=url lets "ftp://…" through the browser: the server refuses it, naming the field
    await page.getByLabel('Home page').fill('ftp://example.org/')
    await page.getByRole('button', { name: 'Save profile' }).click()
    expect(await errorCode()).toBe('invalid_field')
    expect(await page.locator('main').textContent()).toContain('Home page: enter a full URL')
  })
})
