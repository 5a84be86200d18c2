import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose'
import {
  APP_ID,
  APP_REDIRECT,
  BASE,
  CookieJar,
  T0,
  VERIFIER,
  WEBID,
  authorize,
  codeFields,
  dpopProof,
  newDpopKey,
  obtainTokens,
  openTestPod,
  tokenRequest,
  withToken,
  type DpopKey,
  type TestPod,
} from './op-fixture.ts'

let pod: TestPod
let jar: CookieJar
let key: DpopKey
beforeAll(async () => {
  pod = await openTestPod()
  jar = new CookieJar()
  key = await newDpopKey()
})
afterAll(() => pod.close())

const newCode = async (params: Record<string, string | undefined> = {}) => (await authorize(pod, jar, params)).searchParams.get('code')!

async function expectError(res: Response, status: number, error: string) {
  const body = await res.json()
  expect({ status: res.status, error: body.error }).toEqual({ status, error })
  expect(typeof body.error_description).toBe('string')
  expect(res.headers.get('cache-control')).toBe('no-store')
  return body
}

describe('RFC 6749 §4.1.3: the authorization_code grant', () => {
  let body: Record<string, string | number>
  let res: Response
  beforeAll(async () => {
    res = await tokenRequest(pod, { key, fields: codeFields(await newCode()) })
    body = await res.json()
  })
  test('answers 200 JSON, never cached', () => {
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
  test('token_type is DPoP, with expires_in, scope, id_token and a refresh token (offline_access)', () => {
    expect(body.token_type).toBe('DPoP')
    expect(body.expires_in).toBe(300)
    expect(body.scope).toBe('openid webid offline_access')
    expect(typeof body.id_token).toBe('string')
    expect(typeof body.refresh_token).toBe('string')
  })
  test('the access token is a JWT usable at Solid resource servers (Solid-OIDC §8)', async () => {
    const at = decodeJwt(body.access_token as string)
    expect(at).toMatchObject({
      webid: WEBID,
      sub: WEBID,
      iss: BASE,
      client_id: APP_ID,
      azp: APP_ID,
      cnf: { jkt: key.jkt },
      scope: 'openid webid offline_access',
    })
    expect(at.aud).toEqual(['solid', APP_ID])
    expect(at.exp! - at.iat!).toBe(300)
    expect(at.iat).toBe(T0 / 1000)
    expect(typeof at.jti).toBe('string')
    expect(decodeProtectedHeader(body.access_token as string)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' })
  })
  test('the ID token follows the seed claim table (§1.6): aud [azp, solid], cnf.jkt = proof key thumbprint, nonce', () => {
    const id = decodeJwt(body.id_token as string)
    expect(id).toMatchObject({ webid: WEBID, iss: BASE, sub: WEBID, azp: APP_ID, cnf: { jkt: key.jkt }, nonce: 'n-1' })
    expect(id.aud).toEqual([APP_ID, 'solid'])
    expect(id.exp! - id.iat!).toBe(600)
    expect(decodeProtectedHeader(body.id_token as string)).toMatchObject({ alg: 'ES256', typ: 'JWT' })
  })
  test('both tokens verify with the kid in jwks_uri', async () => {
    const jwks = createLocalJWKSet(await (await pod.request('/.oidc/jwks')).json())
    await compactVerify(body.access_token as string, jwks)
    await compactVerify(body.id_token as string, jwks)
  })
  test('auth_time is included when max_age was requested', async () => {
    const r = await (await tokenRequest(pod, { key, fields: codeFields(await newCode({ max_age: '3600' })) })).json()
    expect(decodeJwt(r.id_token).auth_time).toBe(T0 / 1000)
  })
  test('no refresh token without offline_access', async () => {
    const r = await (await tokenRequest(pod, { key, fields: codeFields(await newCode({ scope: 'openid webid' })) })).json()
    expect(r.refresh_token).toBeUndefined()
    expect(r.scope).toBe('openid webid')
  })
  test('the access token reads a private resource (owner-only root container) with a fresh proof', async () => {
    const get = await withToken(pod, key, body.access_token as string, 'GET', '/')
    expect(get.status).toBe(200)
    expect(await withToken(pod, key, body.access_token as string, 'GET', '/.acl').then(r => r.status)).toBe(200)
  })
})

describe('token endpoint error rows', () => {
  test('unknown code → 400 invalid_grant', async () => {
    await expectError(await tokenRequest(pod, { key, fields: codeFields('no-such-code') }), 400, 'invalid_grant')
  })
  test('expired code (older than 60 s) → 400 invalid_grant', async () => {
    const code = await newCode()
    pod.clock.now += 61_000
    try {
      await expectError(await tokenRequest(pod, { key, fields: codeFields(code) }), 400, 'invalid_grant')
    } finally {
      pod.clock.now -= 61_000
    }
  })
  test('a code is accepted at 59 s', async () => {
    const code = await newCode()
    pod.clock.now += 59_000
    try {
      expect((await tokenRequest(pod, { key, fields: codeFields(code) })).status).toBe(200)
    } finally {
      pod.clock.now -= 59_000
    }
  })
  test('a used code fails and revokes what the first redemption issued', async () => {
    const code = await newCode()
    const first = await (await tokenRequest(pod, { key, fields: codeFields(code) })).json()
    expect((await withToken(pod, key, first.access_token, 'GET', '/')).status).toBe(200)
    await expectError(await tokenRequest(pod, { key, fields: codeFields(code) }), 400, 'invalid_grant')
    const refreshed = await tokenRequest(pod, { key, fields: { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: APP_ID } })
    await expectError(refreshed, 400, 'invalid_grant')
    const get = await withToken(pod, key, first.access_token, 'GET', '/')
    expect(get.status).toBe(401)
    expect(get.headers.get('www-authenticate')).toContain(', DPoP error="invalid_token"')
  })
  test('unsupported grant type → 400 unsupported_grant_type', async () => {
    await expectError(await tokenRequest(pod, { key, fields: { grant_type: 'password', client_id: APP_ID } }), 400, 'unsupported_grant_type')
  })
  test("client_credentials from a public client (only the owner's client credentials may use it) → 400 unauthorized_client", async () => {
    await expectError(await tokenRequest(pod, { key, fields: { grant_type: 'client_credentials', client_id: APP_ID } }), 400, 'unauthorized_client')
  })
  test('missing grant_type → 400 invalid_request', async () => {
    await expectError(await tokenRequest(pod, { key, fields: { client_id: APP_ID } }), 400, 'invalid_request')
  })
  test('a JSON body → 400 invalid_request', async () => {
    const res = await pod.request('/.oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', dpop: await dpopProof(key, 'POST', `${BASE}/.oidc/token`, pod.clock.now) },
      body: JSON.stringify(codeFields('x')),
    })
    await expectError(res, 400, 'invalid_request')
  })
  test('a repeated parameter → 400 invalid_request', async () => {
    const res = await pod.request('/.oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, 'POST', `${BASE}/.oidc/token`, pod.clock.now) },
      body: `${new URLSearchParams(codeFields('x'))}&code=y`,
    })
    await expectError(res, 400, 'invalid_request')
  })
  test('missing code_verifier → 400 invalid_grant', async () => {
    const { code_verifier: _, ...fields } = codeFields(await newCode())
    await expectError(await tokenRequest(pod, { key, fields }), 400, 'invalid_grant')
  })
  test.each([
    ['too short (42)', VERIFIER.slice(0, 42)],
    ['too long (129)', 'a'.repeat(129)],
    ['a character outside the unreserved set', `${VERIFIER.slice(0, 42)}+`],
    ['valid syntax but not matching the challenge', 'a'.repeat(43)],
  ])('code_verifier %s → 400 invalid_grant', async (_, verifier) => {
    await expectError(await tokenRequest(pod, { key, fields: codeFields(await newCode(), { code_verifier: verifier }) }), 400, 'invalid_grant')
  })
  test('a failed verifier does not use up the code', async () => {
    const code = await newCode()
    await tokenRequest(pod, { key, fields: codeFields(code, { code_verifier: 'a'.repeat(43) }) })
    expect((await tokenRequest(pod, { key, fields: codeFields(code) })).status).toBe(200)
  })
  test('client_id different from the one the code was issued to → 400 invalid_grant', async () => {
    pod.docs.set('https://other.example/id', {
      body: JSON.stringify({
        '@context': 'https://www.w3.org/ns/solid/oidc-context.jsonld',
        client_id: 'https://other.example/id',
        redirect_uris: [APP_REDIRECT],
      }),
      type: 'application/ld+json',
    })
    await expectError(await tokenRequest(pod, { key, fields: codeFields(await newCode(), { client_id: 'https://other.example/id' }) }), 400, 'invalid_grant')
  })
  test('redirect_uri different from the authorization request → 400 invalid_grant', async () => {
    await expectError(await tokenRequest(pod, { key, fields: codeFields(await newCode(), { redirect_uri: `${APP_REDIRECT}/other` }) }), 400, 'invalid_grant')
  })
  test('missing redirect_uri → 400 invalid_request', async () => {
    const { redirect_uri: _, ...fields } = codeFields(await newCode())
    await expectError(await tokenRequest(pod, { key, fields }), 400, 'invalid_request')
  })
  test('missing client_id for a public client → 400 invalid_request', async () => {
    const { client_id: _, ...fields } = codeFields(await newCode())
    await expectError(await tokenRequest(pod, { key, fields }), 400, 'invalid_request')
  })
  test('a code bound with dpop_jkt refuses another DPoP key → 400 invalid_grant', async () => {
    const other = await newDpopKey()
    const code = await newCode({ dpop_jkt: other.jkt })
    await expectError(await tokenRequest(pod, { key, fields: codeFields(code) }), 400, 'invalid_grant')
    expect((await tokenRequest(pod, { key: other, fields: codeFields(code) })).status).toBe(200)
  })
})

