import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeProtectedHeader } from 'jose'
import { saveConsent } from '../../src/account/consents.ts'
import {
  APP_ID,
  BASE,
  CookieJar,
  FORM,
  authorize,
  authorizeUrl,
  codeFields,
  field,
  form,
  logIn,
  newDpopKey,
  obtainTokens,
  openTestPod,
  tokenRequest,
  withToken,
  type DpopKey,
  type TestPod,
} from '../op/op-fixture.ts'

let pod: TestPod
let owner: CookieJar
let csrf: string
let key: DpopKey
beforeAll(async () => {
  pod = await openTestPod()
  owner = new CookieJar()
  await logIn(pod, owner)
  key = await newDpopKey()
  csrf = (await (await api('GET', '/.admin/api/csrf')).json()).token
})
afterAll(() => pod.close())

function api(method: string, path: string, o: { body?: unknown; csrf?: string | false; origin?: string; jar?: CookieJar } = {}) {
  const jar = o.jar ?? owner
  return pod
    .request(path, {
      method,
      headers: {
        cookie: jar.header(),
        ...(o.origin ? { origin: o.origin } : {}),
        ...(o.csrf !== false && (o.csrf ?? csrf) ? { 'x-csrf-token': (o.csrf || csrf) as string } : {}),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    })
    .then(r => {
      jar.take(r)
      return r
    })
}

const refresh = (t: string) => tokenRequest(pod, { key, fields: { grant_type: 'refresh_token', refresh_token: t, client_id: APP_ID } })
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error

describe('the owner API is for the owner only', () => {
  test('without a session → 401 login_required', async () => {
    const res = await pod.request('/.admin/api/sessions')
    expect(res.status).toBe(401)
    expect(await errorOf(res)).toBe('login_required')
  })
  test('from another origin (CORS would let it read) → 403 csrf_failed', async () => {
    const res = await api('GET', '/.admin/api/sessions', { origin: 'https://app.example' })
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
  })
  test('a change without X-CSRF-Token → 403 csrf_failed', async () => {
    const res = await api('DELETE', '/.admin/api/sessions/whatever', { csrf: false })
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
  })
})

describe('sessions: list and revoke', () => {
  test('lists this browser and the applications holding tokens', async () => {
    await obtainTokens(pod, new CookieJar(), key)
    const res = await api('GET', '/.admin/api/sessions')
    expect(res.status).toBe(200)
    const { loginSessions, appSessions } = await res.json()
    expect(loginSessions.filter((s: { current: boolean }) => s.current).length).toBe(1)
    expect(appSessions.length).toBeGreaterThan(0)
    expect(appSessions[0]).toMatchObject({ clientId: APP_ID, clientName: 'Example App', scope: 'openid webid offline_access', refreshable: true })
    expect(JSON.stringify(loginSessions)).not.toContain(owner.cookies.get('solopod_session')!)
  })
  test('revoking an app session stops its refresh token and its access token at our RS', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const sid = (body.refresh_token as string).split('.')[0]!
    const res = await api('DELETE', `/.admin/api/sessions/${sid}`)
    expect(res.status).toBe(204)
    expect((await refresh(body.refresh_token as string)).status).toBe(400)
    expect((await withToken(pod, key, body.access_token as string, 'GET', '/')).status).toBe(401)
  })
  test('revoking a login session signs that browser out', async () => {
    const other = new CookieJar()
    await logIn(pod, other)
    const seenByOther = await (await pod.request('/.admin/api/sessions', { headers: { cookie: other.header() } })).json()
    const target = seenByOther.loginSessions.find((s: { current: boolean }) => s.current)
    expect((await api('DELETE', `/.admin/api/sessions/${target.id}`)).status).toBe(204)
    expect((await pod.request('/.admin/api/sessions', { headers: { cookie: other.header() } })).status).toBe(401)
  })
  test('revoking a login session ends the app sessions started from it: refresh 400 invalid_grant, access token 401', async () => {
    const browser = new CookieJar()
    const { body } = await obtainTokens(pod, browser, key)
    const bystander = await obtainTokens(pod, new CookieJar(), key) // another browser's app session stays
    const mine = await (await pod.request('/.admin/api/sessions', { headers: { cookie: browser.header() } })).json()
    const login = mine.loginSessions.find((s: { current: boolean }) => s.current)
    expect((await api('DELETE', `/.admin/api/sessions/${login.id}`)).status).toBe(204)
    const refused = await refresh(body.refresh_token as string)
    expect(refused.status).toBe(400)
    expect((await refused.json()).error).toBe('invalid_grant')
    const read = await withToken(pod, key, body.access_token as string, 'GET', '/')
    expect(read.status).toBe(401)
    expect(read.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const { appSessions } = await (await api('GET', '/.admin/api/sessions')).json()
    const sids = appSessions.map((s: { id: string }) => s.id)
    expect(sids).not.toContain((body.refresh_token as string).split('.')[0])
    expect(sids).toContain((bystander.body.refresh_token as string).split('.')[0])
    expect((await refresh(bystander.body.refresh_token as string)).status).toBe(200)
  })
  test('a code approved in a revoked login is not redeemed: 400 invalid_grant', async () => {
    const browser = new CookieJar()
    const code = (await authorize(pod, browser)).searchParams.get('code')!
    const mine = await (await pod.request('/.admin/api/sessions', { headers: { cookie: browser.header() } })).json()
    expect((await api('DELETE', `/.admin/api/sessions/${mine.loginSessions.find((s: { current: boolean }) => s.current).id}`)).status).toBe(204)
    const res = await tokenRequest(pod, { key, fields: codeFields(code) })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'the sign-in that approved this authorization was revoked by the owner; sign in again',
    })
  })
  test('an unknown id → 404', async () => {
    expect((await api('DELETE', '/.admin/api/sessions/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
  })
})

describe('consents: remembered per client until revoked', () => {
  test('revoking the consent asks again next time and ends the client sessions', async () => {
    const jar = new CookieJar()
    const { body } = await obtainTokens(pod, jar, key)
    const list = await (await api('GET', '/.admin/api/consents')).json()
    expect(list.map((c: { clientId: string }) => c.clientId)).toContain(APP_ID)
    // the Client ID Document's logo_uri, kept with the consent for the list of approved apps
    expect(list.find((c: { clientId: string }) => c.clientId === APP_ID).logoUri).toBe('https://app.example/logo.png')
    expect((await api('DELETE', `/.admin/api/consents/${encodeURIComponent(APP_ID)}`)).status).toBe(204)
    const again = await pod.request(authorizeUrl(), { headers: { cookie: jar.header() } })
    expect(again.headers.get('location')).toStartWith(`${BASE}/.oidc/consent?interaction=`)
    expect((await refresh(body.refresh_token as string)).status).toBe(400)
  })
})

describe('approved apps: the logo is shown only from an http(s) URL', () => {
  test.each(['javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd'])('a consent holding logo %s lists logoUri null', async logo => {
    await saveConsent(pod.store, {
      clientId: 'https://odd.example/id',
      clientName: 'Odd',
      scopes: ['openid', 'webid'],
      grantedAt: pod.clock.now,
      logoUri: logo,
    })
    const list = await (await api('GET', '/.admin/api/consents')).json()
    expect(list.find((c: { clientId: string }) => c.clientId === 'https://odd.example/id')).toMatchObject({ clientName: 'Odd', logoUri: null })
  })
})

describe('static clients (client_secret_basic), registered by the owner', () => {
  const REDIRECT = 'https://static.example/cb'
  test('created with a secret shown once; usable at the token endpoint; deleted → refused', async () => {
    const res = await api('POST', '/.admin/api/clients', {
      body: { client_name: 'Static', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'] },
    })
    expect(res.status).toBe(201)
    const c = await res.json()
    expect(c.token_endpoint_auth_method).toBe('client_secret_basic')
    expect(typeof c.client_secret).toBe('string')
    const listed = await (await api('GET', '/.admin/api/clients')).json()
    expect(listed.find((x: { client_id: string }) => x.client_id === c.client_id)).toMatchObject({ registration: 'static', client_name: 'Static' })
    expect(JSON.stringify(listed)).not.toContain(c.client_secret)

    const url = await authorize(pod, new CookieJar(), { client_id: c.client_id, redirect_uri: REDIRECT })
    const basic = `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`
    const tokens = await tokenRequest(pod, {
      key,
      authorization: basic,
      fields: {
        grant_type: 'authorization_code',
        code: url.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      },
    })
    expect(tokens.status).toBe(200)

    expect((await api('DELETE', `/.admin/api/clients/${c.client_id}`)).status).toBe(204)
    const after = await tokenRequest(pod, {
      key,
      authorization: basic,
      fields: { grant_type: 'refresh_token', refresh_token: (await tokens.json()).refresh_token },
    })
    expect(after.status).toBe(401)
    expect((await after.json()).error).toBe('invalid_client')
  })
  test('a public static client is refused → 400 invalid_client_metadata', async () => {
    const res = await api('POST', '/.admin/api/clients', { body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' } })
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe('invalid_client_metadata')
  })
  test('creating needs the owner', async () => {
    const res = await pod.request('/.admin/api/clients', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    })
    expect(res.status).toBe(401)
  })
})

describe('the sessions page', () => {
  test('without a session → the login page, returning here', async () => {
    const res = await pod.request('/.admin/sessions')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=/.admin/sessions`)
  })
  test('lists sessions with revoke buttons; a revoke form needs the CSRF token', async () => {
    await obtainTokens(pod, new CookieJar(), key)
    const page = await owner.take(await pod.request('/.admin/sessions', { headers: { cookie: owner.header() } })).text()
    expect(page).toContain('Example App')
    expect(page).toContain('(this browser)')
    const id = field(page.slice(page.indexOf('id="app-sessions-h"')), 'id')
    const token = field(page, 'csrf')
    const post = (fields: Record<string, string>) =>
      pod.request('/.admin/sessions/revoke', { method: 'POST', headers: { 'content-type': FORM, cookie: owner.header(), origin: BASE }, body: form(fields) })
    expect((await post({ id })).status).toBe(403)
    const res = await post({ id, csrf: token })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.admin/sessions?done=ended`)
    const { appSessions } = await (await api('GET', '/.admin/api/sessions')).json()
    expect(appSessions.map((s: { id: string }) => s.id)).not.toContain(id)
  })
})

describe('OP signing key rotation', () => {
  test('new tokens carry the new kid; tokens signed before still work; the JWKS holds both keys', async () => {
    const before = await obtainTokens(pod, new CookieJar(), key)
    const oldKid = decodeProtectedHeader(before.body.access_token as string).kid
    expect((await api('POST', '/.admin/api/signing-keys/rotate', { csrf: false })).status).toBe(403)
    const res = await api('POST', '/.admin/api/signing-keys/rotate')
    expect(res.status).toBe(201)
    const { kid } = await res.json()
    expect(kid).not.toBe(oldKid)
    const kids = (await (await pod.request('/.oidc/jwks')).json()).keys.map((k: { kid: string }) => k.kid)
    expect(kids).toEqual([oldKid, kid])
    const after = await obtainTokens(pod, new CookieJar(), key)
    expect(decodeProtectedHeader(after.body.access_token as string).kid).toBe(kid)
    expect((await withToken(pod, key, before.body.access_token as string, 'GET', '/')).status).toBe(200)
    expect((await withToken(pod, key, after.body.access_token as string, 'GET', '/')).status).toBe(200)
  })
})
