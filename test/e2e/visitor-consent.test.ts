// Issue 33 over real HTTP with two pods: a friend signing in to see a share is not asked to give the
// sharing pod access to their own. Alice shares a folder with Bob (his WebID on pod 2, a solopod); Bob signs
// in through Alice's visitor page at his own pod, whose consent page proposes "Only confirm who I am"
// (the visitor sign-in asks with scope `identity`); Alice's pod shows him the share, and his pod keeps
// Alice's pod as an app that reaches nothing. A client sending `identity` itself: its tokens read nothing.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { exchangeCode, serveClientIdDocument, type ClientIdServer } from './oidc-client.ts'
import { CHALLENGE, CookieJar, dpopProof, field, FORM, newDpopKey } from '../op/op-fixture.ts'
import { expectRsError } from '../rs/rs-helpers.ts'
import { allowAsProposed, browse, checkedRadio, signInAsVisitor } from './visitor-client.ts'
import { csrfToken } from './owner-login.ts'

let alice: RunningPod
let bob: RunningPod
let aliceApp: OwnerApp
let bobApp: OwnerApp
const jar = new CookieJar()
const a = (path: string) => alice.baseUrl + path
const b = (path: string) => bob.baseUrl + path
const bobWebId = () => b('/profile/card#me')
const TRIP = '/trip%20%C3%A9t%C3%A9/'

async function put(app: OwnerApp, url: string, body: string, type = 'text/plain') {
  const res = await app.fetch(url, { method: 'PUT', headers: { 'content-type': type }, body })
  if (res.status >= 300) throw new Error(`PUT ${url}: ${res.status} ${await res.text()}`)
}

/** Bob's dashboard API, with the login cookie his browser got at his pod while signing in. */
async function bobApi(path: string, browser: CookieJar): Promise<Response> {
  const csrf = await csrfToken(bob.baseUrl, browser)
  return fetch(b(path), { headers: { cookie: browser.header(), 'x-csrf-token': csrf, origin: bob.baseUrl } })
}

/** An authorization request at Bob's pod through its consent page (he is signed in): the page and where "Allow" led. */
async function throughConsent(client: ClientIdServer, scope: string, answer: (page: string) => Record<string, string>) {
  const browser = bobApp.browser
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope,
    state: 's',
    nonce: 'n',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  })
  const toConsent = await browse(browser, b(`/.oidc/auth?${params}`))
  const consentUrl = new URL(toConsent.headers.get('location')!, bob.baseUrl)
  expect(consentUrl.pathname).toBe('/.oidc/consent')
  const page = await (await browse(browser, consentUrl.href)).text()
  const res = await browse(browser, b('/.oidc/consent'), {
    method: 'POST',
    headers: { 'content-type': FORM, origin: bob.baseUrl },
    body: new URLSearchParams({ csrf: field(page, 'csrf'), interaction: field(page, 'interaction'), ...answer(page) }),
  })
  return { page, res }
}

/** Fetch with a DPoP-bound access token, as an app does. */
const withToken = (token: string, key: Awaited<ReturnType<typeof newDpopKey>>) => async (url: string) =>
  fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url, Date.now(), { accessToken: token }) } })

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod(), startPod()])
  ;[aliceApp, bobApp] = await Promise.all([signInOwnerApp(alice, "Alice's app"), signInOwnerApp(bob, "Bob's app")])
  await put(aliceApp, a(`${TRIP}notes.txt`), 'Day 1: sea.')
  await put(
    aliceApp,
    a(`${TRIP}.acl`),
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${a('/profile/card#me')}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${bobWebId()}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    'text/turtle',
  )
  await put(bobApp, b('/private/diary.txt'), "Bob's secret")
}, 90_000)
afterAll(async () => {
  aliceApp?.stop()
  bobApp?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

describe('Bob signs in to see what Alice shares', () => {
  let consentPage = ''

  test('his pod\'s consent page proposes "Only confirm who I am"; he allows; Alice\'s pod shows him the share', async () => {
    const done = await signInAsVisitor(alice, bob, jar, {
      returnTo: TRIP,
      consent: page => {
        consentPage = page
        return allowAsProposed(page)
      },
    })
    expect(checkedRadio(consentPage, 'access')).toBe('identity')
    expect(consentPage).toContain('<h1>Confirm who you are?</h1>')
    expect(consentPage).toContain('<strong>Only confirm who I am</strong>')
    // what Alice's pod asks for: who he is, nothing more (no refresh tokens)
    expect(consentPage).toContain('<code>identity</code>: None of your data: it asks only who you are')
    expect(consentPage).not.toContain('offline_access')
    expect(done.status).toBe(303)
    const page = (await (await browse(jar, a(done.headers.get('location')!))).text()).replace(/<wbr>/g, '')
    expect(page).toContain(bobWebId())
    expect(page).toContain('notes.txt')
  })

  test("his pod keeps Alice's pod as an app that reaches nothing beyond what is public", async () => {
    const consents = (await (await bobApi('/.admin/api/consents', jar)).json()) as { clientId: string; scopes: string[]; access: unknown }[]
    const visitorClient = consents.find(c => c.clientId === a('/.visitor/id'))!
    expect(visitorClient.scopes).toEqual(['openid', 'webid', 'identity'])
    expect(visitorClient.access).toEqual({ full: false, folders: [], summary: 'nothing beyond what is public: it only confirms who you are' })
  })

  test('signing in again, the remembered answer stands: no consent page, and he is back on the share', async () => {
    const again = new CookieJar()
    for (const [k, v] of jar.cookies) again.cookies.set(k, v)
    let asked = false
    const done = await signInAsVisitor(alice, bob, again, {
      returnTo: TRIP,
      consent: page => {
        asked = true
        return allowAsProposed(page)
      },
    })
    expect(asked).toBe(false)
    expect(done.status).toBe(303)
  })
})

describe('a client that sends `identity` itself', () => {
  test('gets "Only confirm who I am" proposed; its token reads nothing private (403 outside_app_scope), only what is public', async () => {
    // its document lists no `identity`, as one must for providers that refuse unknown scope values there
    const client = serveClientIdDocument('Sign-in only app', 'openid webid offline_access')
    try {
      const { page, res } = await throughConsent(client, 'openid webid identity', allowAsProposed)
      expect(checkedRadio(page, 'access')).toBe('identity')
      expect(res.status).toBe(303)
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!
      const key = await newDpopKey()
      const tokens = await exchangeCode(bob.baseUrl, client, key, code)
      const get = withToken(tokens.access_token as string, key)
      const text = await expectRsError(await get(b('/private/diary.txt')), 403, 'outside_app_scope')
      expect(text).toContain('to confirm who the owner is, nothing beyond what is public')
      await expectRsError(await get(b('/')), 403, 'outside_app_scope')
      expect((await get(b('/profile/card'))).status).toBe(200)
      // the owner's own app still reads it: the rules did not change
      expect((await bobApp.fetch(b('/private/diary.txt'))).status).toBe(200)
    } finally {
      client.stop()
    }
  })

  test('with a folder scope as well it contradicts itself: invalid_scope back at the app, no consent page', async () => {
    const client = serveClientIdDocument('Contradicting app', 'openid webid')
    try {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: `openid webid identity ${b('/photos/')}`,
        state: 's',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      })
      const res = await browse(bobApp.browser, b(`/.oidc/auth?${params}`))
      expect(res.status).toBe(302)
      const back = new URL(res.headers.get('location')!)
      expect(back.origin + back.pathname).toBe(client.redirectUri)
      expect(back.searchParams.get('error')).toBe('invalid_scope')
    } finally {
      client.stop()
    }
  })
})
