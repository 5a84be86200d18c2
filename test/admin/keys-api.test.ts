// The owner's keys API as the dashboard calls it: publish a public JWK, list, revoke; and the verifier's view
// of each step (a request signed with npm http-message-signatures passes, then is refused once revoked).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { makeKey, readAcl } from '../auth/httpsig/key-fixture.ts'
import { signedHeaders } from '../auth/httpsig/sign-request.ts'
import { jwkThumbprint } from '../../src/lib/jwk-thumbprint.ts'

const BASE = 'http://localhost:4611'
const WEBID = `${BASE}/profile/card#me`
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  await pod.seed('/notes/n1', '<#it> <http://purl.org/dc/terms/title> "n1".')
})
afterAll(() => pod.close())

interface Listed {
  name: string
  keyUrl: string
  documentUrl: string
  thumbprint?: string
  linkedFromProfile: boolean
  problem?: string
}
const list = async () => ((await (await pod.api('GET', '/.admin/api/keys')).json()) as { keys: Listed[] }).keys
const create = (body: unknown) => pod.api('POST', '/.admin/api/keys', { body })
const profile = async () => (await pod.request('/profile/card', { headers: { accept: 'application/n-triples' } })).text()
/** Everything a refused request must leave as it was. */
const snapshot = async () => ({ keys: await list(), profile: await profile() })

describe('the keys API is for the owner only', () => {
  const routes: [string, string][] = [
    ['POST', '/.admin/api/keys'],
    ['GET', '/.admin/api/keys'],
    ['DELETE', '/.admin/api/keys/x'],
  ]
  const body = { name: 'x', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk }
  test.each(routes)('%s %s without a session cookie → 401 login_required', async (method, path) => {
    const res = await pod.api(method, path, { jar: new CookieJar(), ...(method === 'POST' ? { body } : {}) })
    expect(res.status).toBe(401)
    const out = await res.json()
    expect(out.error).toBe('login_required')
    expect(out.error_description).toStartWith('sign in as the owner first')
  })
  test.each(routes)('%s %s from another origin → 403 csrf_failed', async (method, path) => {
    const res = await pod.api(method, path, { origin: 'https://evil.example', ...(method === 'POST' ? { body } : {}) })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
  })
  test.each([
    ['no X-CSRF-Token', undefined],
    ['a wrong X-CSRF-Token', 'not-the-token'],
  ])('POST with %s → 403 csrf_failed, nothing written', async (_what, token) => {
    const before = await snapshot()
    const res = await pod.request('/.admin/api/keys', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { cookie: pod.owner.header(), 'content-type': 'application/json', ...(token ? { 'x-csrf-token': token } : {}) },
    })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
    expect(await snapshot()).toEqual(before)
    expect((await pod.request('/keys/x')).status).toBe(404)
  })
})

