import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt, exportJWK, generateKeyPair } from 'jose'
import { makeRegistration, REGISTRATION_LIMIT } from '../../src/op/registration.ts'
import type { HttpError } from '../../src/http/errors.ts'
import { BASE, CHALLENGE, CookieJar, VERIFIER, authorize, newDpopKey, openTestPod, pageError, tokenRequest, type DpopKey, type TestPod } from './op-fixture.ts'

let pod: TestPod
let key: DpopKey
beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
})
afterAll(() => pod.close())

const REDIRECT = 'https://dyn.example/cb'
const register = (body: unknown, contentType = 'application/json') =>
  pod.request('/.oidc/reg', { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) })
const valid = (more: Record<string, unknown> = {}) => ({ redirect_uris: [REDIRECT], scope: 'openid webid offline_access', client_name: 'Dyn', ...more })

async function expectError(res: Response, status: number, error: string) {
  const body = await res.json()
  expect({ status: res.status, error: body.error }).toEqual({ status, error })
}

describe('RFC 7591 dynamic registration (Solid-OIDC §5, RFC 7591)', () => {
  test('201 with client_id, the registered metadata and, for a confidential client, a secret', async () => {
    const res = await register(valid())
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const c = await res.json()
    expect(c.client_id).toMatch(/^[\w-]{22}$/)
    expect(c.client_secret).toMatch(/^[\w-]{43}$/)
    expect(c.client_secret_expires_at).toBe(0)
    expect(c).toMatchObject({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      client_name: 'Dyn',
    })
  })
  test('a public client (none) gets no secret', async () => {
    const c = await (await register(valid({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }))).json()
    expect(c.client_secret).toBeUndefined()
    expect(c.token_endpoint_auth_method).toBe('none')
  })
  test('the secret is stored hashed, never as is', async () => {
    const c = await (await register(valid())).json()
    const raw = JSON.stringify(await pod.store.records.get(`client\0${c.client_id}`))
    expect(raw).not.toContain(c.client_secret)
  })
  test.each([
    ['scope without webid', valid({ scope: 'openid offline_access' }), 'invalid_client_metadata'],
    ['no redirect_uris', valid({ redirect_uris: [] }), 'invalid_redirect_uri'],
    ['an http redirect URI on a public host', valid({ redirect_uris: ['http://dyn.example/cb'] }), 'invalid_redirect_uri'],
    ['a redirect URI with a fragment', valid({ redirect_uris: [`${REDIRECT}#x`] }), 'invalid_redirect_uri'],
    ['a javascript: redirect URI', valid({ redirect_uris: ['javascript:alert(1)'] }), 'invalid_redirect_uri'],
    ['token_endpoint_auth_method private_key_jwt', valid({ token_endpoint_auth_method: 'private_key_jwt' }), 'invalid_client_metadata'],
    ['grant_types implicit', valid({ grant_types: ['implicit'] }), 'invalid_client_metadata'],
    ['response_types token', valid({ response_types: ['token'] }), 'invalid_client_metadata'],
    ['id_token_signed_response_alg RS256', valid({ id_token_signed_response_alg: 'RS256' }), 'invalid_client_metadata'],
    ['jwks_uri', valid({ jwks_uri: 'https://dyn.example/jwks' }), 'invalid_client_metadata'],
    ['jwks with a private key', valid({ jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }] } }), 'invalid_client_metadata'],
    ['an array instead of an object', [valid()], 'invalid_client_metadata'],
  ] as [string, unknown, string][])('%s → 400 %s', async (_, body, error) => {
    await expectError(await register(body), 400, error)
  })
  test("a registration without scope, as Inrupt's clients send it, is accepted (RFC 7591 §2: scope is optional)", async () => {
    const res = await register({
      redirect_uris: [REDIRECT],
      client_name: 'Inrupt-like',
      id_token_signed_response_alg: 'ES256',
      grant_types: ['authorization_code', 'refresh_token'],
    })
    expect(res.status).toBe(201)
    const c = await res.json()
    expect(c.scope).toBeUndefined()
    const jar = new CookieJar()
    const ok = await authorize(pod, jar, { client_id: c.client_id, redirect_uri: REDIRECT, code_challenge: CHALLENGE, scope: 'openid webid offline_access' })
    expect(ok.searchParams.get('code')).toBeTruthy()
  })
  test('a client registered without scope still needs webid on the authorization request → invalid_scope', async () => {
    const c = await (await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).json()
    const jar = new CookieJar()
    const res = await pod.request(
      `/.oidc/auth?${new URLSearchParams({ response_type: 'code', client_id: c.client_id, redirect_uri: REDIRECT, scope: 'openid offline_access', code_challenge: CHALLENGE, code_challenge_method: 'S256' })}`,
      { headers: { cookie: jar.header() } },
    )
    const url = new URL(res.headers.get('location')!)
    expect(url.searchParams.get('error')).toBe('invalid_scope')
    expect(url.searchParams.get('error_description')).toContain('webid')
  })
  test('a form body → 400 invalid_client_metadata', async () => {
    await expectError(await register('redirect_uris=x', 'application/x-www-form-urlencoded'), 400, 'invalid_client_metadata')
  })
  test('loopback http and private-use scheme redirect URIs are allowed (RFC 8252)', async () => {
    expect((await register(valid({ redirect_uris: ['http://127.0.0.1:8080/cb', 'com.example.app:/cb'] }))).status).toBe(201)
  })
})

