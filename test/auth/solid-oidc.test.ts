import { beforeAll, describe, expect, test } from 'bun:test'
import { base64url, CompactSign, createLocalJWKSet, exportJWK, generateKeyPair, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose'
import { accessTokenHash, verifyDpopProof, type VerifiedProof } from '../../src/auth/dpop.ts'
import { jwkThumbprint } from '../../src/lib/jwk-thumbprint.ts'
import { verifySolidAccessToken, type AccessTokenFacts, type IssuerKeys } from '../../src/auth/solid-oidc.ts'
import type { WebId } from '../../src/account/ids.ts'
import { HttpError } from '../../src/http/errors.ts'

const NOW = 1_700_000_000_000
const IAT = NOW / 1000
const ISS = 'https://op.example'
const WEBID = 'https://alice.example/profile/card#me'
const CLIENT = 'https://app.example/id'
const RESOURCE = 'https://alice.example/notes/1'

let opKey: CryptoKey
let jwks: JSONWebKeySet
let dpopKey: CryptoKey
let dpopJwk: JWK
let jkt: string

beforeAll(async () => {
  const op = await generateKeyPair('ES256', { extractable: true })
  opKey = op.privateKey
  jwks = { keys: [{ ...(await exportJWK(op.publicKey)), kid: 'op-1', alg: 'ES256', use: 'sig' }] }
  const dpop = await generateKeyPair('ES256', { extractable: true })
  dpopKey = dpop.privateKey
  dpopJwk = await exportJWK(dpop.publicKey)
  jkt = await jwkThumbprint(dpopJwk)
})

interface TokenParts {
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  key?: CryptoKey | Uint8Array
}

/** Signs an access token as our OP would; `undefined` in header or claims removes that member. */
function token(p: TokenParts = {}): Promise<string> {
  const header = { alg: 'ES256', kid: 'op-1', typ: 'at+jwt', ...p.header }
  const claims = { webid: WEBID, iss: ISS, aud: ['solid', CLIENT], iat: IAT, exp: IAT + 300, cnf: { jkt }, client_id: CLIENT, jti: 'at-1', ...p.claims }
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader(header as never).sign(p.key ?? opKey)
}

const proofOf = (keyThumbprint: string): VerifiedProof => ({ jkt: keyThumbprint, jti: 'p-1', iat: IAT, htu: RESOURCE, jwk: dpopJwk })

function facts(t: string, more: Partial<AccessTokenFacts> = {}): AccessTokenFacts {
  return {
    token: t,
    proof: proofOf(jkt),
    now: NOW,
    getIssuerKeys: async iss => {
      if (iss === ISS) return jwks
      throw new HttpError(502, 'fetch_failed', `no JWKS at ${iss}`)
    },
    getWebIdIssuers: async webid => (webid === WEBID ? [ISS] : []),
    ...more,
  }
}

/** Asserts 401 invalid_token and that no part of the token is in the description. */
async function rejects(f: AccessTokenFacts, description: string | RegExp): Promise<HttpError> {
  const err = await verifySolidAccessToken(f).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  const e = err as HttpError
  expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_token' })
  expect(e.description).toMatch(description)
  for (const part of f.token.split('.').filter(s => s.length > 8)) expect(e.description).not.toContain(part)
  return e
}

describe('Solid-OIDC §8: a DPoP-bound Solid-OIDC access token', () => {
  test('yields webid, client id, issuer, jkt and exp', async () => {
    expect(await verifySolidAccessToken(facts(await token()))).toEqual({ webid: WEBID as WebId, clientId: CLIENT as never, issuer: ISS, jkt, exp: IAT + 300 })
  })
  test('takes the client id from azp when client_id is absent', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { client_id: undefined, azp: 'https://b.example/id' } })))).clientId).toBe(
      'https://b.example/id' as never,
    )
  })
  test('leaves the client id undefined when neither client_id nor azp is present', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { client_id: undefined } })))).clientId).toBeUndefined()
  })
  test('accepts aud as the single string "solid"', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { aud: 'solid' } })))).issuer).toBe(ISS)
  })
  test('accepts a key resolver instead of a key set', async () => {
    const keys: IssuerKeys = createLocalJWKSet(jwks)
    expect((await verifySolidAccessToken(facts(await token(), { getIssuerKeys: async () => keys }))).jkt).toBe(jkt)
  })
  test('binds a real proof with ath to the token (RFC 9449 §7.1)', async () => {
    const t = await token()
    const claims = { jti: 'p-2', htm: 'GET', htu: RESOURCE, iat: IAT, ath: accessTokenHash(t) }
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: dpopJwk }
    const p = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader(header).sign(dpopKey)
    const proof = await verifyDpopProof({ header: p, method: 'GET', url: RESOURCE, now: NOW, accessToken: t, status: 401 })
    expect((await verifySolidAccessToken(facts(t, { proof }))).webid).toBe(WEBID as WebId)
  })
})

