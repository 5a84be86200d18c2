import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import {
  APP_ID,
  BASE,
  CookieJar,
  FORM,
  WEBID,
  field,
  form,
  logIn,
  newDpopKey,
  obtainTokens,
  openTestPod,
  pageError,
  tokenRequest,
  withToken,
  type DpopKey,
  type TestPod,
} from './op-fixture.ts'

let pod: TestPod
let key: DpopKey
beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
})
afterAll(() => pod.close())

describe('OIDC Core §5.3 userinfo (DPoP-bound)', () => {
  test('GET with the access token and a proof → sub and webid', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const res = await withToken(pod, key, body.access_token as string, 'GET', '/.oidc/userinfo')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ sub: WEBID, webid: WEBID })
  })
  test('POST works too (htm POST)', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    expect((await withToken(pod, key, body.access_token as string, 'POST', '/.oidc/userinfo')).status).toBe(200)
  })
  test('no credentials → 401 with a DPoP challenge', async () => {
    const res = await pod.request('/.oidc/userinfo')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toStartWith('DPoP algs="ES256')
    expect((await res.json()).error).toBe('invalid_token')
  })
  test('a proof by another key → 401 invalid_token', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const res = await withToken(pod, await newDpopKey(), body.access_token as string, 'GET', '/.oidc/userinfo')
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_token')
  })
  test('a token of another issuer, valid at the resource server, → 401 invalid_token', async () => {
    const pair = await generateKeyPair('ES256')
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'o1', alg: 'ES256' }
    pod.docs.set('https://idp.example/.well-known/openid-configuration', {
      body: JSON.stringify({ issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks' }),
      type: 'application/json',
    })
    pod.docs.set('https://idp.example/jwks', { body: JSON.stringify({ keys: [jwk] }), type: 'application/json' })
    pod.docs.set('https://alice.example/card', { body: '<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <https://idp.example>.', type: 'text/turtle' })
    const iat = pod.clock.now / 1000
    const token = await new SignJWT({ webid: 'https://alice.example/card#me', client_id: APP_ID, cnf: { jkt: key.jkt } })
      .setProtectedHeader({ alg: 'ES256', kid: 'o1' })
      .setIssuer('https://idp.example')
      .setAudience('solid')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(pair.privateKey)
    // the resource server accepts it (the root is owner-only, so: authenticated but 403, not 401)
    expect((await withToken(pod, key, token, 'GET', '/')).status).toBe(403)
    const res = await withToken(pod, key, token, 'GET', '/.oidc/userinfo')
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_token')
  })
})

