// Issue 13 "Share" in Chromium: the owner shares a document with a WebID hosted on a second pod, and
// that person, signed in to a third-party app (Inrupt's libraries) through their own pod, reads it;
// the public cannot; removing the share refuses them. Saving warns before it drops what the editor
// cannot show of an ACL document.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, PHONE, gotoLeavingUnsaved, newContext, screenshot, screenshotBothWidths, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { logInThroughApp, openApp, runInApp } from './app-flow.ts'

setDefaultTimeout(60_000)
let alicePod: RunningPod
let bobPod: RunningPod
let app: TestApp
let alice: BrowserContext
let page: Page

beforeAll(async () => {
  [alicePod, bobPod, app] = await Promise.all([startBrowserPod(), startBrowserPod(), startTestApp()])
  alice = await newContext()
  page = await alice.newPage()
  await signInToDashboard(page, alicePod.baseUrl)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await alice?.close()
  await app?.stop()
  await Promise.all([alicePod?.dispose(), bobPod?.dispose()])
}, HOOK_TIMEOUT)

const a = (path: string) => alicePod.baseUrl + path
/** As the dashboard's script calls the pod (owner cookie + CSRF token). */
const asOwner = (url: string, init: { method?: string; type?: string; body?: string } = {}) => page.evaluate(async ([u, i]) => {
  const res = await fetch(u!, { method: i!.method ?? 'GET', headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, ...(i!.type ? { 'content-type': i!.type } : {}) }, ...(i!.body !== undefined ? { body: i!.body } : {}) })
  return { status: res.status, text: await res.text() }
}, [url, init] as const)
const TITLE = (t: string) => `<#it> <http://purl.org/dc/terms/title> "${t}".`

