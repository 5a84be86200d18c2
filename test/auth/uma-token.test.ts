import { beforeAll, describe, expect, test } from 'bun:test'
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JSONWebKeySet } from 'jose'
import { isUmaAccessToken, UMA_TOKEN_TYP, verifyUmaAccessToken } from '../../src/auth/uma-token.ts'
import { signUmaAccessToken } from '../../src/as/uma-access-token.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import type { SigningKey } from '../../src/account/signing-keys.ts'
import { HttpError } from '../../src/http/errors.ts'

const NOW = 1_800_000_000_000
const ISS = 'https://pod.example'
const PERMS = [{ resource: `${ISS}/shared/doc`, modes: ['read'] }]
let key: SigningKey
let jwks: JSONWebKeySet

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true })
  key = { kid: 'k1', alg: 'ES256', privateKey: pair.privateKey as CryptoKey }
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] }
})

const sign = (now = NOW) =>
  signUmaAccessToken(key, {
    issuer: ISS,
    webid: 'https://bob.example/#me' as WebId,
    clientId: 'https://app.example/id' as ClientId,
    webidIssuer: 'https://idp.example',
    permissions: PERMS,
    jkt: 'jkt-1',
    now,
  })

/** Re-signs the token's claims with changes, under our key and typ. */
async function resign(changes: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const claims = { ...JSON.parse(Buffer.from((await sign()).split('.')[1]!, 'base64url').toString()), ...changes }
  return new CompactSign(Buffer.from(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: UMA_TOKEN_TYP, ...header })
    .sign(key.privateKey)
}

async function refuses(token: string, description: RegExp) {
  const err = await verifyUmaAccessToken({ token, issuer: ISS, keys: jwks, now: NOW }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  expect({ status: (err as HttpError).status, code: (err as HttpError).code }).toEqual({ status: 401, code: 'invalid_token' })
  expect((err as HttpError).description).toMatch(description)
}

describe('UMA access tokens (RFC 8725 §3.11 explicit typing, UMA Grant §3.3.5)', () => {
  test("round-trip: webid, app, the ID token's issuer, key binding, permissions and expiry", async () => {
    const t = await sign()
    expect(isUmaAccessToken(t)).toBe(true)
    expect(await verifyUmaAccessToken({ token: t, issuer: ISS, keys: jwks, now: NOW })).toEqual({
      webid: 'https://bob.example/#me' as WebId,
      clientId: 'https://app.example/id' as ClientId,
      webidIssuer: 'https://idp.example',
      jkt: 'jkt-1',
      permissions: PERMS,
      exp: NOW / 1000 + 300,
    })
  })
  test('a token without webid_iss (issued before the claim) verifies, with no issuer to meet an acl:IssuerCondition', async () => {
    expect((await verifyUmaAccessToken({ token: await resign({ webid_iss: undefined }), issuer: ISS, keys: jwks, now: NOW })).webidIssuer).toBeUndefined()
  })
  test('an OP access token (typ at+jwt) is not routed as a UMA token', async () => {
    expect(isUmaAccessToken(await resign({}, { typ: 'at+jwt' }))).toBe(false)
    expect(isUmaAccessToken('not.a.jwt')).toBe(false)
  })
  test.each([
    ['another issuer', { iss: 'https://evil.example' }, /issued by/],
    ['another audience', { aud: 'https://evil.example' }, /audience/],
    ['expired', { exp: NOW / 1000 - 60 }, /expired/],
    ['no sub', { sub: undefined }, /no sub/],
    ['no cnf', { cnf: undefined }, /cnf\.jkt/],
    ['no permissions', { permissions: [] }, /permissions/],
    ['a malformed webid_iss', { webid_iss: 42 }, /malformed webid_iss/],
    ['an empty webid_iss', { webid_iss: '' }, /malformed webid_iss/],
    ['an unknown mode', { permissions: [{ resource_id: `${ISS}/x`, resource_scopes: ['delete'] }] }, /malformed permission/],
  ] as const)('refuses %s', async (_what, changes, description) => {
    await refuses(await resign(changes), description)
  })
  test('refuses a token our keys did not sign', async () => {
    const other = await generateKeyPair('ES256')
    const t = await sign()
    const forged = await new CompactSign(Buffer.from(t.split('.')[1]!, 'base64url'))
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: UMA_TOKEN_TYP })
      .sign(other.privateKey)
    await refuses(forged, /signature/)
  })
})
