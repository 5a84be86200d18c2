import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { makeIssuerKeyResolver } from '../../src/auth/issuer-keys.ts'
import { makeWebIdIssuerResolver } from '../../src/auth/webid-issuers.ts'
import { makeAuthenticator, TOKEN_CACHE_MAX_MS, type Authenticate } from '../../src/auth/authenticate.ts'
import { JtiReplayCache } from '../../src/auth/dpop-replay.ts'
import { makePublicView } from '../../src/policy/public-view.ts'
import { HttpError } from '../../src/http/errors.ts'
import { forgetIdleCaches } from '../../src/lib/idle-caches.ts'
import type { FetchDoc } from '../../src/fetch/guarded-fetch.ts'
import { APP_ID, BASE, CookieJar, WEBID, dpopProof, newDpopKey, obtainTokens, openTestPod, type DpopKey, type TestPod } from '../op/op-fixture.ts'

let pod: TestPod
let key: DpopKey
let token: string
let sid: string
let fetched: string[]
let authenticate: Authenticate

beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
  const { body } = await obtainTokens(pod, new CookieJar(), key)
  token = body.access_token as string
  sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid
  fetched = []
  const counting: FetchDoc = (url, opts) => {
    fetched.push(url)
    return pod.deps.fetchDoc(url, opts)
  }
  const getIssuerKeys = makeIssuerKeyResolver({ baseUrl: BASE, ownJwks: pod.deps.signingKeys.publicJwks, fetchDoc: counting, now: pod.deps.now })
  authenticate = makeAuthenticator({
    ...pod.deps,
    baseUrl: pod.deps.cfg.baseUrl,
    readableByPublic: makePublicView(pod.deps.decider, pod.deps.cfg.baseUrl),
    getIssuerKeys,
    getWebIdIssuers: makeWebIdIssuerResolver(counting),
    umaTokenType: 'bearer',
  })
})
afterAll(() => pod.close())

const DPOP_ALGS = 'ES256 ES384 ES512 RS256 RS384 RS512 PS256 PS384 PS512 EdDSA Ed25519'

async function dpopRequest(t: string, o: { k?: DpopKey; url?: string; method?: string; proofUrl?: string; ath?: boolean; iat?: number; proof?: string } = {}) {
  const method = o.method ?? 'GET'
  const url = o.url ?? `${BASE}/notes/1`
  const proof =
    o.proof ??
    (await dpopProof(o.k ?? key, method, o.proofUrl ?? url, pod.clock.now, {
      ...(o.ath === false ? {} : { accessToken: t }),
      ...(o.iat !== undefined ? { iat: o.iat } : {}),
    }))
  return new Request(url, { method, headers: { authorization: `DPoP ${t}`, dpop: proof } })
}