describe('Solid-OIDC §8 (1): the token is a JWT', () => {
  const json = (v: unknown) => base64url.encode(JSON.stringify(v))
  test.each([
    ['an opaque string', 'opaque-token-value-123456', /not a JWT/],
    ['two parts', 'abcdefghij.klmnopqrst', /not a JWT/],
    ['a header that is not JSON', `${base64url.encode('not json!')}.${json({ iss: ISS })}.c2lnbmF0dXJl`, /not a well-formed JWT/],
    ['a payload that is not an object', `${json({ alg: 'ES256' })}.${json('a string claim set')}.c2lnbmF0dXJl`, /not a well-formed JWT/],
    ['an over-long value', `${'a'.repeat(17000)}.b.c`, /at most 16384/],
  ])('rejects %s', async (_, t, description) => {
    await rejects(facts(t), description)
  })
})

describe('Solid-OIDC §8 (2): webid, iss, aud, iat, exp and cnf.jkt are present', () => {
  test.each([
    ['webid', { webid: undefined }, 'the access token has no webid claim'],
    ['iss', { iss: undefined }, 'the access token has no iss claim'],
    ['aud', { aud: undefined }, /has no aud claim/],
    ['aud of the wrong type', { aud: [1] }, /has no aud claim/],
    ['iat', { iat: undefined }, 'the access token has no numeric iat claim'],
    ['exp', { exp: undefined }, 'the access token has no numeric exp claim'],
    ['exp of the wrong type', { exp: 'tomorrow' }, 'the access token has no numeric exp claim'],
    ['cnf', { cnf: undefined }, /no cnf.jkt/],
    ['cnf.jkt', { cnf: { kid: 'x' } }, /no cnf.jkt/],
    ['client_id of the wrong type', { client_id: 7 }, 'client_id must be a string'],
    ['azp of the wrong type', { azp: ['x'] }, 'azp must be a string'],
  ])('rejects a token without a valid %s', async (_, claims, description) => {
    await rejects(facts(await token({ claims })), description)
  })
})

describe('Solid-OIDC §8 (3): webid and iss are https (http only on localhost)', () => {
  test.each([
    ['webid over http', { webid: 'http://alice.example/profile/card#me' }, /^webid "http:\/\/alice.example\/profile\/card#me" must be an https URL/],
    ['webid on http://127.0.0.1', { webid: 'http://127.0.0.1:3000/profile/card#me' }, /^webid .* must be an https URL \(http only on localhost\)$/],
    ['webid that is not a URL', { webid: 'alice' }, /^webid "alice" must be an https URL/],
    ['iss over http', { iss: 'http://op.example' }, /^iss "http:\/\/op.example" must be an https URL/],
    ['iss on http://127.0.0.1', { iss: 'http://127.0.0.1:3000' }, /^iss .* must be an https URL/],
    ['iss on http://[::1]', { iss: 'http://[::1]:3000' }, /^iss .* must be an https URL/],
  ])('rejects %s', async (_, claims, description) => {
    await rejects(facts(await token({ claims })), description)
  })
  test('accepts http://localhost for webid and iss', async () => {
    const webid = 'http://localhost:3000/profile/card#me'
    const iss = 'http://localhost:3000'
    const f = facts(await token({ claims: { webid, iss } }), { getIssuerKeys: async () => jwks, getWebIdIssuers: async () => [iss] })
    expect(await verifySolidAccessToken(f)).toMatchObject({ webid, issuer: iss })
  })
  test("the pod's own issuer and WebIDs pass on http://127.0.0.1 (issue 8: it trusts itself)", async () => {
    const webid = 'http://127.0.0.1:3000/profile/card#me'
    const iss = 'http://127.0.0.1:3000'
    const f = facts(await token({ claims: { webid, iss } }), { getIssuerKeys: async () => jwks, getWebIdIssuers: async () => [iss], ownOrigin: iss })
    expect(await verifySolidAccessToken(f)).toMatchObject({ webid, issuer: iss })
  })
  test('another pod on http://127.0.0.1 is still refused by a pod on another origin', async () => {
    const claims = { webid: 'http://127.0.0.1:4000/profile/card#me', iss: 'http://127.0.0.1:4000' }
    await rejects(facts(await token({ claims }), { ownOrigin: 'http://127.0.0.1:3000' }), /^webid .* must be an https URL \(http only on localhost\)$/)
  })
})

