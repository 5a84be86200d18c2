// RFC 6749 §4.4 at the token endpoint: the owner's client credentials trade their secret and a DPoP proof for
// an access token acting as the owner, limited to their folders, refused once the credential is removed.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { BASE, T0, WEBID, dpopProof, newDpopKey, tokenRequest, withToken, type DpopKey, type TestPod, openTestPod } from './op-fixture.ts'
import { addClientCredential, getClientCredential, listClientCredentials, removeClientCredential } from '../../src/account/client-credentials.ts'
import { parseFolderScopes } from '../../src/policy/app-scope.ts'
import { REVOCATION_MEMORY_MS } from '../../src/account/app-sessions.ts'
import { ACCESS_TOKEN_TTL_S } from '../../src/op/model.ts'

let pod: TestPod
let key: DpopKey
/** Full access as the owner; and one limited to read and write /photos/ and read /notes/. */
let full: { id: string; secret: string }
let photos: { id: string; secret: string }

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`
const credentialsGrant = (c: { id: string; secret: string }, more: Record<string, string> = {}) =>
  tokenRequest(pod, { key, fields: { grant_type: 'client_credentials', ...more }, authorization: basic(c.id, c.secret) })
async function tokenOf(c: { id: string; secret: string }): Promise<string> {
  const res = await credentialsGrant(c)
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`)
  return (await res.json()).access_token
}
async function expectError(res: Response, status: number, error: string) {
  const body = await res.json()
  expect({ status: res.status, error: body.error }).toEqual({ status, error })
  return body
}

beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
  const made = await addClientCredential(pod.deps, 'Full access', undefined, pod.clock.now)
  full = { id: made.credential.clientId, secret: made.secret }
  const folders = parseFolderScopes(
    [
      { path: '/photos/', right: 'write' },
      { path: '/notes/', right: 'read' },
    ],
    BASE,
  )
  const limited = await addClientCredential(pod.deps, 'Photo backup', folders, pod.clock.now)
  photos = { id: limited.credential.clientId, secret: limited.secret }
  const token = await tokenOf(full)
  const put = await withToken(pod, key, token, 'PUT', '/private/diary.ttl', {}, { 'content-type': 'text/turtle' })
  expect(put.status).toBe(201)
})
afterAll(() => pod.close())

describe('RFC 6749 §4.4.3: the access token response', () => {
  test('a DPoP token with expires_in and scope webid; no refresh token and no ID token', async () => {
    const res = await credentialsGrant(photos)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.json()
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type'])
    expect(body).toMatchObject({ token_type: 'DPoP', expires_in: ACCESS_TOKEN_TTL_S, scope: 'webid' })
  })

  test("the access token acts as the owner's WebID for the credential's client id, bound to the proof key (Solid-OIDC §8)", async () => {
    const claims = decodeJwt(await tokenOf(photos))
    expect(claims).toMatchObject({ iss: BASE, webid: WEBID, sub: WEBID, client_id: photos.id, azp: photos.id, cnf: { jkt: key.jkt } })
    expect(claims.aud).toEqual(['solid', photos.id])
    expect(typeof claims.sid).toBe('string')
  })

  test('issuing a token is using the credential: lastUsedAt is the time of the last token', async () => {
    pod.clock.now = T0 + 1000
    await tokenOf(photos)
    expect((await getClientCredential(pod.store, photos.id, pod.clock.now))?.lastUsedAt).toBe(T0 + 1000)
    pod.clock.now = T0
  })

  test('the secret is stored only as its hash', async () => {
    const stored = JSON.stringify(await getClientCredential(pod.store, photos.id, pod.clock.now))
    expect(stored).not.toContain(photos.secret)
    expect(JSON.stringify(await listClientCredentials(pod.deps, pod.clock.now))).not.toContain('secretHash')
  })
})

describe("the token reaches what the credential's folders allow, as the owner", () => {
  test('reads and writes inside its folder', async () => {
    const token = await tokenOf(photos)
    expect((await withToken(pod, key, token, 'PUT', '/photos/cat.txt', {}, { 'content-type': 'text/plain' })).status).toBe(201)
    expect((await withToken(pod, key, token, 'GET', '/photos/cat.txt')).status).toBe(200)
  })

  test('reads, and may not write, a folder given to read only: 403 outside_app_scope', async () => {
    const token = await tokenOf(photos)
    expect((await withToken(pod, key, token, 'GET', '/notes/')).status).toBe(200)
    const res = await withToken(pod, key, token, 'PUT', '/notes/new.txt', {}, { 'content-type': 'text/plain', accept: 'application/problem+json' })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('outside_app_scope')
  })

  test("a document of the owner's outside its folders: 403 outside_app_scope", async () => {
    const res = await withToken(pod, key, await tokenOf(photos), 'GET', '/private/diary.ttl', {}, { accept: 'application/problem+json' })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('outside_app_scope')
  })

  test('a credential without folders has full access as the owner', async () => {
    expect((await withToken(pod, key, await tokenOf(full), 'GET', '/private/diary.ttl')).status).toBe(200)
  })
})