async function refusal(req: Request): Promise<HttpError> {
  const err = await authenticate(req).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

/** 401 with `WWW-Authenticate: DPoP error="<code>", error_description="…", algs="…"`, nothing of the token in it. */
async function expect401(req: Request, code: 'invalid_token' | 'invalid_dpop_proof') {
  const e = await refusal(req)
  expect({ status: e.status, code: e.code }).toEqual({ status: 401, code })
  const challenge = e.headers['www-authenticate'] as string
  expect(challenge).toMatch(new RegExp(`^DPoP error="${code}", error_description="[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*", algs="${DPOP_ALGS}"$`))
  for (const part of token.split('.')) expect(challenge + e.description).not.toContain(part)
  return e
}

describe('RFC 9449 §7.1: Authorization: DPoP at the resource server', () => {
  test('a valid token and proof → the principal (webid, client id, issuer, scheme DPoP, and the app session its sid names)', async () => {
    expect(await authenticate(await dpopRequest(token))).toEqual({
      webid: WEBID as never,
      clientId: APP_ID as never,
      issuer: BASE,
      keys: [],
      scheme: 'DPoP',
      session: decodeJwt(token).sid as string,
    })
  })
  test('no Authorization header → anonymous', async () => {
    expect((await authenticate(new Request(`${BASE}/x`))).scheme).toBe('anonymous')
  })
  test.each([
    ['an empty Authorization header', { authorization: '' }],
    ['an Authorization header of spaces', { authorization: '   ' }],
    ['empty Authorization and DPoP headers', { authorization: '', dpop: '' }],
  ] as [string, Record<string, string>][])('%s → anonymous, as no credentials', async (_, headers) => {
    expect((await authenticate(new Request(`${BASE}/x`, { headers }))).scheme).toBe('anonymous')
  })
  test('the scheme name is case-insensitive', async () => {
    const req = await dpopRequest(token)
    req.headers.set('authorization', `dpop ${token}`)
    expect((await authenticate(req)).webid).toBe(WEBID as never)
  })
  test('htu is compared with the configured base URL, not the Host the request arrived with', async () => {
    const viaIp = await dpopRequest(token, { url: 'http://127.0.0.1:3998/notes/1', proofUrl: `${BASE}/notes/1` })
    expect((await authenticate(viaIp)).webid).toBe(WEBID as never)
    await expect401(await dpopRequest(token, { url: 'http://127.0.0.1:3998/notes/1' }), 'invalid_dpop_proof')
  })
  test('a proof without ath is accepted (RFC 9449 §4.3 (ath optional here): Inrupt omits it)', async () => {
    expect((await authenticate(await dpopRequest(token, { ath: false }))).scheme).toBe('DPoP')
  })
  test('ath of another token → 401 invalid_dpop_proof', async () => {
    await expect401(
      await dpopRequest(token, { proof: await dpopProof(key, 'GET', `${BASE}/notes/1`, pod.clock.now, { accessToken: 'other' }) }),
      'invalid_dpop_proof',
    )
  })
  test('a replayed proof (same jti) → 401 invalid_dpop_proof', async () => {
    const proof = await dpopProof(key, 'GET', `${BASE}/notes/1`, pod.clock.now, { accessToken: token })
    await authenticate(await dpopRequest(token, { proof }))
    const e = await expect401(await dpopRequest(token, { proof }), 'invalid_dpop_proof')
    expect(e.description).toContain('jti')
  })
  test('htm differing from the method → 401 invalid_dpop_proof', async () => {
    await expect401(
      await dpopRequest(token, { proof: await dpopProof(key, 'POST', `${BASE}/notes/1`, pod.clock.now, { accessToken: token }) }),
      'invalid_dpop_proof',
    )
  })
  test('a stale proof → 401 invalid_dpop_proof', async () => {
    await expect401(await dpopRequest(token, { iat: pod.clock.now / 1000 - 600 }), 'invalid_dpop_proof')
  })
  test('a missing proof → 401 invalid_dpop_proof', async () => {
    await expect401(new Request(`${BASE}/x`, { headers: { authorization: `DPoP ${token}` } }), 'invalid_dpop_proof')
  })
  test('a proof by a key other than cnf.jkt → 401 invalid_token, also once the token is cached', async () => {
    await authenticate(await dpopRequest(token))
    await expect401(await dpopRequest(token, { k: await newDpopKey() }), 'invalid_token')
  })
  test('an expired token → 401 invalid_token', async () => {
    pod.clock.now += (300 + 61) * 1000
    try {
      await expect401(await dpopRequest(token), 'invalid_token')
    } finally {
      pod.clock.now -= (300 + 61) * 1000
    }
  })
  test('a token not signed by the issuer → 401 invalid_token', async () => {
    const forged = `${token.split('.').slice(0, 2).join('.')}.${Buffer.from(new Uint8Array(64)).toString('base64url')}`
    await expect401(await dpopRequest(forged), 'invalid_token')
  })
  test('a token whose session was revoked → 401 invalid_token, even when cached', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const t = body.access_token as string
    await authenticate(await dpopRequest(t))
    const tsid = JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()).sid
    await pod.deps.revocations.revoke(tsid, pod.clock.now)
    const e = await refusal(await dpopRequest(t))
    expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_token' })
    expect(tsid).not.toBe(sid)
  })
})

describe('lib/idle-caches.ts: an idle pod forgets its verified tokens, not its replay memory', () => {
  test('after forgetIdleCaches: the token authenticates again, a proof already used stays refused (401 invalid_dpop_proof), another key is refused (401 invalid_token)', async () => {
    const used = await dpopProof(key, 'GET', `${BASE}/notes/1`, pod.clock.now, { accessToken: token })
    await authenticate(await dpopRequest(token, { proof: used }))
    expect(forgetIdleCaches()).toBeGreaterThan(0)
    expect((await authenticate(await dpopRequest(token))).webid).toBe(WEBID as never)
    await expect401(await dpopRequest(token, { proof: used }), 'invalid_dpop_proof')
    forgetIdleCaches()
    await expect401(await dpopRequest(token, { k: await newDpopKey() }), 'invalid_token')
  })
})

