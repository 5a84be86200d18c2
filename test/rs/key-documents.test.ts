// HttpSig key documents as pod resources: refused private or unusable keys, the DID/JWS-2020 JSON-LD shape, round trips.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, BASE, type Pod } from './pod-fixture.ts'
import { keyDocument, makeKey } from '../auth/httpsig/key-fixture.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(async () => {
  await pod.close()
})

const OWNER = `${BASE}/profile/card#me`
const EC = { kty: 'EC', crv: 'P-256', x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA', y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0' }
const putTurtle = (path: string, body: string) => pod.request(path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
const putJsonLd = (path: string, body: string) => pod.request(path, { method: 'PUT', headers: { 'content-type': 'application/ld+json' }, body })
const get = (path: string, accept: string) => pod.request(path, { headers: { accept } })

describe('key documents: refused with 400 naming the member', () => {
  const rsa1024 = makeKey('rsa-v1_5-sha256') // 2048 bits; shortened below
  test.each([
    ...['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].map(m => [`private member ${m}`, { ...EC, [m]: 'AAAA' }, `private member "${m}"`] as const),
    ['an unknown kty', { ...EC, kty: 'oct' }, 'member "kty"'],
    ['an unknown crv', { ...EC, crv: 'P-521' }, 'member "crv"'],
    ['a crv named like an object property', { ...EC, crv: 'toString' }, 'member "crv"'],
    ['X25519 (not a signing curve)', { kty: 'OKP', crv: 'X25519', x: EC.x }, 'member "crv"'],
    ['malformed base64url', { ...EC, x: 'qIVYZVLCrPZHGHjP17CTW0/+D9Lfw0EkjqF7xB4FivA=' }, 'member "x" must be base64url'],
    ['a coordinate of the wrong length', { ...EC, y: 'AAAA' }, 'member "y" must be 32 bytes'],
    ['an RSA key under 2048 bits', { kty: 'RSA', e: 'AQAB', n: (rsa1024.publicJwk.n as string).slice(0, 171) }, 'at least 2048'],
    ['use other than sig', { ...EC, use: 'enc' }, 'member "use"'],
    ['an alg that does not fit the key', { ...EC, alg: 'EdDSA' }, 'member "alg"'],
    ['a point not on the curve', { ...EC, y: EC.x }, 'not on the curve'],
  ])('%s', async (_what, jwk, reason) => {
    const res = await putTurtle('/pub/bad-key', keyDocument(jwk, OWNER))
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toStartWith('invalid_key: ')
    expect(body).toContain(reason)
    expect((await get('/pub/bad-key', 'text/turtle')).status).toBe(404) // nothing was stored
  })
  test('publicKeyJwk as a plain string literal', async () => {
    const res = await putTurtle('/pub/bad-key', `<#key> <https://w3id.org/security#publicKeyJwk> "${JSON.stringify(EC).replace(/"/g, '\\"')}".`)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('rdf:JSON literal')
  })
  test('a private key in JSON-LD is refused too', async () => {
    const res = await putJsonLd(
      '/pub/bad-key',
      JSON.stringify({
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
        id: '#key',
        type: 'JsonWebKey2020',
        controller: OWNER,
        publicKeyJwk: { ...EC, d: 'UpuF81l-kOxbjf7T4mNSv0r5tN67Gim7rnf6EFpcYDs' },
      }),
    )
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toContain('private member "d"')
    expect(body).not.toContain('UpuF81l')
  })
  test('a PATCH adding a private member is refused', async () => {
    expect((await putTurtle('/pub/patched-key', keyDocument(EC, OWNER))).status).toBe(201)
    const res = await pod.request('/pub/patched-key', {
      method: 'PATCH',
      headers: { 'content-type': 'text/n3' },
      body: `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#k2> <https://w3id.org/security#publicKeyJwk> ${JSON.stringify(JSON.stringify({ ...EC, d: 'AAAA' }))}^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> }.`,
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('private member "d"')
  })
})

describe('key documents: JSON-LD and Turtle by content negotiation', () => {
  test('GET as JSON-LD has the DID v1 + JWS-2020 shape', async () => {
    const jwk = { ...EC, alg: 'ES256', use: 'sig' }
    expect((await putTurtle('/pub/k1', keyDocument(jwk, OWNER))).status).toBe(201)
    const res = await get('/pub/k1', 'application/ld+json')
    expect(res.headers.get('content-type')).toStartWith('application/ld+json')
    expect(await res.json()).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: '#key',
      type: 'JsonWebKey2020',
      controller: '../profile/card#me',
      publicKeyJwk: { alg: 'ES256', crv: 'P-256', kty: 'EC', use: 'sig', x: EC.x, y: EC.y },
    })
  })
  test('GET as Turtle: sec:JsonWebKey2020, sec:controller, sec:publicKeyJwk as rdf:JSON', async () => {
    const ttl = await (await get('/pub/k1', 'text/turtle')).text()
    expect(ttl).toContain('JsonWebKey2020')
    expect(ttl).toContain('@prefix sec: <https://w3id.org/security#>')
    expect(ttl).toContain('sec:controller <../profile/card#me>')
    expect(ttl).toMatch(/"\{\\"alg\\":\\"ES256\\",\\"crv\\":\\"P-256\\".*\}"\^\^rdf:JSON/)
  })
  test('Turtle → JSON-LD → Turtle reads back identical', async () => {
    const turtle1 = await (await get('/pub/k1', 'text/turtle')).text()
    const jsonld = await (await get('/pub/k1', 'application/ld+json')).text()
    expect((await putJsonLd('/pub/k1', jsonld)).status).toBe(204)
    expect(await (await get('/pub/k1', 'text/turtle')).text()).toBe(turtle1)
  })
  test('JSON-LD → Turtle → JSON-LD reads back identical', async () => {
    const doc = {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: '#key',
      type: 'JsonWebKey2020',
      controller: OWNER,
      publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' },
    }
    expect((await putJsonLd('/pub/k2', JSON.stringify(doc))).status).toBe(201)
    const jsonld1 = await (await get('/pub/k2', 'application/ld+json')).text()
    const turtle = await (await get('/pub/k2', 'text/turtle')).text()
    expect((await putTurtle('/pub/k2', turtle)).status).toBe(204)
    expect(await (await get('/pub/k2', 'application/ld+json')).text()).toBe(jsonld1)
    expect(JSON.parse(jsonld1).publicKeyJwk).toEqual(doc.publicKeyJwk)
  })
})