describe('a registered client in the flow', () => {
  test('a confidential client authenticates with HTTP Basic and may skip PKCE', async () => {
    const c = await (await register(valid({ grant_types: ['authorization_code', 'refresh_token'] }))).json()
    const jar = new CookieJar()
    const url = await authorize(pod, jar, { client_id: c.client_id, redirect_uri: REDIRECT, code_challenge: undefined, code_challenge_method: undefined })
    const code = url.searchParams.get('code')!
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(c.client_id)}:${encodeURIComponent(c.client_secret)}`).toString('base64')}`
    const res = await tokenRequest(pod, { key, authorization: basic, fields: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(decodeJwt(body.access_token).client_id).toBe(c.client_id)
    expect(typeof body.refresh_token).toBe('string')
    const refreshed = await tokenRequest(pod, { key, authorization: basic, fields: { grant_type: 'refresh_token', refresh_token: body.refresh_token } })
    expect(refreshed.status).toBe(200)
  })
  test('a confidential client may use plain PKCE', async () => {
    const c = await (await register(valid())).json()
    const url = await authorize(pod, new CookieJar(), {
      client_id: c.client_id,
      redirect_uri: REDIRECT,
      code_challenge: VERIFIER,
      code_challenge_method: 'plain',
    })
    const basic = `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`
    const res = await tokenRequest(pod, {
      key,
      authorization: basic,
      fields: { grant_type: 'authorization_code', code: url.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: VERIFIER },
    })
    expect(res.status).toBe(200)
  })
  test('a wrong secret → 401 invalid_client with a Basic challenge', async () => {
    const c = await (await register(valid())).json()
    const res = await tokenRequest(pod, {
      key,
      authorization: `Basic ${Buffer.from(`${c.client_id}:wrong`).toString('base64')}`,
      fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT },
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_client')
    expect(res.headers.get('www-authenticate')).toStartWith('Basic realm=')
  })
  test('a confidential client without authentication → 401 invalid_client', async () => {
    const c = await (await register(valid())).json()
    const res = await tokenRequest(pod, { key, fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: c.client_id } })
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_client')
  })
  test('client_secret_post → 401 invalid_client', async () => {
    const c = await (await register(valid())).json()
    const res = await tokenRequest(pod, {
      key,
      fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: c.client_id, client_secret: c.client_secret },
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_client')
  })
  test('an empty Authorization header at the token endpoint is no client authentication (public client goes on)', async () => {
    const c = await (await register(valid({ token_endpoint_auth_method: 'none' }))).json()
    const res = await tokenRequest(pod, {
      key,
      authorization: '',
      fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: c.client_id },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_grant')
  })
  test('a malformed non-empty Authorization header at the token endpoint → 400 invalid_request', async () => {
    const c = await (await register(valid({ token_endpoint_auth_method: 'none' }))).json()
    const res = await tokenRequest(pod, {
      key,
      authorization: 'Basic',
      fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: c.client_id },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_request')
  })
  test('an unknown registered client id → 401 invalid_client', async () => {
    const res = await tokenRequest(pod, {
      key,
      fields: { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: 'AAAAAAAAAAAAAAAAAAAAAA' },
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('invalid_client')
  })
  test('a public registered client must use S256', async () => {
    const c = await (await register(valid({ token_endpoint_auth_method: 'none' }))).json()
    const jar = new CookieJar()
    const res = await pod.request(
      `/.oidc/auth?${new URLSearchParams({ response_type: 'code', client_id: c.client_id, redirect_uri: REDIRECT, scope: 'openid webid', code_challenge: VERIFIER, code_challenge_method: 'plain' })}`,
      { headers: { cookie: jar.header() } },
    )
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
    const ok = await authorize(pod, jar, { client_id: c.client_id, redirect_uri: REDIRECT, code_challenge: CHALLENGE, scope: 'openid webid' })
    expect(ok.searchParams.get('code')).toBeTruthy()
  })
  test('a registered redirect URI must match exactly at the authorization endpoint', async () => {
    const c = await (await register(valid())).json()
    const res = await pod.request(
      `/.oidc/auth?${new URLSearchParams({ response_type: 'code', client_id: c.client_id, redirect_uri: `${REDIRECT}?x=1`, scope: 'openid' })}`,
    )
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('invalid_request')
  })
  test('the discovery registration_endpoint is where registration happens', async () => {
    expect((await (await pod.request('/.well-known/openid-configuration')).json()).registration_endpoint).toBe(`${BASE}/.oidc/reg`)
  })
  test('registration accepts inline public jwks (for request objects)', async () => {
    const { publicKey } = await generateKeyPair('ES256')
    const c = await (await register(valid({ jwks: { keys: [await exportJWK(publicKey)] } }))).json()
    expect(c.jwks.keys.length).toBe(1)
  })
})

describe('RFC 6585 §4: registration is limited per address', () => {
  test(`after ${REGISTRATION_LIMIT.max} registrations from one address → 429 too_many_requests with Retry-After`, async () => {
    const registerFrom = makeRegistration(pod.deps)
    const body = valid()
    for (let i = 0; i < REGISTRATION_LIMIT.max; i++) expect((await registerFrom('application/json', body, '192.0.2.7')).status).toBe(201)
    const refused = await registerFrom('application/json', body, '192.0.2.7').then(
      () => undefined,
      (e: unknown) => e as HttpError,
    )
    expect({ status: refused?.status, code: refused?.code as string | undefined }).toEqual({ status: 429, code: 'too_many_requests' })
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0)
    expect((await registerFrom('application/json', body, '192.0.2.8')).status).toBe(201)
  })
})