describe("Solid-OIDC §8 (4), §1.8: iss is one of the WebID's solid:oidcIssuer values", () => {
  test('rejects an issuer the profile does not list', async () => {
    await rejects(
      facts(await token(), { getWebIdIssuers: async () => ['https://other-op.example'] }),
      `iss "${ISS}" is not a solid:oidcIssuer of "${WEBID}"; the profile lists "https://other-op.example"`,
    )
  })
  test('compares issuers by exact string (a trailing slash differs, §10.10)', async () => {
    await rejects(facts(await token(), { getWebIdIssuers: async () => [`${ISS}/`] }), /is not a solid:oidcIssuer/)
  })
  test('rejects a profile that lists no issuer', async () => {
    await rejects(facts(await token(), { getWebIdIssuers: async () => [] }), /the profile lists none$/)
  })
  test("rejects when the profile cannot be read, with the fetcher's reason", async () => {
    const getWebIdIssuers = async () => {
      throw new HttpError(502, 'fetch_failed', 'timed out after 5 s')
    }
    await rejects(facts(await token(), { getWebIdIssuers }), `the WebID profile "${WEBID}" could not be read: timed out after 5 s`)
  })
  test('keeps a non-HTTP failure out of the description', async () => {
    const getWebIdIssuers = async () => {
      throw new Error('/srv/secret/path ENOENT')
    }
    const e = await rejects(facts(await token(), { getWebIdIssuers }), `the WebID profile "${WEBID}" could not be read`)
    expect(e.description).not.toContain('/srv')
  })
  test('does not read the WebID profile of a token whose signature does not verify (5 before 4)', async () => {
    let profiles = 0
    const getWebIdIssuers = async () => {
      profiles++
      return [ISS]
    }
    const other = await generateKeyPair('ES256')
    await rejects(facts(await token({ key: other.privateKey }), { getWebIdIssuers }), /signature does not verify/)
    expect(profiles).toBe(0)
  })
})

describe("Solid-OIDC §8 (5): the signature verifies with the issuer's JWKS, asymmetric algorithms only", () => {
  test("rejects a token signed by a key outside the issuer's JWKS", async () => {
    const other = await generateKeyPair('ES256')
    await rejects(facts(await token({ key: other.privateKey })), `the access token signature does not verify with the keys of issuer "${ISS}"`)
  })
  test('rejects a token whose payload was changed after signing', async () => {
    const [h, , s] = (await token()).split('.')
    const [, body] = (await token({ claims: { webid: 'https://mallory.example/#me' } })).split('.')
    await rejects(facts(`${h}.${body}.${s}`, { getWebIdIssuers: async () => [ISS] }), /signature does not verify/)
  })
  test('rejects a kid the issuer does not publish', async () => {
    await rejects(facts(await token({ header: { kid: 'op-9' } })), `no key of issuer "${ISS}" matches kid "op-9" and alg ES256`)
  })
  test.each(['HS256', 'HS512'])('rejects %s even when the key set holds a matching secret', async alg => {
    const secret = crypto.getRandomValues(new Uint8Array(64))
    const keys = { keys: [...jwks.keys, { kty: 'oct', k: base64url.encode(secret), kid: 'op-1' }] }
    await rejects(
      facts(await token({ header: { alg }, key: secret }), { getIssuerKeys: async () => keys }),
      new RegExp(`^alg "${alg}" is not accepted; tokens must be signed with one of ES256`),
    )
  })
  test('rejects alg none', async () => {
    const enc = (v: unknown) => base64url.encode(JSON.stringify(v))
    const t = `${enc({ alg: 'none' })}.${enc({ webid: WEBID, iss: ISS, aud: 'solid', iat: IAT, exp: IAT + 60, cnf: { jkt } })}.AA`
    await rejects(facts(t), /^alg "none" is not accepted/)
  })
  test('rejects an asymmetric alg that local policy leaves out', async () => {
    await rejects(facts(await token(), { algorithms: ['RS256'] }), 'alg "ES256" is not accepted; tokens must be signed with one of RS256')
  })
  test("rejects when the issuer's keys cannot be read, with the fetcher's reason", async () => {
    const getIssuerKeys = async () => {
      throw new HttpError(502, 'fetch_failed', 'jwks_uri answered 500')
    }
    await rejects(facts(await token(), { getIssuerKeys }), `the keys of issuer "${ISS}" could not be read: jwks_uri answered 500`)
  })
})