describe('RFC 9449 §11.1: the replay cache never forgets a live proof', () => {
  test('one key past its share: 429 too_many_requests with Retry-After, a captured proof stays refused', async () => {
    const small = makeAuthenticator(
      { ...pod.deps, baseUrl: pod.deps.cfg.baseUrl, readableByPublic: makePublicView(pod.deps.decider, pod.deps.cfg.baseUrl), umaTokenType: 'bearer' },
      { replay: new JtiReplayCache({ perPartition: 5 }) },
    )
    const captured = await dpopRequest(token)
    await small(captured.clone())
    for (let i = 0; i < 4; i++) await small(await dpopRequest(token))
    const replayed = await small(captured.clone()).then(
      () => undefined,
      (e: unknown) => e as HttpError,
    )
    expect({ status: replayed?.status, code: replayed?.code }).toEqual({ status: 401, code: 'invalid_dpop_proof' })
    // the sixth forgets the captured proof and raises the key's horizon to its iat: later ones of that second are over the share
    await small(await dpopRequest(token))
    const over = await small(await dpopRequest(token)).then(
      () => undefined,
      (e: unknown) => e as HttpError,
    )
    expect({ status: over?.status, code: over?.code, retry: over?.headers['retry-after'] }).toEqual({ status: 429, code: 'too_many_requests', retry: '1' })
    const again = await small(captured.clone()).then(
      () => undefined,
      (e: unknown) => e as HttpError,
    )
    expect({ status: again?.status, code: again?.code }).toEqual({ status: 429, code: 'too_many_requests' })
  })
  test('a proof is recorded only once the token is verified: junk takes no room', async () => {
    const small = makeAuthenticator(
      { ...pod.deps, baseUrl: pod.deps.cfg.baseUrl, readableByPublic: makePublicView(pod.deps.decider, pod.deps.cfg.baseUrl), umaTokenType: 'bearer' },
      { replay: new JtiReplayCache({ perPartition: 1 }) },
    )
    const forged = `${token.split('.').slice(0, 2).join('.')}.${Buffer.from(new Uint8Array(64)).toString('base64url')}`
    for (let i = 0; i < 3; i++) {
      const e = await small(await dpopRequest(forged)).then(
        () => undefined,
        (err: unknown) => err as HttpError,
      )
      expect({ status: e?.status, code: e?.code }).toEqual({ status: 401, code: 'invalid_token' })
    }
    expect((await small(await dpopRequest(token))).webid).toBe(WEBID as never)
  })
})

describe('RFC 9068 §4: an ID token is not an access token', () => {
  test("the pod's own ID token sent as an access token, with a proof of its key → 401 invalid_token", async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const idToken = body.id_token as string
    const e = await refusal(await dpopRequest(idToken))
    expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_token' })
    expect(e.description).toContain('at+jwt')
  })
})

describe('verified tokens are cached until they expire', () => {
  test(`a cached verification is redone after at most ${TOKEN_CACHE_MAX_MS / 1000} s, whatever the token's exp`, async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const t = body.access_token as string
    fetched.length = 0
    await authenticate(await dpopRequest(t))
    pod.clock.now += TOKEN_CACHE_MAX_MS - 1000
    try {
      await authenticate(await dpopRequest(t))
      expect(fetched).toEqual([WEBID])
      pod.clock.now += 2000
      await authenticate(await dpopRequest(t))
      expect(fetched).toEqual([WEBID, WEBID])
    } finally {
      pod.clock.now -= TOKEN_CACHE_MAX_MS + 1000
    }
  })
  test('a repeated token does not read the WebID profile again', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    const t = body.access_token as string
    fetched.length = 0
    await authenticate(await dpopRequest(t))
    expect(fetched).toEqual([WEBID])
    await authenticate(await dpopRequest(t))
    await authenticate(await dpopRequest(t))
    expect(fetched).toEqual([WEBID])
  })
})