describe('RFC 9449 §4.3 at the token endpoint: 400 invalid_dpop_proof', () => {
  const TOKEN_URL = `${BASE}/.oidc/token`
  const cases: [string, () => Promise<string | undefined>][] = [
    ['no DPoP header', async () => undefined],
    ['htu of another endpoint', () => dpopProof(key, 'POST', `${BASE}/.oidc/userinfo`, pod.clock.now)],
    ['htu with another host (Host header is not trusted)', () => dpopProof(key, 'POST', 'http://evil.example/.oidc/token', pod.clock.now)],
    ['htm GET', () => dpopProof(key, 'GET', TOKEN_URL, pod.clock.now)],
    ['htm in lower case', () => dpopProof(key, 'post', TOKEN_URL, pod.clock.now)],
    ['stale iat (10 minutes old)', () => dpopProof(key, 'POST', TOKEN_URL, pod.clock.now, { iat: T0 / 1000 - 600 })],
    ['iat far in the future', () => dpopProof(key, 'POST', TOKEN_URL, pod.clock.now, { iat: T0 / 1000 + 600 })],
    ['typ JWT', () => dpopProof(key, 'POST', TOKEN_URL, pod.clock.now, { header: { typ: 'JWT' } })],
    [
      'header jwk with the private d',
      async () => {
        const jwk = await exportJWK(key.privateKey)
        return dpopProof(key, 'POST', TOKEN_URL, pod.clock.now, { header: { jwk } })
      },
    ],
    [
      'alg none',
      async () => {
        const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
        return `${enc({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })}.${enc({ htm: 'POST', htu: TOKEN_URL, jti: 'n1', iat: T0 / 1000 })}.`
      },
    ],
    [
      'alg HS256',
      async () =>
        new SignJWT({ htm: 'POST', htu: TOKEN_URL, jti: crypto.randomUUID(), iat: T0 / 1000 })
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: key.jwk } as never)
          .sign(new Uint8Array(32)),
    ],
    [
      'a signature by another key',
      async () => {
        const other = await generateKeyPair('ES256')
        return new SignJWT({ htm: 'POST', htu: TOKEN_URL, jti: crypto.randomUUID(), iat: T0 / 1000 })
          .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
          .sign(other.privateKey)
      },
    ],
    ['missing jti', () => dpopProof(key, 'POST', TOKEN_URL, pod.clock.now, { claims: { jti: undefined } })],
  ]
  test.each(cases)('%s', async (_, make) => {
    const code = await newCode()
    const proof = await make()
    const res = await pod.request('/.oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(proof !== undefined ? { dpop: proof } : {}) },
      body: new URLSearchParams(codeFields(code)).toString(),
    })
    await expectError(res, 400, 'invalid_dpop_proof')
    // the code survives a bad proof
    expect((await tokenRequest(pod, { key, fields: codeFields(code) })).status).toBe(200)
  })
  test('a replayed jti', async () => {
    const proof = await dpopProof(key, 'POST', TOKEN_URL, pod.clock.now)
    expect((await tokenRequest(pod, { key, proof, fields: codeFields(await newCode()) })).status).toBe(200)
    await expectError(await tokenRequest(pod, { key, proof, fields: codeFields(await newCode()) }), 400, 'invalid_dpop_proof')
  })
  test('two DPoP headers', async () => {
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' })
    headers.append('dpop', await dpopProof(key, 'POST', TOKEN_URL, pod.clock.now))
    headers.append('dpop', await dpopProof(key, 'POST', TOKEN_URL, pod.clock.now))
    await expectError(
      await pod.request('/.oidc/token', { method: 'POST', headers, body: new URLSearchParams(codeFields(await newCode())).toString() }),
      400,
      'invalid_dpop_proof',
    )
  })
  test('an ES384 proof is accepted (other asymmetric algorithms are allowed)', async () => {
    const pair = await generateKeyPair('ES384', { extractable: true })
    const jwk = await exportJWK(pair.publicKey)
    const proof = await new SignJWT({ htm: 'POST', htu: TOKEN_URL, jti: crypto.randomUUID(), iat: T0 / 1000 })
      .setProtectedHeader({ alg: 'ES384', typ: 'dpop+jwt', jwk })
      .sign(pair.privateKey)
    expect((await tokenRequest(pod, { key, proof, fields: codeFields(await newCode()) })).status).toBe(200)
  })
})