describe('Solid-OIDC §8 (5): aud contains "solid"', () => {
  test.each([[['https://app.example/id']], ['https://app.example/id'], [[]]])('rejects aud %p', async aud => {
    await rejects(facts(await token({ claims: { aud } })), 'aud must contain "solid"')
  })
})

describe('Solid-OIDC §8 (5), RFC 7519 §4.1.4 and §4.1.6: exp in the future, iat not in the future', () => {
  test('rejects a token expired beyond the clock tolerance', async () => {
    await rejects(facts(await token({ claims: { exp: IAT - 61 } })), 'the access token expired 61 s ago; get a new one')
  })
  test('rejects a token expiring exactly at the end of the tolerance', async () => {
    await rejects(facts(await token({ claims: { exp: IAT - 60 } })), 'the access token expired 60 s ago; get a new one')
  })
  test('accepts a token expired within the clock tolerance', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { exp: IAT - 59 } })))).exp).toBe(IAT - 59)
  })
  test('rejects an iat beyond the clock tolerance in the future', async () => {
    await rejects(
      facts(await token({ claims: { iat: IAT + 61 } })),
      "iat is 61 s in the future; at most 60 s of clock skew is allowed — check the issuer's clock",
    )
  })
  test('accepts an iat within the clock tolerance', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { iat: IAT + 60 } })))).webid).toBe(WEBID as WebId)
  })
  test('honours a configured tolerance (CSS uses 120 s)', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { exp: IAT - 100 } }), { clockToleranceSeconds: 120 }))).exp).toBe(IAT - 100)
    await rejects(facts(await token({ claims: { iat: IAT + 121 } }), { clockToleranceSeconds: 120 }), /iat is 121 s in the future; at most 120 s/)
  })
})

describe("Solid-OIDC §8 (7), RFC 9449 §6.1: the proof key is the token's cnf.jkt", () => {
  test('rejects a proof signed with another key', async () => {
    await rejects(facts(await token(), { proof: proofOf('0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I') }), /DPoP proof key does not match the token's cnf.jkt/)
  })
  test('rejects a token bound to another key', async () => {
    await rejects(facts(await token({ claims: { cnf: { jkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' } } })), /does not match the token's cnf.jkt/)
  })
})

describe('RFC 7519 §4.1.5: nbf', () => {
  test('rejects a token not valid before a time beyond the clock tolerance', async () => {
    await rejects(
      facts(await token({ claims: { nbf: IAT + 61 } })),
      'the access token is not valid for another 61 s (nbf); at most 60 s of clock skew is allowed',
    )
  })
  test('accepts nbf within the clock tolerance', async () => {
    expect((await verifySolidAccessToken(facts(await token({ claims: { nbf: IAT + 60 } })))).webid).toBe(WEBID as WebId)
  })
  test('rejects a nbf that is not a number', async () => {
    await rejects(facts(await token({ claims: { nbf: 'soon' } })), 'nbf must be a number')
  })
})

describe('RFC 9068 §4: typ of our own access tokens is at+jwt', () => {
  test.each(['JWT', undefined, 'jwt', 'dpop+jwt'])('rejects a token of the own issuer with typ %p (an ID token is not an access token)', async typ => {
    await rejects(
      facts(await token({ header: { typ } }), { ownIssuer: ISS }),
      /the token's typ is .*; an access token of this pod has typ "at\+jwt" \(an ID token is not an access token\)/,
    )
  })
  test('accepts application/at+jwt (RFC 7515 §4.1.9: the application/ prefix may be written)', async () => {
    expect((await verifySolidAccessToken(facts(await token({ header: { typ: 'application/at+jwt' } }), { ownIssuer: ISS }))).webid).toBe(WEBID as WebId)
  })
  test("leaves the typ of other issuers' tokens alone: Solid-OIDC does not require one", async () => {
    expect((await verifySolidAccessToken(facts(await token({ header: { typ: 'JWT' } }), { ownIssuer: 'https://pod.example' }))).webid).toBe(WEBID as WebId)
  })
})
