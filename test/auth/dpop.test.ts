import { beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { base64url, CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'
import { accessTokenHash, DPOP_MAX_AGE_S, normalizeHtu, verifyDpopProof, type ProofFacts } from '../../src/auth/dpop.ts'
import { checkJti, JtiReplayCache, jtiExpiry, OVER_SHARE_LOG_INTERVAL_MS, type JtiVerdict } from '../../src/auth/dpop-replay.ts'
import { HttpError } from '../../src/http/errors.ts'
import { jwkThumbprint } from '../../src/lib/jwk-thumbprint.ts'
import { setLogLevel } from '../../src/log.ts'

const NOW = 1_700_000_000_000
const IAT = NOW / 1000
const URL_ = 'https://pod.example/alice/notes/1'
const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJ3ZWJpZCI6Imh0dHBzOi8vYWxpY2UifQ.c2lnbmF0dXJl'

let privateKey: CryptoKey
let publicJwk: JWK

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true })
  privateKey = pair.privateKey
  publicJwk = await exportJWK(pair.publicKey)
})

interface ProofParts {
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  key?: CryptoKey | Uint8Array
}

/** Signs a proof; `undefined` in header or claims removes that member. */
async function proof(p: ProofParts = {}): Promise<string> {
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwk, ...p.header }
  const claims = { jti: crypto.randomUUID(), htm: 'GET', htu: URL_, iat: IAT, ...p.claims }
  const payload = new TextEncoder().encode(JSON.stringify(claims))
  return new CompactSign(payload).setProtectedHeader(header as never).sign(p.key ?? privateKey)
}

const facts = (header: ProofFacts['header'], more: Partial<ProofFacts> = {}): ProofFacts => ({ header, method: 'GET', url: URL_, now: NOW, ...more })

/** Asserts the exact status and code, and that neither the proof nor the token leaks into the text. */
async function rejects(f: ProofFacts, status: number, code: string, description?: string | RegExp): Promise<HttpError> {
  const err = await verifyDpopProof(f).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  const e = err as HttpError
  expect({ status: e.status, code: e.code as string }).toEqual({ status, code })
  if (typeof f.header === 'string' && f.header.length > 20) expect(e.description).not.toContain(f.header)
  if (f.accessToken) expect(e.description).not.toContain(f.accessToken)
  if (description !== undefined) expect(e.description).toMatch(description)
  return e
}

describe('RFC 9449 §4.3 — the RFC example proofs (RFC 9449 / RFC 7638 test vectors)', () => {
  const P1 =
    'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg'
  const P2 =
    'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA'
  const AT = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU'
  const JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I'

  test('accepts the token-request example with the clock at its iat', async () => {
    const r = await verifyDpopProof({ header: P1, method: 'POST', url: 'https://server.example.com/token', now: 1562262616_000 })
    expect(r).toMatchObject({ jkt: JKT, jti: '-BwC3ESc6acc2lTc', iat: 1562262616, htu: 'https://server.example.com/token' })
    expect(r.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs' })
  })

  test('accepts the resource-request example with its ath of the example access token', async () => {
    const r = await verifyDpopProof({
      header: P2,
      method: 'GET',
      url: 'https://resource.example.org/protectedresource',
      now: 1562262618_000,
      accessToken: AT,
      requireAth: true,
      status: 401,
    })
    expect(r).toMatchObject({ jkt: JKT, jti: 'e1j3V_bKic8-LAEB', iat: 1562262618 })
  })

  test('computes ath of the example access token', () => {
    expect(accessTokenHash(AT)).toBe('fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo')
  })

  test('rejects the resource-request example with a different access token', async () => {
    await rejects(
      { header: P2, method: 'GET', url: 'https://resource.example.org/protectedresource', now: 1562262618_000, accessToken: `${AT}x`, status: 401 },
      401,
      'invalid_dpop_proof',
      /ath does not match/,
    )
  })

  test('rejects the token-request example an hour later', async () => {
    await rejects(
      { header: P1, method: 'POST', url: 'https://server.example.com/token', now: 1562266216_000 },
      400,
      'invalid_dpop_proof',
      "iat is 3600 s in the past; proofs must be at most 60 s old — check the client's clock",
    )
  })
})

describe('RFC 9449 §4.3 (1): not more than one DPoP header', () => {
  test.each([
    ['as two values', (p: string) => [p, p]],
    ['joined by a comma', (p: string) => `${p}, ${p}`],
  ])('rejects two DPoP headers %s', async (_, twice) => {
    await rejects(facts(twice(await proof())), 400, 'invalid_dpop_proof', 'more than one DPoP header; send exactly one')
  })
  test.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty list', []],
    ['an empty string', ''],
  ])('rejects a missing DPoP header (%s)', async (_, header) => {
    await rejects(facts(header as ProofFacts['header']), 400, 'invalid_dpop_proof', /DPoP header is missing/)
  })
  test('accepts one value given as a one-element list', async () => {
    expect((await verifyDpopProof(facts([await proof()]))).htu).toBe(URL_)
  })
})