describe('RP-Initiated Logout 1.0 at /.oidc/session/end', () => {
  test('with a valid id_token_hint and a registered post_logout_redirect_uri: signs out, revokes the app session, redirects with state', async () => {
    const jar = new CookieJar()
    const { body } = await obtainTokens(pod, jar, key)
    const res = jar.take(
      await pod.request(
        `/.oidc/session/end?${new URLSearchParams({ id_token_hint: body.id_token as string, post_logout_redirect_uri: 'https://app.example/bye', state: 'bye-1' })}`,
        { headers: { cookie: jar.header() } },
      ),
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('https://app.example/bye?state=bye-1')
    expect(res.headers.getSetCookie().some(c => c.startsWith('solopod_session=;') && c.includes('Max-Age=0'))).toBe(true)
    // the login session is gone: the next authorization needs the password
    const next = await pod.request(
      `/.oidc/auth?${new URLSearchParams({ response_type: 'code', client_id: APP_ID, redirect_uri: 'https://app.example/callback', scope: 'openid webid', prompt: 'none', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
      { headers: { cookie: jar.header() } },
    )
    expect(new URL(next.headers.get('location')!).searchParams.get('error')).toBe('login_required')
    // and the app's refresh token and access token are revoked
    expect(
      (await tokenRequest(pod, { key, fields: { grant_type: 'refresh_token', refresh_token: body.refresh_token as string, client_id: APP_ID } })).status,
    ).toBe(400)
    expect((await withToken(pod, key, body.access_token as string, 'GET', '/')).status).toBe(401)
  })
  test('an ID token of another login session as hint → the owner is asked first; nothing is signed out or revoked by the link', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const browser = new CookieJar()
    await logIn(pod, browser)
    for (const cookie of [browser.header(), '']) {
      const res = browser.take(
        await pod.request(
          `/.oidc/session/end?${new URLSearchParams({ id_token_hint: body.id_token as string, post_logout_redirect_uri: 'https://app.example/bye' })}`,
          { headers: { cookie } },
        ),
      )
      expect(res.status).toBe(200)
      expect(res.headers.get('location')).toBeNull()
      const page = await res.text()
      expect(field(page, 'id_token_hint')).toBe(body.id_token as string)
      expect(page).toContain('csrf')
    }
    expect(browser.cookies.has('solopod_session')).toBe(true)
    expect((await withToken(pod, key, body.access_token as string, 'GET', '/profile/card')).status).toBe(200)
    // the confirmed POST (same origin, CSRF token) does sign out and revoke the hinted session
    const ask = await browser
      .take(
        await pod.request(`/.oidc/session/end?${new URLSearchParams({ id_token_hint: body.id_token as string })}`, { headers: { cookie: browser.header() } }),
      )
      .text()
    const res = browser.take(
      await pod.request('/.oidc/session/end', {
        method: 'POST',
        headers: { 'content-type': FORM, cookie: browser.header(), origin: BASE },
        body: form({ csrf: field(ask, 'csrf'), confirm: 'yes', id_token_hint: body.id_token as string }),
      }),
    )
    expect(res.status).toBe(200)
    expect(browser.cookies.has('solopod_session')).toBe(false)
    expect((await withToken(pod, key, body.access_token as string, 'GET', '/profile/card')).status).toBe(401)
  })
  test('an unregistered post_logout_redirect_uri → error page, never a redirect', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const res = await pod.request(
      `/.oidc/session/end?${new URLSearchParams({ id_token_hint: body.id_token as string, post_logout_redirect_uri: 'https://evil.example/' })}`,
    )
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
    expect(pageError(await res.text())).toBe('invalid_request')
  })
  test('post_logout_redirect_uri without a way to know the client → error page', async () => {
    const res = await pod.request(`/.oidc/session/end?${new URLSearchParams({ post_logout_redirect_uri: 'https://app.example/bye' })}`)
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('invalid_request')
  })
  test('an id_token_hint that is not ours → error page', async () => {
    const pair = await generateKeyPair('ES256')
    const foreign = await new SignJWT({ azp: APP_ID }).setProtectedHeader({ alg: 'ES256' }).setIssuer(BASE).sign(pair.privateKey)
    const res = await pod.request(`/.oidc/session/end?${new URLSearchParams({ id_token_hint: foreign })}`)
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('invalid_request')
  })
  test('without a hint the owner is asked first (logout CSRF), then the confirmed POST signs out', async () => {
    const jar = new CookieJar()
    await logIn(pod, jar)
    const ask = jar.take(
      await pod.request(`/.oidc/session/end?${new URLSearchParams({ client_id: APP_ID, post_logout_redirect_uri: 'https://app.example/bye' })}`, {
        headers: { cookie: jar.header() },
      }),
    )
    expect(ask.status).toBe(200)
    expect(jar.cookies.has('solopod_session')).toBe(true)
    const page = await ask.text()
    // in the dashboard's words, with a way back that signs nothing out
    expect(page).toContain(`${APP_ID} asks to sign you out of your pod in this browser. The app sessions you started from it end too.`)
    expect(page).toContain('<a class="button secondary" href="/.admin/">Stay signed in</a>')
    const post = (fields: Record<string, string>) =>
      pod.request('/.oidc/session/end', { method: 'POST', headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE }, body: form(fields) })
    const noCsrf = await post({ confirm: 'yes', client_id: APP_ID })
    expect(noCsrf.status).toBe(403)
    const res = jar.take(
      await post({
        csrf: field(page, 'csrf'),
        confirm: 'yes',
        client_id: field(page, 'client_id'),
        post_logout_redirect_uri: field(page, 'post_logout_redirect_uri'),
      }),
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('https://app.example/bye')
    expect(jar.cookies.has('solopod_session')).toBe(false)
  })
})
