import { beforeAll, describe, expect, test } from 'bun:test'
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JSONWebKeySet } from 'jose'
import { decodeIdToken, verifyIdToken, type IdTokenFacts } from '../../src/auth/id-token.ts'
import type { VerifiedProof } from '../../src/auth/dpop.ts'
import { HttpError } from '../../src/http/errors.ts'

const NOW = 1_800_000_000_000
const IAT = NOW / 1000
const ISS = 'https://op.example'
const WEBID = 'https://bob.example/profile/card#me'
const APP = 'https://app.example/id'
let opKey: CryptoKey
let jwks: JSONWebKeySet
const proof: VerifiedProof = { jkt: 'jkt-bob', jti: 'p1', iat: IAT, htu: 'https://pod.example/.uma/token', jwk: {} }

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true })
  opKey = pair.privateKey
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] }
})

function idToken(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const body = { iss: ISS, sub: WEBID, webid: WEBID, aud: [APP, 'solid'], azp: APP, iat: IAT, exp: IAT + 600, cnf: { jkt: 'jkt-bob' }, ...claims }
  return new CompactSign(Buffer.from(JSON.stringify(body))).setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT', ...header } as never).sign(opKey)
}

const facts = async (token: string, more: Partial<IdTokenFacts> = {}): Promise<IdTokenFacts> => ({
  idToken: decodeIdToken(token, NOW),
  proof,
  now: NOW,
  getIssuerKeys: async iss => {
    if (iss === ISS) return jwks
    throw new HttpError(502, 'fetch_failed', `no JWKS at ${iss}`)
  },
  getWebIdIssuers: async w => (w === WEBID ? [ISS] : []),
  ...more,
})

async function needsInfo(run: () => Promise<unknown>, description: RegExp) {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  expect({ status: (err as HttpError).status, code: (err as HttpError).code }).toEqual({ status: 403, code: 'need_info' })
  expect((err as HttpError).description).toMatch(description)
}

describe('Solid-OIDC Primer request flow: the ID token as claim token', () => {
  test('yields WebID, app and issuer', async () => {
    expect(await verifyIdToken(await facts(await idToken()))).toEqual({ webid: WEBID as never, clientId: APP as never, issuer: ISS })
  })
  test.each([
    ['missing', undefined, /missing/],
    ['not a JWT', 'abc', /not a JWT/],
    ['three parts that are not JSON', 'a.b.c', /not a well-formed JWT/],
  ])('step 5: a claim token %s', async (_what, token, description) => {
    await needsInfo(async () => decodeIdToken(token, NOW), description)
  })
  test('step 5: exp absent or past', async () => {
    await needsInfo(async () => decodeIdToken(await idToken({ exp: undefined }), NOW), /no numeric exp/)
    await needsInfo(async () => decodeIdToken(await idToken({ exp: IAT - 120 }), NOW), /expired/)
  })
  test.each([
    ['7b: cnf.jkt of another key', { cnf: { jkt: 'other' } }, {}, /cnf\.jkt/],
    ['12: no kid', {}, { kid: undefined }, /no kid/],
    ['12: a kid the JWKS lacks', {}, { kid: 'k9' }, /no key of issuer/],
    ['9: an issuer the profile does not name', { webid: 'https://carol.example/profile/card#me' }, {}, /not a solid:oidcIssuer/],
    ['12: aud without solid', { aud: [APP] }, {}, /"solid"/],
    ['12: no azp', { azp: undefined }, {}, /no azp/],
    ['iat in the future', { iat: IAT + 3600 }, {}, /future/],
  ] as const)('step %s', async (_what, claims, header, description) => {
    await needsInfo(async () => verifyIdToken(await facts(await idToken(claims, header))), description)
  })
  test('10-12 before 8: a token that does not verify is refused before its WebID profile is read', async () => {
    let profiles = 0
    const getWebIdIssuers = async () => {
      profiles++
      return [ISS]
    }
    const forged = await idToken({}, {})
    const [h, , sig] = forged.split('.')
    const [, body] = (await idToken({ webid: 'https://mallory.example/#me' })).split('.')
    await needsInfo(async () => verifyIdToken(await facts(`${h}.${body}.${sig}`, { getWebIdIssuers })), /signature does not verify/)
    await needsInfo(async () => verifyIdToken(await facts(await idToken({ iss: 'https://other.example' }), { getWebIdIssuers })), /other\.example/)
    expect(profiles).toBe(0)
  })
  test('an access token is not a claim token (typ at+jwt, any spelling; our UMA tokens too)', async () => {
    for (const typ of ['at+jwt', 'application/at+JWT', 'uma-rpt+jwt']) {
      await needsInfo(async () => decodeIdToken(await idToken({}, { typ }), NOW), /access token, not an ID token/)
    }
  })
  test('yields the sid of a token that names one', async () => {
    expect((await verifyIdToken(await facts(await idToken({ sid: 's-1' })))).sid).toBe('s-1')
  })
  test('step 8: the WebID profile cannot be read', async () => {
    await needsInfo(
      async () =>
        verifyIdToken(
          await facts(await idToken(), {
            getWebIdIssuers: async () => {
              throw new HttpError(502, 'fetch_failed', 'timed out after 5000 ms')
            },
          }),
        ),
      /could not be read: timed out/,
    )
  })
  test('steps 10–11: the issuer keys cannot be read', async () => {
    await needsInfo(
      async () =>
        verifyIdToken(
          await facts(await idToken(), {
            getIssuerKeys: async () => {
              throw new HttpError(502, 'fetch_failed', 'connection refused')
            },
          }),
        ),
      /keys of issuer .* could not be read: connection refused/,
    )
  })
})