describe('RFC 9449 §4.3 (2): the value is a single well-formed JWT', () => {
  const json = (v: unknown) => base64url.encode(JSON.stringify(v))
  test.each([
    ['not a JWS', 'not-a-jwt', /not a compact JWS/],
    ['two parts', 'abc.def', /not a compact JWS/],
    ['four parts', 'a.b.c.d', /not a compact JWS/],
    ['a value with a space', 'a b.c.d', /not a compact JWS/],
    ['a header that is not JSON', `${base64url.encode('nope')}.${json({})}.c2ln`, /not a well-formed JWT/],
    ['a payload that is not JSON', `${json({ alg: 'ES256' })}.${base64url.encode('nope')}.c2ln`, /not a well-formed JWT/],
    ['a payload that is a JSON array', `${json({ alg: 'ES256' })}.${json([1])}.c2ln`, /not a well-formed JWT/],
    ['a payload that is JSON null', `${json({ alg: 'ES256' })}.${json(null)}.c2ln`, /not a well-formed JWT/],
    [
      'a header that is not UTF-8',
      `${base64url.encode(new Uint8Array([...new TextEncoder().encode('{"alg":"'), 0xff, ...new TextEncoder().encode('"}')]))}.${json({})}.c2ln`,
      /not a well-formed JWT/,
    ],
    ['a header of 4n + 1 base64url characters (no base64url)', `${json({ alg: 'ES256' })}A.${json({})}.c2ln`, /not a well-formed JWT/],
    ['an over-long value', `${'a'.repeat(9000)}.b.c`, /at most 8192/],
  ])('rejects %s', async (_, value, description) => {
    await rejects(facts(value), 400, 'invalid_dpop_proof', description)
  })
})

describe('RFC 9449 §4.3 (3): jti, htm, htu and iat are present', () => {
  test.each([
    ['jti missing', { jti: undefined }, /jti is missing/],
    ['jti empty', { jti: '' }, /jti is missing/],
    ['jti not a string', { jti: 42 }, /jti is missing/],
    ['htm missing', { htm: undefined }, /htm is missing; expected the request method "GET"/],
    ['htu missing', { htu: undefined }, /htu is missing/],
    ['iat missing', { iat: undefined }, /iat is missing/],
    ['iat a string', { iat: String(IAT) }, /iat is missing or not a number/],
    ['ath not a string', { ath: 1 }, /ath must be a base64url string/],
    ['nonce not a string', { nonce: {} }, /nonce must be a string/],
  ])('rejects a proof with %s', async (_, claims, description) => {
    await rejects(facts(await proof({ claims })), 400, 'invalid_dpop_proof', description)
  })
  test('rejects a jti longer than 256 characters (§11.1)', async () => {
    await rejects(facts(await proof({ claims: { jti: 'j'.repeat(257) } })), 400, 'invalid_dpop_proof', 'jti is 257 characters; at most 256 are accepted')
  })
})

describe('RFC 9449 §4.3 (4): typ is dpop+jwt', () => {
  test.each([['JWT'], ['at+jwt'], [undefined], [7]])('rejects typ %p', async typ => {
    await rejects(facts(await proof({ header: { typ } })), 400, 'invalid_dpop_proof', /expected "dpop\+jwt"/)
  })
  test('accepts typ application/dpop+jwt (RFC 7515 §4.1.9 media type form)', async () => {
    expect((await verifyDpopProof(facts(await proof({ header: { typ: 'application/dpop+jwt' } })))).htu).toBe(URL_)
  })
})

