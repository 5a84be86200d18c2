import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { revokeConsent } from '../../src/account/consents.ts'
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey } from 'jose'
import {
  APP_ID,
  APP_REDIRECT,
  BASE,
  CHALLENGE,
  CONTEXT,
  CookieJar,
  appDocument,
  authorize,
  authorizeUrl,
  logIn,
  openTestPod,
  pageError,
  type TestPod,
} from './op-fixture.ts'

let pod: TestPod
let jar: CookieJar
beforeAll(async () => {
  pod = await openTestPod()
  jar = new CookieJar()
  await logIn(pod, jar)
})
afterAll(() => pod.close())

const get = (params: Record<string, string | undefined>, cookie = jar.header()) => pod.request(authorizeUrl(params), { headers: { cookie } })

/** The error redirect: status 302 to the client's redirect URI with error, state and iss. */
async function expectRedirectError(res: Response, error: string) {
  expect(res.status).toBe(302)
  const url = new URL(res.headers.get('location')!)
  expect(url.origin + url.pathname).toBe(APP_REDIRECT)
  expect(url.searchParams.get('error')).toBe(error)
  expect(url.searchParams.get('error_description')).toBeTruthy()
  expect(url.searchParams.get('iss')).toBe(BASE)
  return url
}

/** The error page: never a redirect. */
async function expectErrorPage(res: Response, error: string, status = 400) {
  expect(res.status).toBe(status)
  expect(res.headers.get('location')).toBeNull()
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  const page = await res.text()
  expect(pageError(page)).toBe(error)
  return page
}

describe('RFC 6749 §4.1.2.1: invalid client or redirect URI → an error page, never a redirect', () => {
  test('missing client_id', async () => {
    await expectErrorPage(await get({ client_id: undefined }), 'invalid_client')
  })
  test('unregistered client_id that is not a URL', async () => {
    await expectErrorPage(await get({ client_id: 'nobody' }), 'invalid_client')
  })
  test('redirect_uri not listed in the Client ID Document', async () => {
    const page = await expectErrorPage(await get({ redirect_uri: 'https://evil.example/cb' }), 'invalid_request')
    expect(page).toContain('must match one of them exactly')
  })
  test('redirect_uri that only differs by a trailing slash', async () => {
    await expectErrorPage(await get({ redirect_uri: `${APP_REDIRECT}/` }), 'invalid_request')
  })
  test('missing redirect_uri', async () => {
    await expectErrorPage(await get({ redirect_uri: undefined }), 'invalid_request')
  })
  test('the page has strict security headers', async () => {
    const res = await get({ client_id: 'nobody' })
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('content-security-policy')).not.toContain('script-src')
  })
})