describe('refresh_token grant (RFC 9449 §5, RFC 9700 §4.14.2)', () => {
  const refresh = (token: string, k = key, more: Record<string, string> = {}) =>
    tokenRequest(pod, { key: k, fields: { grant_type: 'refresh_token', refresh_token: token, client_id: APP_ID, ...more } })

  test('rotates: a new refresh token and a new access token for the same key and session', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    pod.clock.now += 1000
    try {
      const res = await refresh(body.refresh_token as string)
      expect(res.status).toBe(200)
      const next = await res.json()
      expect(next.refresh_token).not.toBe(body.refresh_token)
      expect(next.token_type).toBe('DPoP')
      expect(decodeJwt(next.access_token).cnf).toEqual({ jkt: key.jkt })
      expect(decodeJwt(next.access_token).sid).toBe(decodeJwt(body.access_token as string).sid)
      expect(decodeJwt(next.id_token).nonce).toBeUndefined()
      expect((await refresh(next.refresh_token)).status).toBe(200)
    } finally {
      pod.clock.now -= 1000
    }
  })
  test('reuse of a rotated token → 400 invalid_grant and the whole family is revoked', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    const next = await (await refresh(body.refresh_token as string)).json()
    await expectError(await refresh(body.refresh_token as string), 400, 'invalid_grant')
    await expectError(await refresh(next.refresh_token), 400, 'invalid_grant')
    expect((await withToken(pod, key, next.access_token, 'GET', '/')).status).toBe(401)
  })
  test('a different DPoP key → 400 invalid_grant (and the token still works with the right key)', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    await expectError(await refresh(body.refresh_token as string, await newDpopKey()), 400, 'invalid_grant')
    expect((await refresh(body.refresh_token as string)).status).toBe(200)
  })
  test('another client → 400 invalid_grant', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    await expectError(await refresh(body.refresh_token as string, key, { client_id: 'https://other.example/id' }), 400, 'invalid_grant')
  })
  test('a forged token → 400 invalid_grant without revoking the real family', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    const [sid] = (body.refresh_token as string).split('.')
    await expectError(await refresh(`${sid}.0.${'A'.repeat(43)}`), 400, 'invalid_grant')
    expect((await refresh(body.refresh_token as string)).status).toBe(200)
  })
  test('a wider scope → 400 invalid_scope; a narrower one is allowed', async () => {
    const { body } = await obtainTokens(pod, jar, key, { scope: 'openid webid offline_access' })
    await expectError(await refresh(body.refresh_token as string, key, { scope: 'openid webid email' }), 400, 'invalid_scope')
    const narrow = await refresh(body.refresh_token as string, key, { scope: 'openid webid' })
    expect((await narrow.json()).scope).toBe('openid webid')
  })
  test('garbage → 400 invalid_grant; missing → 400 invalid_request', async () => {
    await expectError(await refresh('garbage'), 400, 'invalid_grant')
    await expectError(await tokenRequest(pod, { key, fields: { grant_type: 'refresh_token', client_id: APP_ID } }), 400, 'invalid_request')
  })
  test('an expired family (30 days unused) → 400 invalid_grant', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    pod.clock.now += 31 * 24 * 3600_000
    try {
      // a fresh proof at the shifted time
      await expectError(await refresh(body.refresh_token as string), 400, 'invalid_grant')
    } finally {
      pod.clock.now -= 31 * 24 * 3600_000
    }
  })
  test('refresh tokens survive a restart (persisted)', async () => {
    const { body } = await obtainTokens(pod, jar, key)
    const { getAppSession } = await import('../../src/account/app-sessions.ts')
    const sid = (body.refresh_token as string).split('.')[0]!
    const raw = await pod.store.records.get(`app-session\0${sid}`)
    expect(raw).toBeDefined()
    expect(await getAppSession(pod.store, sid, pod.clock.now)).toMatchObject({ clientId: APP_ID, jkt: key.jkt })
  })
})

describe('a code replay revokes also at userinfo', () => {
  test('userinfo refuses the access token of a replayed code', async () => {
    const code = await newCode()
    const first = await (await tokenRequest(pod, { key, fields: codeFields(code) })).json()
    expect((await withToken(pod, key, first.access_token, 'GET', '/.oidc/userinfo')).status).toBe(200)
    await tokenRequest(pod, { key, fields: codeFields(code) })
    expect((await withToken(pod, key, first.access_token, 'GET', '/.oidc/userinfo')).status).toBe(401)
  })
})