describe('RFC 6749 §5.2: refusals at the token endpoint', () => {
  test('a wrong secret: 401 invalid_client with a Basic challenge', async () => {
    const res = await credentialsGrant({ id: photos.id, secret: 'not-the-secret' })
    expect(res.headers.get('www-authenticate')).toContain('Basic')
    const body = await expectError(res, 401, 'invalid_client')
    expect(JSON.stringify(body)).not.toContain(photos.secret)
  })

  test('an unknown credential id: 401 invalid_client', async () => {
    await expectError(await credentialsGrant({ id: 'script-AAAAAAAAAAAAAAAAAAAAAA', secret: photos.secret }), 401, 'invalid_client')
  })

  test('the secret in the body (client_secret_post): 401 invalid_client, naming Basic', async () => {
    const res = await tokenRequest(pod, { key, fields: { grant_type: 'client_credentials', client_id: photos.id, client_secret: photos.secret } })
    expect((await expectError(res, 401, 'invalid_client')).error_description).toContain('HTTP Basic')
  })

  test('the credential id without its secret: 401 invalid_client', async () => {
    await expectError(await tokenRequest(pod, { key, fields: { grant_type: 'client_credentials', client_id: photos.id } }), 401, 'invalid_client')
  })

  test('no DPoP proof: 400 invalid_dpop_proof (every token of this pod is DPoP-bound, RFC 9449 §5)', async () => {
    const res = await pod.request('/.oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(photos.id, photos.secret) },
      body: 'grant_type=client_credentials',
    })
    await expectError(res, 400, 'invalid_dpop_proof')
  })

  test('a registered (dynamic) client asking for client_credentials: 400 unauthorized_client', async () => {
    const reg = await pod.request('/.oidc/reg', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://bot.example/cb'], client_name: 'Bot' }),
    })
    expect(reg.status).toBe(201)
    const { client_id, client_secret } = await reg.json()
    await expectError(await credentialsGrant({ id: client_id, secret: client_secret }), 400, 'unauthorized_client')
  })

  test('a client credential redeeming a code or refresh token: 400 unauthorized_client', async () => {
    await expectError(
      await credentialsGrant(photos, { grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://x.example/' }),
      400,
      'unauthorized_client',
    )
    await expectError(await credentialsGrant(photos, { grant_type: 'refresh_token', refresh_token: 'x' }), 400, 'unauthorized_client')
  })
})

describe('RFC 9449 §7.2: the token is DPoP-bound', () => {
  test('sent as Bearer: 401 invalid_token', async () => {
    const res = await pod.request('/photos/', { headers: { authorization: `Bearer ${await tokenOf(photos)}` } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  test('with a proof of another key: 401 invalid_token', async () => {
    const token = await tokenOf(photos)
    const other = await newDpopKey()
    const res = await pod.request('/photos/', {
      headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(other, 'GET', `${BASE}/photos/`, pod.clock.now, { accessToken: token }) },
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })
})

describe('removing a credential', () => {
  test('its unexpired token is refused on the next request (401 invalid_token), it gets no new one, and its folder limit goes', async () => {
    const made = await addClientCredential(pod.deps, 'Short-lived', parseFolderScopes([{ path: '/photos/', right: 'read' }], BASE), pod.clock.now)
    const c = { id: made.credential.clientId, secret: made.secret }
    const token = await tokenOf(c)
    expect((await withToken(pod, key, token, 'GET', '/photos/')).status).toBe(200)
    expect(await removeClientCredential(pod.deps, c.id, pod.clock.now)).toBe(true)
    // within the token's lifetime, and after the verification cache would have kept it
    pod.clock.now = T0 + (ACCESS_TOKEN_TTL_S - 10) * 1000
    expect(ACCESS_TOKEN_TTL_S * 1000).toBeLessThan(REVOCATION_MEMORY_MS)
    const res = await withToken(pod, key, token, 'GET', '/photos/')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
    await expectError(await credentialsGrant(c), 401, 'invalid_client')
    expect(await pod.deps.appScopes.foldersOf(c.id)).toBeUndefined()
    expect(await removeClientCredential(pod.deps, c.id, pod.clock.now)).toBe(false)
    pod.clock.now = T0
  })
})