describe('saving a share warns when the ACL holds what the editor cannot show', () => {
  test('a note in the ACL: listed on the page; Save and "Use inherited access" ask; "no" keeps the document, "yes" rewrites it', async () => {
    expect((await asOwner(a('/notes/doc.ttl'), { method: 'PUT', type: 'text/turtle', body: TITLE('doc') })).status).toBe(201)
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#owner> a acl:Authorization; acl:agent <${a('/profile/card#me')}>; acl:accessTo <doc.ttl>; acl:mode acl:Read, acl:Write, acl:Control;
  rdfs:comment "keep: agreed with Bob on 2026-11-01".`
    expect((await asOwner(a('/notes/doc.ttl.acl'), { method: 'PUT', type: 'text/turtle', body: acl })).status).toBe(201)
    await page.goto(a('/.admin/#/share/notes/doc.ttl'))
    const warning = page.locator('#acl-leftovers')
    await warning.waitFor()
    expect(await warning.textContent()).toContain('holds 1 statement this editor cannot show')
    expect(await warning.locator('code').textContent()).toBe('<#owner> rdfs:comment "keep: agreed with Bob on 2026-11-01".')
    expect(await page.getByText('Save writes this item\'s ACL document anew from this table.').count()).toBe(1)
    await screenshot(page, 'dashboard-share-warning-desktop')
    await page.setViewportSize(PHONE)
    await screenshot(page, 'dashboard-share-warning-phone')
    await page.setViewportSize({ width: 1100, height: 800 })

    // going back to the inherited access deletes the document, note and all: the question says so
    let asked = ''
    page.once('dialog', (d) => { asked = d.message(); void d.dismiss() })
    await page.getByRole('button', { name: 'Use inherited access instead' }).click()
    await page.getByRole('button', { name: 'Use inherited access instead' }).waitFor()
    expect(asked).toBe('Remove the access settings of /notes/doc.ttl? It will then have the access inherited from its folder. This also drops the 1 statement of the ACL document this editor cannot show (listed on the page).')
    expect((await asOwner(a('/notes/doc.ttl.acl'))).text).toContain('agreed with Bob')

    page.once('dialog', (d) => { asked = d.message(); void d.dismiss() })
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Not saved: the ACL document is unchanged').waitFor()
    expect(asked).toContain('drops 1 statement this editor cannot show')
    expect((await asOwner(a('/notes/doc.ttl.acl'))).text).toContain('agreed with Bob')

    page.once('dialog', (d) => { void d.accept() })
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect((await asOwner(a('/notes/doc.ttl.acl'))).text).not.toContain('agreed with Bob')
    expect(await page.locator('#acl-leftovers').count()).toBe(0)
  })
})

describe("the owner's own Control of an item", () => {
  test('a folder whose owner rule covers only what is inside: Save asks first, "no" writes nothing', async () => {
    expect((await asOwner(a('/inside-only/'), { method: 'PUT', type: 'text/turtle', body: '' })).status).toBe(201)
    await page.goto(a('/.admin/#/share/inside-only/'))
    await page.getByRole('button', { name: 'Set access for this item only' }).click()
    await page.getByRole('button', { name: `Remove access of ${a('/profile/card#me')}` }).click()
    await page.getByLabel('Who', { exact: true }).selectOption('agent')
    await page.getByLabel('WebID, group or key URL').fill(a('/profile/card#me'))
    for (const mode of ['Read', 'Write', 'Control']) await page.getByRole('checkbox', { name: mode }).check()
    await page.getByLabel('Applies to').selectOption('inside')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    let asked = ''
    page.once('dialog', (d) => { asked = d.message(); void d.dismiss() })
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Not saved', { exact: true }).waitFor()
    expect(asked).toContain('will no longer have Control here')
    expect((await asOwner(a('/inside-only/.acl'))).status).toBe(404)
  })
})

describe('sharing proven with an app session from a second pod', () => {
  let bob: BrowserContext
  let bobPage: Page
  const bobWebId = () => `${bobPod.baseUrl}/profile/card#me`
  beforeAll(async () => {
    bob = await newContext()
    bobPage = await openApp(bob, app)
    await logInThroughApp(bobPage, { pod: bobPod.baseUrl })
  }, HOOK_TIMEOUT)
  afterAll(() => bob?.close())
  const bobReads = (path: string) => runInApp(bobPage, (api, url) => api.status(url), a(path))

  test('before sharing, Bob (signed in at his pod) is refused: 403', async () => {
    expect((await asOwner(a('/shared/for-bob'), { method: 'PUT', type: 'text/turtle', body: TITLE('for bob') })).status).toBe(201)
    expect(await bobReads('/shared/for-bob')).toBe(403)
  })

  test("the owner shares it with Bob's WebID in the dashboard: Bob's app reads it (200), the public gets 401", async () => {
    // the declined Save above left that access unsaved: going on asks first
    expect(await gotoLeavingUnsaved(page, a('/.admin/#/share/shared/for-bob'))).toBe('The access you added or removed is not saved. Leave and lose it?')
    await page.getByRole('button', { name: 'Set access for this item only' }).click()
    await page.getByLabel('Who', { exact: true }).selectOption('agent')
    await page.getByLabel('WebID, group or key URL').fill(bobWebId())
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect(await page.getByRole('cell', { name: `Person (WebID) ${bobWebId()}`, exact: true }).count()).toBe(1)
    // "why may Bob read it?": the server's one decision names the rule of the ACL just saved
    await page.getByLabel('Agent: a WebID, a key URL, or "public"').fill(bobWebId())
    await page.getByRole('button', { name: 'Check access' }).click()
    const why = page.locator('#check-answer')
    await why.getByText(`${bobWebId()} may: read`).waitFor()
    expect(await why.textContent()).toContain(`read: rule ${a('/shared/for-bob.acl')}#`)

    expect(await bobReads('/shared/for-bob')).toBe(200)
    expect(await runInApp(bobPage, (api, url) => api.readTitle(url), a('/shared/for-bob'))).toBe('for bob')
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
    // only that document: the rest of Alice's pod stays closed to him
    expect(await bobReads('/notes/doc.ttl')).toBe(403)
  })

  test('the owner removes the share: Bob is refused (403)', async () => {
    await page.getByRole('button', { name: `Remove access of ${bobWebId()}` }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect(await bobReads('/shared/for-bob')).toBe(403)
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
  })
})

// WAC 1.1 ED §4.4.1: acl:ClientCondition, set by the share panel's "only through this app" field. Bob signs in
// to the app with its Client ID Document, so his tokens name the app's client identifier (Solid-OIDC §5.1).
describe('"only through this app" proven with an app session from a second pod', () => {
  let bob: BrowserContext
  let bobPage: Page
  const bobId = () => `${bobPod.baseUrl}/profile/card#me`
  beforeAll(async () => {
    bob = await newContext()
    bobPage = await openApp(bob, app)
    await logInThroughApp(bobPage, { pod: bobPod.baseUrl, how: 'client-id' })
  }, HOOK_TIMEOUT)
  afterAll(() => bob?.close())
  const bobReadsThroughApp = (path: string) => runInApp(bobPage, (api, url) => api.status(url), a(path))
  test('shared "only through this app": through another app Bob is refused (403); through his own app he reads it', async () => {
    const addBob = async (clientId: string) => {
      await page.getByLabel('Who', { exact: true }).selectOption('agent')
      await page.getByLabel('WebID, group or key URL').fill(bobId())
      await page.getByLabel('Only through this app: its client ID (optional, for a person)').fill(clientId)
      await page.getByRole('button', { name: 'Add', exact: true }).click()
    }
    // a value that is not a client identifier is refused beside its field, and nothing is added
    await addBob('app.example')
    await page.getByText("Only through this app: enter the app's client identifier, a URL like https://app.example/id").first().waitFor()
    await addBob('https://other-app.example/id')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect(await page.getByRole('cell', { name: 'only through app https://other-app.example/id', exact: true }).count()).toBe(1)
    expect(await bobReadsThroughApp('/shared/for-bob')).toBe(403)

    await page.getByRole('button', { name: `Remove access of ${bobId()}` }).click()
    await addBob(app.clientId)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Access saved').waitFor()
    expect(await page.getByRole('cell', { name: `only through app ${app.clientId}`, exact: true }).count()).toBe(1)
    expect(await screenshotBothWidths(page, 'dashboard-share-only-through-app')).toBe(0)
    expect(await bobReadsThroughApp('/shared/for-bob')).toBe(200)
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
  })
})