describe('publish, list, sign, revoke', () => {
  const key = makeKey('ecdsa-p256-sha256')
  const keyUrl = `${BASE}/keys/laptop#key`
  const sign = async (path: string) =>
    pod.request(BASE + path, { headers: await signedHeaders(BASE + path, { key: key.privateKey, alg: 'ecdsa-p256-sha256', keyid: keyUrl }) })

  test('POST → 201 with Location, the key URL and only the public JWK (WebCrypto extras dropped)', async () => {
    await pod.seed('/notes/n1.acl', readAcl(`${BASE}/notes/n1`, `acl:agent [ cert:key <${keyUrl}> ]`))
    expect((await sign('/notes/n1')).status).toBe(401) // no key document yet
    const res = await create({ name: 'laptop', publicJwk: { ...key.publicJwk, ext: true, key_ops: ['verify'] }, linkFromProfile: true })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(`${BASE}/keys/laptop`)
    const out = await res.json()
    expect(out).toEqual({
      name: 'laptop',
      keyUrl,
      documentUrl: `${BASE}/keys/laptop`,
      webid: WEBID,
      publicJwk: { kty: 'EC', crv: 'P-256', x: key.publicJwk.x, y: key.publicJwk.y, alg: 'ES256', use: 'sig' },
      linkedFromProfile: true,
      thumbprint: await jwkThumbprint(key.publicJwk as never),
    })
  })

  test('the key document is public, holds no private member, and the profile links it', async () => {
    const doc = await pod.request('/keys/laptop', { headers: { accept: 'application/ld+json' } })
    expect(doc.status).toBe(200)
    const text = await doc.text()
    expect(JSON.parse(text).publicKeyJwk).toMatchObject({ kty: 'EC', x: key.publicJwk.x })
    expect(text).not.toContain('"d"')
    expect(text).not.toContain('key_ops')
    expect(await profile()).toContain(`<${WEBID}> <http://www.w3.org/ns/auth/cert#key> <${keyUrl}> .`)
  })

  test('GET lists it with its URL, thumbprint and profile link', async () => {
    const keys = await list()
    expect(keys.find(k => k.name === 'laptop')).toMatchObject({
      keyUrl,
      documentUrl: `${BASE}/keys/laptop`,
      linkedFromProfile: true,
      thumbprint: await jwkThumbprint(key.publicJwk as never),
    })
  })

  test('a request signed with it gets what the ACL gives the key', async () => {
    const res = await sign('/notes/n1')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"n1"')
  })

  test('the same name again → 409 key_exists at /name, the first key unchanged', async () => {
    const before = await snapshot()
    const res = await create({ name: 'laptop', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk })
    expect(res.status).toBe(409)
    const body = await res.json()
    expect(body.error).toBe('key_exists')
    expect(body.violations).toEqual([{ pointer: '/name', expected: '/keys/laptop already exists; choose another name' }])
    expect(await snapshot()).toEqual(before)
    expect((await sign('/notes/n1')).status).toBe(200)
  })

  test('DELETE → 204: the document and the profile link are gone, and the same signed request is refused', async () => {
    const res = await pod.api('DELETE', '/.admin/api/keys/laptop')
    expect(res.status).toBe(204)
    expect((await pod.request('/keys/laptop')).status).toBe(404)
    expect(await profile()).not.toContain(keyUrl)
    expect((await list()).some(k => k.name === 'laptop')).toBe(false)
    const refused = await sign('/notes/n1')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toContain(
      'HttpSig realm="/notes/n1", error="invalid_signature", error_description="the key http://localhost:4611/keys/laptop#key cannot be used: no such key',
    )
  })

  test('DELETE of a key that is gone, or was never there → 404 not_found', async () => {
    for (const name of ['laptop', 'never', '..%2Fprofile%2Fcard']) {
      const res = await pod.api('DELETE', `/.admin/api/keys/${name}`)
      expect(res.status).toBe(404)
      expect((await res.json()).error).toBe('not_found')
    }
    expect((await pod.request('/profile/card')).status).toBe(200)
  })

  test('a key document the verifier cannot use is listed with the reason, and can be revoked', async () => {
    await pod.seed(
      '/keys/broken',
      `<#key> <https://w3id.org/security#publicKeyJwk> "{\\"kty\\":\\"EC\\",\\"crv\\":\\"P-521\\"}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON>.`,
    )
    const listed = (await list()).find(k => k.name === 'broken')
    expect(listed).toMatchObject({
      keyUrl: `${BASE}/keys/broken#key`,
      linkedFromProfile: false,
      problem: 'publicKeyJwk member "crv" must be one of P-256, P-384 for kty EC',
    })
    expect(listed?.thumbprint).toBeUndefined()
    expect((await pod.api('DELETE', '/.admin/api/keys/broken')).status).toBe(204)
    expect((await pod.request('/keys/broken')).status).toBe(404)
  })

  test('DELETE of a document in /keys/ that describes no key → 404, the document stays', async () => {
    await pod.seed('/keys/readme', '<#it> <http://purl.org/dc/terms/title> "not a key".')
    const res = await pod.api('DELETE', '/.admin/api/keys/readme')
    expect(res.status).toBe(404)
    expect((await pod.request('/keys/readme')).status).toBe(200)
  })

  test('DELETE without X-CSRF-Token → 403 csrf_failed, the key still verifies', async () => {
    const other = makeKey('ecdsa-p256-sha256')
    expect((await create({ name: 'phone', publicJwk: other.publicJwk })).status).toBe(201)
    const res = await pod.api('DELETE', '/.admin/api/keys/phone', { csrf: false })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
    expect((await pod.request('/keys/phone')).status).toBe(200)
  })

  test('without a name the key gets a dated one; without linkFromProfile the profile does not link it', async () => {
    const before = await profile()
    const res = await create({ publicJwk: makeKey('ed25519').publicJwk })
    expect(res.status).toBe(201)
    const out = await res.json()
    expect(out.name).toMatch(/^key-\d{8}-\d{4}-[0-9a-f]{4}$/)
    expect(out.linkedFromProfile).toBe(false)
    expect(await profile()).toBe(before)
    expect((await list()).find(k => k.name === out.name)?.linkedFromProfile).toBe(false)
  })

  test('a key not linked from the profile cannot act as the owner with cred="<WebID>"', async () => {
    const other = makeKey('ecdsa-p256-sha256')
    expect((await create({ name: 'unlinked', publicJwk: other.publicJwk })).status).toBe(201)
    const url = `${BASE}/notes/n1`
    const res = await pod.request(url, {
      headers: await signedHeaders(url, { key: other.privateKey, alg: 'ecdsa-p256-sha256', keyid: `${BASE}/keys/unlinked#key`, cred: WEBID }),
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain(`does not link the signing key ${BASE}/keys/unlinked#key with cert:key`)
  })
})

describe('bad input → a clear 4xx naming the member, and nothing changes', () => {
  const good = makeKey('ecdsa-p256-sha256').publicJwk
  const priv = makeKey('ecdsa-p256-sha256').privateKey.export({ format: 'jwk' }) as Record<string, unknown>
  test.each([
    ['not JSON', '{"name":', 400, 'invalid_request', ''],
    ['an array', [], 400, 'invalid_request', ''],
    ['a private JWK', { name: 'p1', publicJwk: priv }, 400, 'invalid_key', '/publicJwk'],
    ['the private key beside the public one', { name: 'p2', publicJwk: good, privateJwk: priv }, 400, 'invalid_request', '/privateJwk'],
    ['no publicJwk', { name: 'p3' }, 400, 'invalid_key', '/publicJwk'],
    ['a JWK of an unsupported type', { name: 'p4', publicJwk: { kty: 'oct', k: 'AAAA' } }, 400, 'invalid_key', '/publicJwk'],
    ['a point off the curve', { name: 'p5', publicJwk: { ...good, y: good.x } }, 400, 'invalid_key', '/publicJwk'],
    ['a name with a slash', { name: '../profile/card', publicJwk: good }, 400, 'invalid_key_name', '/name'],
    ['a hidden name', { name: '.acl', publicJwk: good }, 400, 'invalid_key_name', '/name'],
    ['a name that is not a string', { name: 7, publicJwk: good }, 400, 'invalid_key_name', '/name'],
    ['linkFromProfile that is not a boolean', { name: 'p7', publicJwk: good, linkFromProfile: 'yes' }, 400, 'invalid_request', '/linkFromProfile'],
  ] as const)('%s → %i %s at "%s"', async (_what, body, status, code, pointer) => {
    const before = await snapshot()
    const res = await pod.api('POST', '/.admin/api/keys', typeof body === 'string' ? { raw: body } : { body })
    expect(res.status).toBe(status)
    const text = await res.text()
    const out = JSON.parse(text)
    expect(out.error).toBe(code)
    expect(out.violations).toHaveLength(1)
    expect(out.violations[0].pointer).toBe(pointer)
    expect(out.error_description).toStartWith(`${pointer || '(body)'}: `)
    expect(text).not.toContain(String(priv.d)) // a private key sent by mistake is never echoed
    expect(await snapshot()).toEqual(before)
  })
  test('the private member is named in the message', async () => {
    const out = await (await create({ name: 'p6', publicJwk: priv })).json()
    expect(out.error_description).toBe('/publicJwk: publicKeyJwk must not contain the private member "d": publish only the public key')
  })
  test('not application/json → 415 unsupported_media_type', async () => {
    const res = await pod.api('POST', '/.admin/api/keys', { raw: JSON.stringify({ publicJwk: good }), type: 'text/plain' })
    expect(res.status).toBe(415)
    expect((await res.json()).error).toBe('unsupported_media_type')
  })
  test('more than 16 KiB → 413 payload_too_large', async () => {
    const res = await create({ name: 'big', publicJwk: { ...good, pad: 'x'.repeat(17 * 1024) } })
    expect(res.status).toBe(413)
    expect((await res.json()).error).toBe('payload_too_large')
  })
})
