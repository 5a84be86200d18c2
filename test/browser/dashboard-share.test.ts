// Issue 13 "Share" in Chromium, on the share page (/.admin/share?path=): sharing in one step with an awkward
// name, with JavaScript and without; the owner shares a document with a WebID hosted on a second pod (typed
// without #me, the page asks first), and that person, signed in to a third-party app (Inrupt's libraries)
// through their own pod, reads it; the public cannot; removing the share refuses them. A change drops what
// the page cannot show of an ACL document only when ticked.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { logInThroughApp, openApp, runInApp } from './app-flow.ts'

setDefaultTimeout(60_000)
let alicePod: RunningPod
let bobPod: RunningPod
let app: TestApp
let alice: BrowserContext
let page: Page

beforeAll(async () => {
  ;[alicePod, bobPod, app] = await Promise.all([startBrowserPod(), startBrowserPod(), startTestApp()])
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
const asOwner = (url: string, init: { method?: string; type?: string; body?: string } = {}) =>
  page.evaluate(
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
const TITLE = (t: string) => `<#it> <http://purl.org/dc/terms/title> "${t}".`

describe('the share page: one step, with an awkward name, JavaScript on and off', () => {
  const NAME = 'Été photos #1 & co?'
  const PATH = `/notes/${encodeURIComponent(NAME)}`
  const SHARE = (a2: string) => `${a2}/.admin/share?path=${encodeURIComponent(PATH)}`
  test('the public shares in one step: Send it shows the link, Copy link copies it; light and dark, both widths', async () => {
    expect((await asOwner(a(PATH), { method: 'PUT', type: 'text/plain', body: 'photos' })).status).toBe(201)
    await page.goto(SHARE(alicePod.baseUrl))
    expect(await page.locator('h1').textContent()).toBe(`Who can access /notes/${NAME}`)
    await page.getByLabel('Who', { exact: true }).selectOption('public')
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.getByText('Shared', { exact: true }).waitFor()
    expect((await fetch(a(PATH))).status).toBe(200)
    const link = page.getByLabel('Link for Everyone (public)', { exact: true })
    const sent = new URL(await link.inputValue())
    expect(sent.pathname).toBe('/.visitor/files')
    expect(decodeURIComponent(sent.searchParams.get('path')!)).toBe(`/notes/${NAME}`)
    expect(await page.getByRole('button', { name: 'Copy link for Everyone (public)' }).count()).toBe(1)
    expect(await unlabelledControls(page)).toEqual([])
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-share-awkward')).toBe(0)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await contrastFailures(page)).toEqual([])
    expect(await screenshotBothWidths(page, 'dashboard-share-awkward-dark')).toBe(0)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('button', { name: 'Remove access of Everyone (public)' }).click()
    await page.getByText('Access removed').waitFor()
    expect((await fetch(a(PATH))).status).toBe(401)
  })
  test('without JavaScript: the same form shares and removes; "why may the public read it?" is answered by the page', async () => {
    const plain = await newContext({ javaScriptEnabled: false })
    const p = await plain.newPage()
    await signInToDashboard(p, alicePod.baseUrl)
    await p.goto(SHARE(alicePod.baseUrl))
    await p.getByLabel('Who', { exact: true }).selectOption('public')
    await p.getByRole('button', { name: 'Share', exact: true }).click()
    await p.getByText('Shared', { exact: true }).waitFor()
    expect(await p.getByRole('button', { name: /^Copy link/ }).count()).toBe(0)
    await p.getByLabel('Agent: a WebID, a key URL, or "public"').fill('public')
    await p.getByRole('button', { name: 'Check access' }).click()
    expect(await p.locator('#check-answer').textContent()).toContain('public may: read')
    expect(await screenshotBothWidths(p, 'dashboard-share-no-js')).toBe(0)
    await p.getByRole('button', { name: 'Remove access of Everyone (public)' }).click()
    await p.getByText('Access removed').waitFor()
    expect((await fetch(a(PATH))).status).toBe(401)
    await plain.close()
  })
})

describe('an http pod: the grants page says why grants need https, no form that could only fail', () => {
  test('the reason instead of the form', async () => {
    await page.goto(a('/.admin/grants'))
    expect(await page.locator('#grants-need-https').textContent()).toContain(`this pod runs at ${alicePod.baseUrl}`)
    expect(await page.getByRole('button', { name: 'Create grant' }).count()).toBe(0)
    expect(await screenshotBothWidths(page, 'dashboard-grants-http')).toBe(0)
  })
})

describe('"use the folder\'s access" and the owner\'s own Control', () => {
  test('an ACL with a note: the page lists it and each change asks for the "drop" tick', async () => {
    expect((await asOwner(a('/notes/doc.ttl'), { method: 'PUT', type: 'text/turtle', body: TITLE('doc') })).status).toBe(201)
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#owner> a acl:Authorization; acl:agent <${a('/profile/card#me')}>; acl:accessTo <doc.ttl>; acl:mode acl:Read, acl:Write, acl:Control;
  rdfs:comment "keep: agreed with Bob on 2026-11-01".`
    expect((await asOwner(a('/notes/doc.ttl.acl'), { method: 'PUT', type: 'text/turtle', body: acl })).status).toBe(201)
    await page.goto(a('/.admin/share?path=%2Fnotes%2Fdoc.ttl'))
    const warning = page.locator('#acl-leftovers')
    expect(await warning.textContent()).toContain('holds 1 statement this page cannot show')
    expect(await warning.locator('code').textContent()).toBe('<#owner> rdfs:comment "keep: agreed with Bob on 2026-11-01".')
    await page.getByRole('link', { name: 'Use inherited access instead' }).click()
    await page.getByLabel('Drop the 1 statement this page cannot show').check()
    await page.getByRole('button', { name: 'Use inherited access' }).click()
    await page.getByText('This item now has the access inherited from its folder').waitFor()
    expect((await asOwner(a('/notes/doc.ttl.acl'))).status).toBe(404)
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

  test("the owner shares it with Bob's WebID: typed without #me the page asks first; Bob's app reads it (200), the public gets 401", async () => {
    await page.goto(a('/.admin/share?path=%2Fshared%2Ffor-bob'))
    await page.getByLabel('Who', { exact: true }).selectOption('agent')
    // as typed, the script asks the pod: the document names Bob's WebID
    await page.getByLabel('Their WebID (or the group or key URL)').fill(`${bobPod.baseUrl}/profile/card`)
    await page.getByRole('button', { name: bobWebId() }).waitFor()
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.locator('#webid-question').waitFor()
    expect(await page.locator('#question-h').textContent()).toBe(`Did you mean ${bobWebId()}?`)
    expect(await screenshotBothWidths(page, 'dashboard-share-webid-question')).toBe(0)
    expect(await bobReads('/shared/for-bob')).toBe(403)
    await page.getByRole('button', { name: `Share with ${bobWebId()}` }).click()
    await page.getByText('Shared', { exact: true }).waitFor()
    expect(await page.getByRole('cell', { name: `Person (WebID) ${bobWebId()}`, exact: true }).count()).toBe(1)
    // "why may Bob read it?": the server's one decision names the rule of the ACL just written
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

  test('a WebID whose document does not describe it is refused: 422 not_a_profile, nothing written', async () => {
    await page.goto(a('/.admin/share?path=%2Fshared%2Ffor-bob'))
    await page.getByLabel('Who', { exact: true }).selectOption('agent')
    await page.getByLabel('Their WebID (or the group or key URL)').fill(`${bobPod.baseUrl}/profile/card#nobody`)
    await page.locator('#share-value-hint.field-error').waitFor()
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    expect(await page.locator('#error').textContent()).toBe('not_a_profile')
    expect(await screenshotBothWidths(page, 'dashboard-share-webid-refused')).toBe(0)
    // Back to sharing: the form as it was typed, to mend the WebID rather than type it all anew
    await page.getByRole('link', { name: 'Back to sharing' }).click()
    expect(await page.getByLabel('Their WebID (or the group or key URL)').inputValue()).toBe(`${bobPod.baseUrl}/profile/card#nobody`)
    expect(await page.getByLabel('Who', { exact: true }).inputValue()).toBe('agent')
    expect(await screenshotBothWidths(page, 'dashboard-share-webid-back')).toBe(0)
    await page.goto(a('/.admin/share?path=%2Fshared%2Ffor-bob'))
    expect((await asOwner(a('/shared/for-bob.acl'))).text).not.toContain('#nobody')
  })

  test('the owner removes the share: Bob is refused (403)', async () => {
    await page.goto(a('/.admin/share?path=%2Fshared%2Ffor-bob'))
    await page.getByRole('button', { name: `Remove access of ${bobWebId()}` }).click()
    await page.getByText('Access removed').waitFor()
    expect(await bobReads('/shared/for-bob')).toBe(403)
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
  })
})

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
      await page.goto(a('/.admin/share?path=%2Fshared%2Ffor-bob'))
      await page.getByLabel('Who', { exact: true }).selectOption('agent')
      await page.getByLabel('Their WebID (or the group or key URL)').fill(bobId())
      await page.getByText('More choices').click()
      await page.getByLabel('Only through this app: its client ID (optional, for a person)').fill(clientId)
      await page.getByRole('button', { name: 'Share', exact: true }).click()
    }
    // a value that is not a URL: the browser asks for one before sending (the server's 400 invalid_field: test/admin/basic-share-edit.test.ts)
    await addBob('app.example')
    expect(await page.locator('#share-client:invalid').count()).toBe(1)
    expect(await page.getByText('Shared', { exact: true }).count()).toBe(0)
    await addBob('https://other-app.example/id')
    await page.getByText('Shared', { exact: true }).waitFor()
    expect(await page.getByRole('cell', { name: 'only through app https://other-app.example/id', exact: true }).count()).toBe(1)
    expect(await bobReadsThroughApp('/shared/for-bob')).toBe(403)

    await page.getByRole('button', { name: `Remove access of ${bobId()}` }).click()
    await page.getByText('Access removed').waitFor()
    await addBob(app.clientId)
    await page.getByText('Shared', { exact: true }).waitFor()
    expect(await page.getByRole('cell', { name: `only through app ${app.clientId}`, exact: true }).count()).toBe(1)
    expect(await screenshotBothWidths(page, 'dashboard-share-only-through-app')).toBe(0)
    expect(await bobReadsThroughApp('/shared/for-bob')).toBe(200)
    expect((await fetch(a('/shared/for-bob'))).status).toBe(401)
  })
})
