// The dashboard's Keys and Grants pages (/.admin/keys, /.admin/grants) in headless Chromium, on a pod served over
// HTTPS (GrantData needs https URLs): with JavaScript the owner makes a signing key in the browser and downloads its
// private key once, without it a pasted public JWK is published; a request
// signed with it by npm http-message-signatures reads what Share gave the key; a grant made through the form
// (after the server refused a bad field, naming it) lets the key read a folder, and stops when revoked; a revoked key's
// signatures are refused. Screenshots: test-artifacts/browser/dashboard-{keys,grants}-*.png.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, dismissNextDialog, newContext, screenshotBothWidths, startBrowserPod, tabTo, type RunningPod, signInToDashboard } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { makeLocalhostCertificate } from '../e2e/tls-cert.ts'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'

setDefaultTimeout(30_000)

let dir: string
let ca: string
let pod: RunningPod
let context: BrowserContext
let page: Page
const problems: string[] = []
/** Every request body the page sent: the private key must be in none of them. */
const sentBodies: string[] = []
let privateJwk: Record<string, unknown> = {}
let keyUrl = ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-browser-keys-'))
  const tls = makeLocalhostCertificate(dir)
  ca = readFileSync(tls.cert, 'utf8')
  pod = await startBrowserPod({
    tls,
    seed: async (dataDir, base) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, base, Date.now())
        await writeTurtle(store, base, '/notes/hello', '<#it> <http://purl.org/dc/terms/title> "hello".')
        await writeTurtle(store, base, '/projects/p1', '<#it> <http://purl.org/dc/terms/title> "project one".')
      } finally {
        await store.close()
      }
    },
  })
  // The browser trusts the test's self-signed certificate, as a person would after installing it
  context = await newContext({ ignoreHTTPSErrors: true, acceptDownloads: true })
  page = await context.newPage()
  page.on('console', m => {
    if (m.type() === 'error' && !/status of 4(0[013459]|1[25]|22)/.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', e => problems.push(String(e)))
  page.on('request', r => {
    const body = r.postData()
    if (body) sentBodies.push(body)
  })
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** A request signed by an independent RFC 9421 implementation with the key the browser made and downloaded. */
async function signedGet(path: string): Promise<Response> {
  const url = pod.baseUrl + path
  const headers = await signedHeaders(url, { key: privateKeyOf(privateJwk), alg: 'ecdsa-p256-sha256', keyid: keyUrl })
  return fetch(url, { headers, tls: { ca } })
}

/** Both widths of the current screen; every control labelled, readable contrast, nothing to scroll sideways on a phone. */
async function shoot(name: string): Promise<void> {
  expect(await unlabelledControls(page)).toEqual([])
  expect(await contrastFailures(page)).toEqual([])
  expect(await screenshotBothWidths(page, `dashboard-${name}`)).toBe(0)
}

const errorCode = () => page.locator('#error').textContent()
const grantCount = () => page.evaluate(async () => (await (await fetch('/.admin/api/grants')).json()).grants.length as number)

describe('Keys: made in the browser, only the public half on the pod', () => {
  test('sign in and open Keys from the keyboard', async () => {
    await signInToDashboard(page, pod.baseUrl)
    await tabTo(page, 'a[href="/.admin/keys"]')
    await page.keyboard.press('Enter')
    await page.getByText('No keys yet').waitFor()
    await tabTo(page, '#key-name')
  }, 60_000)

  test('a bad name: the server says why, and no key is made', async () => {
    await page.getByLabel('Name', { exact: true }).fill('my/laptop')
    await page.getByRole('button', { name: 'Make a key in this browser' }).click()
    // The sentence with the server's reason, the refusal's code small beside it (dom.ts sayError)
    await page.locator('#status[role="alert"]').waitFor()
    expect(await page.locator('#status').evaluate(el => el.firstChild?.textContent)).toBe(
      `Creating the key failed: /name: the key name must be 1–64 letters, digits, '.', '_' or '-', not starting with '.'; got "my/laptop"`,
    )
    expect(await page.locator('#status-code').textContent()).toBe('Error code: invalid_key_name')
    expect(await page.locator('#status-code').isVisible()).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key-name')
    expect(await page.getByText('No keys yet').count()).toBe(1)
  })

  test('a good name: the key is published, its private key downloaded exactly once', async () => {
    await page.getByLabel('Name', { exact: true }).fill('laptop')
    await page.getByLabel('It may act as me: link it from my profile').check()
    await page.getByRole('button', { name: 'Make a key in this browser' }).click()
    const offer = page.locator('#key-offer')
    await offer.waitFor()
    keyUrl = `${pod.baseUrl}/keys/laptop#key`
    expect(await offer.textContent()).toContain(keyUrl)
    await shoot('keys-offer')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download laptop.private.jwk' }).click()])
    expect(download.suggestedFilename()).toBe('laptop.private.jwk')
    privateJwk = JSON.parse(readFileSync((await download.path())!, 'utf8'))
    expect(privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: keyUrl })
    expect(privateJwk.d).toBeString()
    // Offered once: the page is loaded afresh, listing the key and offering nothing
    await page.waitForURL(`${pod.baseUrl}/.admin/keys?done=published`)
    await page.getByRole('row', { name: /laptop/ }).waitFor()
    expect(await page.locator('#key-offer').count()).toBe(0)
    // The pod got the public key only: not in any request the page sent, not in the published document
    expect(sentBodies.some(b => b.includes(String(privateJwk.d)))).toBe(false)
    const doc = await (await fetch(`${pod.baseUrl}/keys/laptop`, { headers: { accept: 'application/ld+json' }, tls: { ca } })).text()
    expect(JSON.parse(doc).publicKeyJwk).toMatchObject({ kty: 'EC', x: privateJwk.x, y: privateJwk.y })
    expect(doc).not.toContain(String(privateJwk.d))
    const row = page.getByRole('row', { name: /laptop/ })
    expect(await row.textContent()).toContain(keyUrl)
    expect(await row.textContent()).toContain('yes (linked from your profile)')
    await shoot('keys')
  })

  test('without JavaScript: a pasted public JWK is published; a pasted private key or not-JSON is refused (400 invalid_key), nothing made', async () => {
    const plain = await newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false })
    const p = await plain.newPage()
    await signInToDashboard(p, pod.baseUrl)
    await p.goto(`${pod.baseUrl}/.admin/keys`)
    expect(await unlabelledControls(p)).toEqual([])
    expect(await screenshotBothWidths(p, 'dashboard-keys-no-js')).toBe(0)
    const publish = async (name: string, jwk: string) => {
      await p.goto(`${pod.baseUrl}/.admin/keys`)
      await p.getByLabel('Name', { exact: true }).fill(name)
      await p.getByLabel('Public JWK').fill(jwk)
      await p.getByRole('button', { name: 'Publish key' }).click()
    }
    await publish('pasted', 'not json')
    expect(await p.locator('#error').textContent()).toBe('invalid_key')
    await publish('pasted', JSON.stringify(privateJwk))
    expect(await p.locator('#error').textContent()).toBe('invalid_key')
    expect((await fetch(`${pod.baseUrl}/keys/pasted`, { tls: { ca } })).status).toBe(404)
    const { kty, crv, x, y } = privateJwk
    await publish('pasted', JSON.stringify({ kty, crv, x, y }))
    await p.waitForURL(`${pod.baseUrl}/.admin/keys?done=published`)
    expect(await p.getByRole('row', { name: /pasted/ }).textContent()).toContain('no')
    await p.getByRole('button', { name: 'Revoke key pasted' }).click()
    await p.getByText('Key revoked').waitFor()
    expect(await p.getByRole('row', { name: /pasted/ }).count()).toBe(0)
    await plain.close()
  })

  test('Share gives the key Read of a document: the signed request gets 200', async () => {
    expect((await signedGet('/notes/hello')).status).toBe(403)
    await page.goto(`${pod.baseUrl}/.admin/share?path=%2Fnotes%2Fhello`)
    await page.getByLabel('Who', { exact: true }).selectOption('key')
    await page.getByLabel('Their WebID (or the group or key URL)').fill(keyUrl)
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.getByText('Shared', { exact: true }).waitFor()
    const res = await signedGet('/notes/hello')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"hello"')
  })
})