describe('RFC 9449 §7.2 and RFC 9449 §7.1: schemes', () => {
  test('a DPoP-bound token sent as Bearer → 401 invalid_token', async () => {
    const e = await refusal(new Request(`${BASE}/x`, { headers: { authorization: `Bearer ${token}` } }))
    expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_token' })
    expect(e.description).toContain('DPoP-bound')
    expect(e.headers['www-authenticate']).toStartWith('DPoP error="invalid_token"')
  })
  test('Bearer and DPoP together → 400 invalid_request', async () => {
    const headers = new Headers({ dpop: await dpopProof(key, 'GET', `${BASE}/x`, pod.clock.now) })
    headers.append('authorization', `DPoP ${token}`)
    headers.append('authorization', `Bearer ${token}`)
    const e = await refusal(new Request(`${BASE}/x`, { headers }))
    expect({ status: e.status, code: e.code }).toEqual({ status: 400, code: 'invalid_request' })
  })
  test('an unknown scheme → 401, never anonymous', async () => {
    const e = await refusal(new Request(`${BASE}/x`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }))
    expect(e.status).toBe(401)
  })
  test('a malformed Authorization header → 400 invalid_request', async () => {
    const e = await refusal(new Request(`${BASE}/x`, { headers: { authorization: 'DPoP a b c' } }))
    expect({ status: e.status, code: e.code }).toEqual({ status: 400, code: 'invalid_request' })
  })
})

describe('tokens of other issuers', () => {
  let idpKey: CryptoKey
  const ISS = 'https://idp.example'
  const ALICE = 'https://alice.example/card#me'
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256')
    idpKey = pair.privateKey
    pod.docs.set(`${ISS}/.well-known/openid-configuration`, { body: JSON.stringify({ issuer: ISS, jwks_uri: `${ISS}/jwks` }), type: 'application/json' })
    pod.docs.set(`${ISS}/jwks`, {
      body: JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'i1', alg: 'ES256' }] }),
      type: 'application/json',
    })
    pod.docs.set('https://alice.example/card', { body: `<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${ISS}>.`, type: 'text/turtle' })
    pod.docs.set('https://liar.example/.well-known/openid-configuration', {
      body: JSON.stringify({ issuer: ISS, jwks_uri: `${ISS}/jwks` }),
      type: 'application/json',
    })
    pod.docs.set('https://mallory.example/card', { body: '<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <https://liar.example>.', type: 'text/turtle' })
  })
  const remoteToken = (iss = ISS, webid = ALICE) => {
    const iat = pod.clock.now / 1000
    return new SignJWT({ webid, client_id: APP_ID, cnf: { jkt: key.jkt } })
      .setProtectedHeader({ alg: 'ES256', kid: 'i1' })
      .setIssuer(iss)
      .setAudience(['solid'])
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .sign(idpKey)
  }
  test('are verified by OP discovery → jwks_uri through the fetcher, cached per issuer', async () => {
    fetched.length = 0
    expect(await authenticate(await dpopRequest(await remoteToken()))).toMatchObject({ webid: ALICE, issuer: ISS, scheme: 'DPoP' })
    // the signature first (the issuer's keys), the WebID profile only for a token that verifies
    expect(fetched).toEqual([`${ISS}/.well-known/openid-configuration`, `${ISS}/jwks`, ALICE])
    fetched.length = 0
    await authenticate(await dpopRequest(await remoteToken()))
    expect(fetched).not.toContain(`${ISS}/jwks`)
  })
  test('an issuer the WebID profile does not list → 401 invalid_token', async () => {
    await expect401(await dpopRequest(await remoteToken(ISS, 'https://mallory.example/card#me')), 'invalid_token')
  })
  test('a discovery document naming another issuer → 401 invalid_token', async () => {
    await expect401(await dpopRequest(await remoteToken('https://liar.example', 'https://mallory.example/card#me')), 'invalid_token')
  })
  test('our own issuer is verified without the network', async () => {
    const { body } = await obtainTokens(pod, new CookieJar(), key)
    fetched.length = 0
    const before = pod.fetches()
    await authenticate(await dpopRequest(body.access_token as string))
    expect(pod.fetches()).toBe(before)
  })
})