describe('RFC 9449 §4.3 (5): alg is asymmetric, not none, and allowed by policy', () => {
  test('rejects alg none', async () => {
    const enc = (v: unknown) => base64url.encode(JSON.stringify(v))
    const unsigned = `${enc({ typ: 'dpop+jwt', alg: 'none', jwk: publicJwk })}.${enc({ jti: 'x1', htm: 'GET', htu: URL_, iat: IAT })}.`
    await rejects(facts(unsigned), 400, 'invalid_dpop_proof')
    await rejects(facts(`${unsigned}AA`), 400, 'invalid_dpop_proof', /alg "none" is not accepted/)
  })
  test.each(['HS256', 'HS384', 'HS512'])('rejects %s', async alg => {
    const secret = crypto.getRandomValues(new Uint8Array(64))
    const p = await proof({ header: { alg, jwk: { kty: 'oct', k: base64url.encode(secret) } }, key: secret })
    await rejects(facts(p), 400, 'invalid_dpop_proof', new RegExp(`alg "${alg}" is not accepted; use one of ES256`))
  })
  test('rejects a missing alg', async () => {
    const enc = (v: unknown) => base64url.encode(JSON.stringify(v))
    await rejects(
      facts(`${enc({ typ: 'dpop+jwt', jwk: publicJwk })}.${enc({ jti: 'x', htm: 'GET', htu: URL_, iat: IAT })}.c2ln`),
      400,
      'invalid_dpop_proof',
      /alg missing is not accepted/,
    )
  })
  test('rejects an asymmetric alg that local policy leaves out', async () => {
    await rejects(facts(await proof(), { algorithms: ['RS256'] }), 400, 'invalid_dpop_proof', 'alg "ES256" is not accepted; use one of RS256')
  })
  test.each(['ES256', 'ES384', 'ES512', 'RS256', 'PS256', 'EdDSA', 'Ed25519'])('accepts a proof signed with %s', async alg => {
    const pair = await generateKeyPair(alg, { extractable: true })
    const p = await proof({ header: { alg, jwk: await exportJWK(pair.publicKey) }, key: pair.privateKey })
    expect((await verifyDpopProof(facts(p))).jkt).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

describe('RFC 9449 §4.3 (6): the signature verifies with the header jwk', () => {
  test('rejects a proof signed by another key than its jwk', async () => {
    const other = await generateKeyPair('ES256')
    await rejects(facts(await proof({ key: other.privateKey })), 400, 'invalid_dpop_proof', 'the proof signature does not verify with its jwk')
  })
  test('rejects a proof whose payload was swapped after signing', async () => {
    const [h, , s] = (await proof()).split('.')
    const [, body] = (await proof({ claims: { htm: 'POST' } })).split('.')
    await rejects(facts(`${h}.${body}.${s}`), 400, 'invalid_dpop_proof', 'the proof signature does not verify with its jwk')
  })
  // ES256 is verified with node:crypto, its header decoded once and its key imported once (auth/dpop.ts): the
  // refusals are the same whether the header was seen before or not.
  test('rejects a tampered ES256 signature of a header seen before', async () => {
    const good = await proof()
    await verifyDpopProof(facts(good))
    const [h, b, s] = (await proof()).split('.')
    const bytes = base64url.decode(s!)
    bytes[10] = bytes[10]! ^ 1
    await rejects(facts(`${h}.${b}.${base64url.encode(bytes)}`), 400, 'invalid_dpop_proof', 'the proof signature does not verify with its jwk')
  })
  test.each([
    ['63 bytes', 63],
    ['65 bytes', 65],
    ['a DER-encoded length, 72 bytes', 72],
  ])('rejects an ES256 signature of %s (RFC 7518 §3.4: R || S, 64 bytes)', async (_, length) => {
    const [h, b, s] = (await proof()).split('.')
    const bytes = new Uint8Array(length)
    bytes.set(base64url.decode(s!).subarray(0, Math.min(64, length)))
    await rejects(facts(`${h}.${b}.${base64url.encode(bytes)}`), 400, 'invalid_dpop_proof', 'the proof signature does not verify with its jwk')
  })
  test('rejects a P-256 jwk whose point is not on the curve', async () => {
    const y = base64url.decode(publicJwk.y!)
    y[31] = y[31]! ^ 1
    const offCurve = { ...publicJwk, y: base64url.encode(y) }
    await rejects(facts(await proof({ header: { jwk: offCurve } })), 400, 'invalid_dpop_proof', 'jwk is not a valid public key for ES256')
  })
  test.each([
    ['a short x', { x: 'AAAA' }],
    ['a P-384 curve', { crv: 'P-384' }],
    ['an RSA kty', { kty: 'RSA' }],
  ])('rejects an ES256 jwk with %s', async (_, change) => {
    await rejects(facts(await proof({ header: { jwk: { ...publicJwk, ...change } } })), 400, 'invalid_dpop_proof', /^jwk is not a valid public key for ES256/)
  })
  test('a header seen before is refused again when its alg is outside the policy of this call', async () => {
    const p = await proof()
    await verifyDpopProof(facts(p))
    await rejects(facts(await proof(), { algorithms: ['EdDSA'] }), 400, 'invalid_dpop_proof', /alg "ES256" is not accepted/)
  })
  test('rejects a jwk that does not fit the alg', async () => {
    const rsa = await generateKeyPair('RS256')
    await rejects(facts(await proof({ header: { alg: 'RS256' }, key: rsa.privateKey })), 400, 'invalid_dpop_proof', 'jwk is not a valid public key for RS256')
  })
})

describe('RFC 9449 §4.3 (7): the jwk holds no private key', () => {
  test("rejects a jwk carrying the signing key's d", async () => {
    const privateJwk = await exportJWK(privateKey)
    await rejects(
      facts(await proof({ header: { jwk: privateJwk } })),
      400,
      'invalid_dpop_proof',
      'jwk contains private key members (d); send the public key only',
    )
  })
  test.each(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth', 'priv'])('rejects a jwk with private member %s', async member => {
    await rejects(
      facts(await proof({ header: { jwk: { ...publicJwk, [member]: 'AQAB' } } })),
      400,
      'invalid_dpop_proof',
      `jwk contains private key members (${member}); send the public key only`,
    )
  })
  test.each([
    ['missing', undefined],
    ['a string', 'key'],
    ['an array', []],
  ])('rejects a jwk that is %s', async (_, jwk) => {
    await rejects(facts(await proof({ header: { jwk } })), 400, 'invalid_dpop_proof', 'the jwk header is missing; the proof must carry its public key')
  })
})

describe('RFC 9449 §4.3 (8): htm equals the request method, case-sensitive', () => {
  test.each([
    ['get', 'GET'],
    ['POST', 'GET'],
    ['GET', 'PUT'],
  ])('rejects htm %s for a %s request', async (htm, method) => {
    await rejects(facts(await proof({ claims: { htm } }), { method }), 400, 'invalid_dpop_proof', `htm is "${htm}"; expected "${method}" (case-sensitive)`)
  })
})

describe('RFC 9449 §4.3 (9): htu equals the request URI without query and fragment (RFC 3986 §6.2)', () => {
  test.each([
    ['a query on the request', URL_, `${URL_}?page=2`],
    ['a query and fragment on htu', `${URL_}?a=1#frag`, URL_],
    ['an upper-case scheme and host', 'HTTPS://POD.Example/alice/notes/1', URL_],
    ['the default port', 'https://pod.example:443/alice/notes/1', URL_],
    ['a percent-encoded unreserved character', 'https://pod.example/%7Ealice/a%2fb', 'https://pod.example/~alice/a%2Fb'],
    ['a dot segment', 'https://pod.example/alice/x/../notes/1', URL_],
    ['an empty path', 'https://pod.example', 'https://pod.example/'],
  ])('accepts htu that differs only by %s', async (_, htu, url) => {
    expect((await verifyDpopProof(facts(await proof({ claims: { htu } }), { url }))).htu).toBe(normalizeHtu(url)!)
  })
  test.each([
    ['another path', 'https://pod.example/alice/notes/2'],
    ['a trailing slash', `${URL_}/`],
    ['another host', 'https://evil.example/alice/notes/1'],
    ['http instead of https', 'http://pod.example/alice/notes/1'],
    ['another port', 'https://pod.example:8443/alice/notes/1'],
    ['a path in another case', 'https://pod.example/Alice/notes/1'],
    ['userinfo', 'https://user@pod.example/alice/notes/1'],
  ])('rejects htu with %s', async (_, htu) => {
    await rejects(facts(await proof({ claims: { htu } })), 400, 'invalid_dpop_proof', `does not match the request URL; expected ${URL_}`)
  })
  test.each([
    ['a relative reference', '/alice/notes/1'],
    ['a non-http scheme', 'urn:x:1'],
    ['garbage', 'http://'],
  ])('rejects htu that is %s', async (_, htu) => {
    await rejects(facts(await proof({ claims: { htu } })), 400, 'invalid_dpop_proof', /is not an absolute http\(s\) URL/)
  })
})

describe('RFC 9449 §4.3 (10), §8, §9: nonce equals the server-provided nonce', () => {
  test.each([
    ['missing', undefined, /has no nonce/],
    ['stale', 'old-nonce', /not the current DPoP-Nonce/],
  ])('answers use_dpop_nonce with DPoP-Nonce for a %s nonce', async (_, nonce, description) => {
    const e = await rejects(facts(await proof({ claims: { nonce } }), { expectedNonce: 'n-2' }), 400, 'use_dpop_nonce', description)
    expect(e.headers).toEqual({ 'DPoP-Nonce': 'n-2' })
  })
  test("uses the caller's status at a resource", async () => {
    await rejects(facts(await proof(), { expectedNonce: 'n-2', status: 401 }), 401, 'use_dpop_nonce')
  })
  test('accepts the current nonce', async () => {
    expect((await verifyDpopProof(facts(await proof({ claims: { nonce: 'n-2' } }), { expectedNonce: 'n-2' }))).htu).toBe(URL_)
  })
  test('ignores nonce when the server issued none', async () => {
    expect((await verifyDpopProof(facts(await proof({ claims: { nonce: 'whatever' } })))).htu).toBe(URL_)
  })
})

describe('RFC 9449 §4.3 (11), §11.1: iat is inside the acceptance window', () => {
  test('rejects a stale iat, saying by how much and what is allowed', async () => {
    await rejects(
      facts(await proof({ claims: { iat: IAT - 61 } })),
      400,
      'invalid_dpop_proof',
      "iat is 61 s in the past; proofs must be at most 60 s old — check the client's clock",
    )
  })
  test('rejects an iat too far in the future, saying by how much and what is allowed', async () => {
    await rejects(
      facts(await proof({ claims: { iat: IAT + 90 } })),
      400,
      'invalid_dpop_proof',
      "iat is 90 s in the future; at most 60 s of clock skew is allowed — check the client's clock",
    )
  })
  test.each([
    ['60 s old', -60],
    ['60 s ahead', 60],
  ])('accepts an iat %s (the window edges)', async (_, delta) => {
    expect((await verifyDpopProof(facts(await proof({ claims: { iat: IAT + delta } })))).iat).toBe(IAT + delta)
  })
  test('honours a configured window', async () => {
    await rejects(
      facts(await proof({ claims: { iat: IAT - 121 } }), { maxAgeSeconds: 120 }),
      400,
      'invalid_dpop_proof',
      "iat is 121 s in the past; proofs must be at most 120 s old — check the client's clock",
    )
    await rejects(
      facts(await proof({ claims: { iat: IAT + 11 } }), { futureSkewSeconds: 10 }),
      400,
      'invalid_dpop_proof',
      "iat is 11 s in the future; at most 10 s of clock skew is allowed — check the client's clock",
    )
  })
})

describe('RFC 9449 §4.3 (12), RFC 9449 §4.3 (ath optional here): ath equals the hash of the access token', () => {
  test('accepts a matching ath', async () => {
    const p = await proof({ claims: { ath: accessTokenHash(TOKEN) } })
    expect((await verifyDpopProof(facts(p, { accessToken: TOKEN, requireAth: true, status: 401 }))).htu).toBe(URL_)
  })
  test.each([
    ["another token's hash", accessTokenHash('other')],
    ['the token itself', TOKEN],
    ['an empty string', ''],
  ])('rejects ath that is %s', async (_, ath) => {
    await rejects(
      facts(await proof({ claims: { ath } }), { accessToken: TOKEN, status: 401 }),
      401,
      'invalid_dpop_proof',
      'ath does not match the SHA-256 hash of the access token presented with the proof',
    )
  })
  test("accepts a proof without ath unless ath is required (Inrupt's client omits it)", async () => {
    expect((await verifyDpopProof(facts(await proof(), { accessToken: TOKEN, status: 401 }))).htu).toBe(URL_)
    await rejects(facts(await proof(), { accessToken: TOKEN, requireAth: true, status: 401 }), 401, 'invalid_dpop_proof', /ath is missing/)
  })
})

describe('RFC 9449 §5, §7.1: the caller picks the status', () => {
  test('answers 400 by default (token endpoint) and 401 when asked (resource)', async () => {
    const p = await proof({ claims: { htm: 'POST' } })
    await rejects(facts(p), 400, 'invalid_dpop_proof')
    await rejects(facts(p, { status: 401 }), 401, 'invalid_dpop_proof')
  })
  test('returns the thumbprint, jti, iat, normalised htu and public jwk', async () => {
    const r = await verifyDpopProof(facts(await proof({ claims: { jti: 'jti-1', htu: `${URL_}?q=1` } })))
    expect(r).toMatchObject({ jti: 'jti-1', iat: IAT, htu: URL_, jwk: publicJwk })
    expect(r.jkt).toBe(await jwkThumbprint(publicJwk))
  })
  test('a key seen before (its import kept) still refuses a proof its jwk did not sign, and its thumbprint stays its own', async () => {
    const other = await generateKeyPair('ES256', { extractable: true })
    const otherJwk = await exportJWK(other.publicKey)
    expect((await verifyDpopProof(facts(await proof({ header: { jwk: otherJwk }, key: other.privateKey })))).jkt).toBe(await jwkThumbprint(otherJwk))
    await rejects(facts(await proof({ header: { jwk: otherJwk } })), 400, 'invalid_dpop_proof', 'the proof signature does not verify with its jwk')
    expect((await verifyDpopProof(facts(await proof()))).jkt).toBe(await jwkThumbprint(publicJwk))
  })
  test('the hash the caller passes as accessTokenHash is what ath is compared with', async () => {
    const p = await proof({ claims: { ath: accessTokenHash(TOKEN) } })
    await verifyDpopProof(facts(p, { accessToken: TOKEN, accessTokenHash: accessTokenHash(TOKEN) }))
    await rejects(facts(p, { accessToken: TOKEN, accessTokenHash: accessTokenHash('another') }), 400, 'invalid_dpop_proof', /ath does not match/)
  })
})

describe('RFC 9449 §11.1: jti replay, per proof key', () => {
  const fresh: JtiVerdict = { fresh: true }
  const replay: JtiVerdict = { fresh: false, overShare: false }
  const A = 'jkt-of-app-a'
  const B = 'jkt-of-app-b'
  test('accepts a jti once and refuses it again for the same htu, not for another htu', () => {
    const cache = new JtiReplayCache()
    expect(cache.remember(A, 'j1', URL_, NOW + 60_000, NOW)).toEqual(fresh)
    expect(cache.remember(A, 'j1', URL_, NOW + 60_000, NOW + 1000)).toEqual(replay)
    expect(cache.remember(A, 'j1', 'https://pod.example/other', NOW + 60_000, NOW)).toEqual(fresh)
  })
  test('remembers a jti for as long as verifyDpopProof accepts its iat (60 s), and forgets it after', async () => {
    const cache = new JtiReplayCache()
    const until = jtiExpiry(IAT)
    expect(cache.remember(A, 'j1', URL_, until, NOW)).toEqual(fresh)
    // the last instant the proof itself is still accepted
    const edge = (IAT + DPOP_MAX_AGE_S) * 1000
    await verifyDpopProof(facts(await proof({ claims: { iat: IAT } }), { now: edge }))
    expect(cache.remember(A, 'j1', URL_, until, edge)).toEqual(replay)
    expect(cache.remember(A, 'j1', URL_, until, until)).toEqual(fresh)
  })
  test('one key past its share in one second of iat is over its share (Retry-After to the next second); another key is not', () => {
    const cache = new JtiReplayCache({ perPartition: 3 })
    const until = jtiExpiry(IAT)
    for (let i = 0; i < 4; i++) expect(cache.remember(A, `a${i}`, URL_, until, NOW + 200)).toEqual(fresh)
    expect(cache.remember(A, 'a4', URL_, until, NOW + 200)).toEqual({ fresh: false, overShare: true, retryAfterSeconds: 1, perKey: 3 })
    // the forgotten a0 is refused too: it is at the horizon
    expect(cache.remember(A, 'a0', URL_, until, NOW + 300)).toMatchObject({ overShare: true })
    for (let i = 0; i < 3; i++) expect(cache.remember(B, `b${i}`, URL_, until, NOW + 300)).toEqual(fresh)
    // A's proofs of the next second are accepted again
    expect(cache.remember(A, 'a5', URL_, jtiExpiry(IAT + 1), NOW + 1000)).toEqual(fresh)
  })
  test('a key over its share is logged once an interval at warn, with the count refused since its last line', () => {
    const cache = new JtiReplayCache({ perPartition: 1 })
    const lines: Record<string, unknown>[] = []
    setLogLevel('info')
    const spy = spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(JSON.parse(String(line)))
    })
    try {
      cache.remember(A, 'a0', URL_, jtiExpiry(IAT), NOW)
      cache.remember(A, 'a1', URL_, jtiExpiry(IAT), NOW)
      for (let i = 0; i < 5; i++) cache.remember(A, `x${i}`, URL_, jtiExpiry(IAT), NOW + i)
      cache.remember(B, 'b0', URL_, jtiExpiry(IAT), NOW)
      cache.remember(A, 'late', URL_, jtiExpiry(IAT), NOW + OVER_SHARE_LOG_INTERVAL_MS - 1)
      expect(lines.map(l => [l.level, l.event, l.jkt, l.refusedSinceLastLine])).toEqual([['warn', 'dpop.key_over_share', A, 0]])
      cache.remember(A, 'later', URL_, jtiExpiry(IAT), NOW + OVER_SHARE_LOG_INTERVAL_MS)
      expect(lines.map(l => l.refusedSinceLastLine)).toEqual([0, 5])
    } finally {
      spy.mockRestore()
      setLogLevel('silent')
    }
  })
  test('release gives back the entry of a request that failed', () => {
    const cache = new JtiReplayCache()
    cache.remember(A, 'j1', URL_, NOW + 60_000, NOW)
    cache.release(A, 'j1', URL_, NOW)
    expect(cache.remember(A, 'j1', URL_, NOW + 60_000, NOW)).toEqual(fresh)
  })
  test("checkJti: over its share is 429 too_many_requests with Retry-After, not logged per request; a replay the caller's refusal", () => {
    const e = (() => {
      try {
        checkJti({ fresh: false, overShare: true, retryAfterSeconds: 7, perKey: 3 }, () => new HttpError(401, 'invalid_dpop_proof', 'x'))
      } catch (err) {
        return err as HttpError
      }
    })()!
    expect({ status: e.status, code: e.code, retry: e.headers['retry-after'], logged: e.logged }).toEqual({
      status: 429,
      code: 'too_many_requests',
      retry: '7',
      logged: true,
    })
    expect(() => checkJti(replay, () => new HttpError(401, 'invalid_dpop_proof', 'replayed'))).toThrow('replayed')
  })
})

describe('issue 33: no stranger churning DPoP keys refuses another client (no pod-wide floor)', () => {
  test("9,000 fresh keys of issuer X, future-dated by the skew: a new key of issuer Y, its proof made a second ago, is accepted; X's dropped first proof stays refused", () => {
    const cache = new JtiReplayCache()
    expect(cache.remember('x-first', 'j', URL_, jtiExpiry(IAT + 60), NOW, 'https://x.example/')).toEqual({ fresh: true })
    for (let i = 0; i < 9000; i++) cache.remember(`x${i}`, 'j', URL_, jtiExpiry(IAT + 60), NOW, 'https://x.example/')
    expect(cache.remember('y', 'j', URL_, jtiExpiry(IAT - 1), NOW, 'https://y.example/')).toEqual({ fresh: true })
    const again = cache.remember('x-first', 'j', URL_, jtiExpiry(IAT + 60), NOW, 'https://x.example/')
    expect(again.fresh).toBe(false)
  })
  test("dropped keys full: X's new key gets 429 too_many_requests with Retry-After, Y's new key is accepted", () => {
    const cache = new JtiReplayCache({ partitions: 4, dropped: 8 })
    for (let i = 0; i < 20; i++) cache.remember(`x${i}`, 'j', URL_, jtiExpiry(IAT), NOW, 'X')
    const v = cache.remember('x-new', 'j', URL_, jtiExpiry(IAT), NOW, 'X')
    const err = (() => {
      try {
        checkJti(v, () => new HttpError(401, 'invalid_dpop_proof', 'replay'))
      } catch (e) {
        return e as HttpError
      }
    })()
    expect({ status: err?.status, code: err?.code, retry: err?.headers?.['retry-after'] }).toEqual({ status: 429, code: 'too_many_requests', retry: '61' })
    expect(cache.remember('y-new', 'j', URL_, jtiExpiry(IAT), NOW, 'Y')).toEqual({ fresh: true })
  })
})