describe('Grants: a form whose refusals name the field; revoke ends the access', () => {
  test('the server names a bad field (schema 400, then meaning 422), and nothing is stored', async () => {
    await page.getByRole('link', { name: 'Grants' }).click()
    await page.getByText('No grants yet').waitFor()
    await tabTo(page, '#grant-grantee')
    const fill = async (grantee: string, folder: string) => {
      await page.getByLabel('Grantee').fill(grantee)
      await page.getByLabel('Folder (data registration)').fill(folder)
      await page.getByLabel('Shape tree').fill('https://shapes.example/trees#Project')
      await page.getByRole('button', { name: 'Create grant' }).click()
    }
    await fill('http://bob.example/profile/card#me', '/projects')
    expect(await errorCode()).toBe('invalid_grant_data')
    expect(await page.locator('main').textContent()).toContain('/grantee: expected the agent (WebID or client id) given access: an https URL')
    await shoot('grants-error')
    await page.getByRole('link', { name: 'Back to grants' }).click()
    await fill(keyUrl, '/projects')
    expect(await errorCode()).toBe('invalid_grant_data')
    expect(await page.locator('main').textContent()).toContain(`/hasDataRegistration: expected ${pod.baseUrl}/…: a container URL, ending in /`)
    await page.getByRole('link', { name: 'Back to grants' }).click()
    await page.getByText('No grants yet').waitFor()
    expect(await grantCount()).toBe(0)
  })

  test('a valid grant is listed, and the grantee (the key) reads the folder with it', async () => {
    expect((await signedGet('/projects/p1')).status).toBe(403)
    await page.getByLabel('Grantee').fill(keyUrl)
    await page.getByLabel('Folder (data registration)').fill('/projects/')
    await page.getByLabel('Shape tree').fill('https://shapes.example/trees#Project')
    await page.getByRole('button', { name: 'Create grant' }).click()
    await page.getByText('Grant created').waitFor()
    const row = page.getByRole('row', { name: /projects/ })
    const text = await row.textContent()
    for (const part of [keyUrl, '/projects/', 'Read', 'Everything in the folder', 'until revoked']) expect(text).toContain(part)
    await shoot('grants')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shoot('grants-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    const res = await signedGet('/projects/p1')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"project one"')
  })

  test('revoke asks first; dismissing keeps the grant, accepting ends the access', async () => {
    const revoke = page.getByRole('button', { name: `Revoke the grant for ${keyUrl} on /projects/` })
    const dismissed = dismissNextDialog(page)
    await revoke.click()
    expect(await dismissed).toContain('The access ends')
    expect(await grantCount()).toBe(1)
    page.once('dialog', d => {
      void d.accept()
    })
    await revoke.click()
    await page.getByText('No grants yet').waitFor()
    expect(await page.getByText('Grant revoked').count()).toBe(1)
    const res = await signedGet('/projects/p1')
    expect(res.status).toBe(403)
    expect(await res.text()).toStartWith('forbidden')
  })
})

describe('Keys: revoking', () => {
  test('revoke asks first; a revoked key is refused by the HttpSig verifier', async () => {
    await page.getByRole('link', { name: 'Keys' }).click()
    const revoke = page.getByRole('button', { name: 'Revoke key laptop' })
    const dismissed = dismissNextDialog(page)
    await revoke.click()
    expect(await dismissed).toContain('Revoke the key laptop?')
    expect((await signedGet('/notes/hello')).status).toBe(200)
    page.once('dialog', d => {
      void d.accept()
    })
    await revoke.click()
    await page.getByText('No keys yet').waitFor()
    expect(await page.getByText('Key revoked').count()).toBe(1)
    const res = await signedGet('/notes/hello')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain(
      `HttpSig realm="/notes/hello", error="invalid_signature", error_description="the key ${keyUrl} cannot be used: no such key: its document does not exist`,
    )
    expect(problems).toEqual([])
  })
})