describe('Solid-OIDC §5, RFC 7591: Client ID Documents', () => {
  const id = (n: string) => `https://app.example/${n}`
  const redirect = (n: string) => ({ client_id: id(n), redirect_uri: APP_REDIRECT })
  test('a document that is not JSON-LD (application/json) is refused, saying what a usable answer is (never what came back)', async () => {
    pod.docs.set(id('json'), { ...appDocument({ client_id: id('json') }), type: 'application/json' })
    const page = await expectErrorPage(await get(redirect('json')), 'invalid_client')
    expect(page).toContain('expected: status 200, application/ld+json, at most 64 KiB')
    expect(page).not.toContain('answered application/json')
  })
  test('a document without the Solid-OIDC context is refused', async () => {
    pod.docs.set(id('noctx'), appDocument({ client_id: id('noctx'), '@context': ['https://www.w3.org/ns/activitystreams'] }))
    const page = await expectErrorPage(await get(redirect('noctx')), 'invalid_client')
    expect(page).toContain(CONTEXT)
  })
  test('the context as a plain string is accepted', async () => {
    pod.docs.set(id('ctxstring'), appDocument({ client_id: id('ctxstring'), '@context': CONTEXT }))
    const res = await get(redirect('ctxstring'))
    expect(res.status).toBe(303)
  })
  test('a document naming another client_id is refused', async () => {
    pod.docs.set(id('other'), appDocument({ client_id: 'https://elsewhere.example/id' }))
    await expectErrorPage(await get(redirect('other')), 'invalid_client')
  })
  test('a document that does not parse is refused', async () => {
    pod.docs.set(id('broken'), { body: '{"@context": ', type: 'application/ld+json' })
    await expectErrorPage(await get(redirect('broken')), 'invalid_client')
  })
  test('a document that cannot be fetched (404) is refused', async () => {
    await expectErrorPage(await get(redirect('missing')), 'invalid_client')
  })
  test('an http Client ID Document URL on a public host is refused (https only)', async () => {
    await expectErrorPage(await get({ client_id: 'http://app.example/id' }), 'invalid_client')
  })
  test.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['http on a public host', 'http://app.example/cb'],
    ['a fragment', 'https://app.example/cb#x'],
  ])('a redirect URI with %s in the document is refused (RFC 6749 §3.1.2, as in registration), never redirected to', async (name, uri) => {
    const n = `bad-${name.replace(/\W/g, '')}`
    pod.docs.set(id(n), appDocument({ client_id: id(n), redirect_uris: [uri] }))
    const page = await expectErrorPage(await get({ client_id: id(n), redirect_uri: uri }), 'invalid_client')
    expect(page).toContain('redirect_uris')
  })
  test('a post_logout_redirect_uri with javascript: in the document is refused', async () => {
    pod.docs.set(id('badlogout'), appDocument({ client_id: id('badlogout'), post_logout_redirect_uris: ['javascript:alert(1)'] }))
    await expectErrorPage(await get(redirect('badlogout')), 'invalid_client')
  })
  test('validated documents are cached', async () => {
    pod.docs.set(id('cached'), appDocument({ client_id: id('cached') }))
    await get(redirect('cached'))
    const before = pod.fetches()
    await get(redirect('cached'))
    expect(pod.fetches()).toBe(before)
  })
})

describe('OIDC Core §3.1.2: errors after the redirect URI is validated go back to it', () => {
  test('every redirect carries iss (RFC 9207) and echoes state', async () => {
    const url = await expectRedirectError(await get({ response_type: 'token' }), 'unsupported_response_type')
    expect(url.searchParams.get('state')).toBe('st-1')
  })
  test.each([
    ['response_type=token (implicit)', { response_type: 'token' }, 'unsupported_response_type'],
    ['response_type=code id_token', { response_type: 'code id_token' }, 'unsupported_response_type'],
    ['missing response_type', { response_type: undefined }, 'invalid_request'],
    ['scope without openid', { scope: 'webid' }, 'invalid_scope'],
    ['scope without webid (Solid-OIDC)', { scope: 'openid offline_access' }, 'invalid_scope'],
    ["scope outside the document's scope", { scope: 'openid webid email' }, 'invalid_scope'],
    ['public client without code_challenge', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['public client with plain PKCE', { code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) }, 'invalid_request'],
    ['public client without code_challenge_method (means plain)', { code_challenge_method: undefined }, 'invalid_request'],
    ['an unknown PKCE method', { code_challenge_method: 'S512' }, 'invalid_request'],
    ['a code_challenge of wrong length', { code_challenge: 'abc' }, 'invalid_request'],
    ['a code_challenge with a bad character', { code_challenge: `${CHALLENGE.slice(0, 42)}!` }, 'invalid_request'],
    ['request_uri', { request_uri: 'https://app.example/req' }, 'request_uri_not_supported'],
    ['registration', { registration: '{"redirect_uris":["https://app.example/cb"]}' }, 'registration_not_supported'],
    ['unknown prompt value', { prompt: 'dance' }, 'invalid_request'],
    ['prompt=none with login', { prompt: 'none login' }, 'invalid_request'],
    ['max_age that is not a number', { max_age: 'soon' }, 'invalid_request'],
    ['response_mode=fragment', { response_mode: 'fragment' }, 'invalid_request'],
    ['malformed dpop_jkt', { dpop_jkt: 'short' }, 'invalid_request'],
  ] as [string, Record<string, string | undefined>, string][])('%s → %s', async (_, params, error) => {
    await expectRedirectError(await get(params), error)
  })
  test('"identity" (only who the owner is) with a folder scope contradicts itself → invalid_scope', async () => {
    const url = await expectRedirectError(await get({ scope: `openid webid identity ${BASE}/photos/` }), 'invalid_scope')
    expect(url.searchParams.get('error_description')).toContain('"identity" asks for no data')
  })
  test('"identity" needs no place in the document\'s scope (it asks for less): the request goes on to consent', async () => {
    const fresh = new CookieJar()
    await logIn(pod, fresh)
    const res = await get({ scope: 'openid webid identity' }, fresh.header())
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/consent?interaction=`)
  })
  test('a repeated parameter → invalid_request', async () => {
    const res = await pod.request(`${authorizeUrl()}&scope=openid`, { headers: { cookie: jar.header() } })
    await expectRedirectError(res, 'invalid_request')
  })
  test('the document may narrow response_types: code missing → unauthorized_client', async () => {
    pod.docs.set('https://app.example/nocode', appDocument({ client_id: 'https://app.example/nocode', response_types: ['id_token'] }))
    await expectRedirectError(await get({ client_id: 'https://app.example/nocode' }), 'unauthorized_client')
  })
})

describe('OIDC Core §3.1.2.1: prompt and max_age', () => {
  test('prompt=none without a session → login_required', async () => {
    await expectRedirectError(await get({ prompt: 'none' }, ''), 'login_required')
  })
  test('prompt=none without remembered consent → consent_required', async () => {
    await expectRedirectError(await get({ prompt: 'none', client_id: 'https://app.example/ctxstring' }), 'consent_required')
  })
  test('prompt=none with session and consent → code without any page', async () => {
    const fresh = new CookieJar()
    await authorize(pod, fresh)
    const res = await get({ prompt: 'none' }, fresh.header())
    expect(res.status).toBe(302)
    const url = new URL(res.headers.get('location')!)
    expect(url.searchParams.get('code')).toBeTruthy()
    expect(url.searchParams.get('iss')).toBe(BASE)
  })
  test('without a session the login page comes first', async () => {
    const res = await get({}, '')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/login?interaction=`)
  })
  test('prompt=login asks for the password again despite a session', async () => {
    const fresh = new CookieJar()
    await authorize(pod, fresh)
    const res = await get({ prompt: 'login' }, fresh.header())
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/login?interaction=`)
  })
  test('max_age older than the last login asks for the password again', async () => {
    const fresh = new CookieJar()
    await authorize(pod, fresh)
    pod.clock.now += 120_000
    try {
      expect((await get({ max_age: '60' }, fresh.header())).headers.get('location')).toStartWith(`${BASE}/.oidc/login?interaction=`)
      expect(new URL((await get({ max_age: '600' }, fresh.header())).headers.get('location')!).searchParams.get('code')).toBeTruthy()
    } finally {
      pod.clock.now -= 120_000
    }
  })
  test('prompt=consent is satisfied by a remembered consent (Inrupt clients send it on every login)', async () => {
    const fresh = new CookieJar()
    await authorize(pod, fresh)
    expect(new URL((await get({ prompt: 'consent' }, fresh.header())).headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })
  test('prompt=consent for scopes beyond the remembered consent shows the consent page', async () => {
    await revokeConsent(pod.store, APP_ID, pod.clock.now)
    const fresh = new CookieJar()
    await authorize(pod, fresh, { scope: 'openid webid' })
    expect((await get({ prompt: 'consent', scope: 'openid webid offline_access' }, fresh.header())).headers.get('location')).toStartWith(
      `${BASE}/.oidc/consent?interaction=`,
    )
  })
  test('POST to the authorization endpoint works like GET', async () => {
    const fresh = new CookieJar()
    await authorize(pod, fresh)
    const body = new URL(authorizeUrl(), BASE).searchParams.toString()
    const res = await pod.request('/.oidc/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: fresh.header() },
      body,
    })
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })
})

describe('RFC 9101 request objects', () => {
  let clientId: string
  let clientKey: CryptoKey
  let otherKey: CryptoKey
  const REDIRECT = 'https://jar.example/cb'
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256')
    clientKey = pair.privateKey
    otherKey = (await generateKeyPair('ES256')).privateKey
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'c1' }
    const res = await pod.request('/.oidc/reg', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        scope: 'openid webid offline_access',
        token_endpoint_auth_method: 'none',
        jwks: { keys: [jwk] },
        client_name: 'JAR app',
      }),
    })
    clientId = (await res.json()).client_id
  })
  const claims = (more: Record<string, unknown> = {}) => ({
    iss: clientId,
    aud: BASE,
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid webid',
    state: 'jar-state',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...more,
  })
  const signed = (c = claims(), key = clientKey, alg = 'ES256') =>
    new SignJWT(c)
      .setProtectedHeader({ alg, kid: 'c1' })
      .setIssuedAt(Math.floor(pod.clock.now / 1000))
      .setExpirationTime(Math.floor(pod.clock.now / 1000) + 300)
      .sign(key)
  const send = (request: string, extra: Record<string, string> = {}) =>
    pod.request(`/.oidc/auth?${new URLSearchParams({ client_id: clientId, request, ...extra })}`, { headers: { cookie: jar.header() } })

  test('an ES256-signed object from a registered client is used', async () => {
    const res = await send(await signed())
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/consent?interaction=`)
  })
  test('an unsigned object (alg none) is refused with invalid_request_object', async () => {
    const unsigned = new UnsecuredJWT(claims()).encode()
    const url = await expectRedirectErrorTo(await send(unsigned, { redirect_uri: REDIRECT }), REDIRECT, 'invalid_request_object')
    expect(url.searchParams.get('error_description')).toContain('unsigned')
  })
  test('an unsigned object without a registered redirect_uri in the query → page', async () => {
    await expectErrorPage(await send(new UnsecuredJWT(claims()).encode()), 'invalid_request_object')
  })
  test('an object signed by another key is refused', async () => {
    await expectRedirectErrorTo(await send(await signed(claims(), otherKey), { redirect_uri: REDIRECT }), REDIRECT, 'invalid_request_object')
  })
  test('an object whose aud is not this issuer is refused', async () => {
    await expectRedirectErrorTo(
      await send(await signed(claims({ aud: 'https://other.example' })), { redirect_uri: REDIRECT }),
      REDIRECT,
      'invalid_request_object',
    )
  })
  test('an expired object is refused', async () => {
    const old = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'ES256' })
      .setExpirationTime(Math.floor(pod.clock.now / 1000) - 3600)
      .sign(clientKey)
    await expectRedirectErrorTo(await send(old, { redirect_uri: REDIRECT }), REDIRECT, 'invalid_request_object')
  })
  test('a Client ID Document client cannot send request objects (it has no registered keys)', async () => {
    const obj = await signed({ ...claims(), client_id: APP_ID, iss: APP_ID, redirect_uri: APP_REDIRECT })
    const res = await pod.request(`/.oidc/auth?${new URLSearchParams({ client_id: APP_ID, request: obj, redirect_uri: APP_REDIRECT })}`, {
      headers: { cookie: jar.header() },
    })
    await expectRedirectError(res, 'invalid_request_object')
  })
  test('the redirect_uri inside the object is checked like a query one', async () => {
    await expectErrorPage(await send(await signed(claims({ redirect_uri: 'https://evil.example/cb' }))), 'invalid_request')
  })
})

async function expectRedirectErrorTo(res: Response, redirect: string, error: string) {
  expect(res.status).toBe(302)
  const url = new URL(res.headers.get('location')!)
  expect(url.origin + url.pathname).toBe(redirect)
  expect(url.searchParams.get('error')).toBe(error)
  expect(url.searchParams.get('iss')).toBe(BASE)
  return url
}
