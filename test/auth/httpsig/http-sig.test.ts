// The HttpSig scheme at the resource server, in process with a controlled clock; signatures from an independent library.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, seedTurtle, BASE, type Pod } from '../../rs/pod-fixture.ts'
import { deleteResource } from '../../../src/store/resources.ts'
import { contentDigestOf, signedHeaders, type SignOptions } from './sign-request.ts'
import { ACL_PREFIXES, keyDocument, makeKey, readAcl, type TestKey } from './key-fixture.ts'
import { publicAcl } from '../../e2e/seed-store.ts'

const OWNER = `${BASE}/profile/card#me`
const DOC = '/shared/doc'
const KEY_URL = `${BASE}/keys/alice#key`
const ACCEPT_SIGNATURE = 'sig1=("@method" "@target-uri" "authorization");created;nonce'
const ACCEPT_SIGNATURE_WITH_CONTENT = 'sig1=("@method" "@target-uri" "authorization" "content-digest");created;nonce'
const WRITABLE = '/writable/'

let clock = Date.now()
let pod: Pod
const p256 = makeKey('ecdsa-p256-sha256')
const ALGS = ['ecdsa-p256-sha256', 'ecdsa-p384-sha384', 'ed25519', 'rsa-pss-sha512', 'rsa-v1_5-sha256'] as const
const byAlg = new Map<string, TestKey>(ALGS.map(a => [a, a === 'ecdsa-p256-sha256' ? p256 : makeKey(a)]))

beforeAll(async () => {
  pod = await openPod({ now: () => clock })
  await seedTurtle(pod.store, BASE, '/keys/alice', keyDocument(p256.publicJwk, OWNER))
  for (const alg of ALGS) await seedTurtle(pod.store, BASE, `/keys/${alg}`, keyDocument(byAlg.get(alg)!.publicJwk, OWNER))
  await seedTurtle(pod.store, BASE, '/keys/rsa-pss-only', keyDocument({ ...byAlg.get('rsa-pss-sha512')!.publicJwk, alg: 'PS512' }, OWNER))
  await seedTurtle(pod.store, BASE, DOC, '<#it> <http://purl.org/dc/terms/title> "shared".')
  const subjects = ['/keys/alice#key', ...ALGS.map(a => `/keys/${a}#key`), '/keys/rsa-pss-only#key'].map(k => `[ cert:key <${k}> ]`).join(', ')
  await seedTurtle(pod.store, BASE, `${DOC}.acl`, readAcl(`${BASE}${DOC}`, `acl:agent ${subjects}`))
  await seedTurtle(pod.store, BASE, '/creds/vc', `<#it> a <https://www.w3.org/2018/credentials#VerifiableCredential>.`)
  await seedTurtle(pod.store, BASE, '/creds/.acl', publicAcl(`${BASE}/creds/`, ['Read']))
  // Outside /keys/ and /creds/: the root ACL applies, only the owner may read these
  await seedTurtle(pod.store, BASE, '/private/key', keyDocument(p256.publicJwk, OWNER))
  await seedTurtle(
    pod.store,
    BASE,
    `${WRITABLE}.acl`,
    `${ACL_PREFIXES}
<#w> a acl:Authorization; acl:accessTo <${BASE}${WRITABLE}>; acl:default <${BASE}${WRITABLE}>; acl:mode acl:Read, acl:Write; acl:agent [ cert:key </keys/alice#key> ].`,
  )
  await seedTurtle(
    pod.store,
    BASE,
    '/private/bad-key',
    `<#key> a <https://w3id.org/security#JsonWebKey2020>; <https://w3id.org/security#publicKeyJwk> "not json".`,
  )
})
afterAll(async () => {
  await pod.close()
})

const nowS = () => Math.floor(clock / 1000)
const sign = (path: string, o: Partial<SignOptions> = {}) =>
  signedHeaders(`${BASE}${path}`, { key: p256.privateKey, alg: 'ecdsa-p256-sha256', keyid: KEY_URL, created: nowS(), ...o })
const signedGet = async (path: string, o: Partial<SignOptions> = {}) => pod.request(path, { headers: await sign(path, o) })

async function expect401(res: Response, reason: string, realm = DOC, acceptSignature = ACCEPT_SIGNATURE) {
  expect(res.status).toBe(401)
  const challenge = res.headers.get('www-authenticate')!
  // every RS 401 leads with a fresh UMA ticket; the HttpSig challenge says what was wrong with the signature
  expect(challenge).toContain(`HttpSig realm="${realm}", error="invalid_signature", error_description="`)
  expect(challenge).toContain(reason)
  expect(res.headers.get('accept-signature')).toBe(acceptSignature)
  expect(res.headers.get('link')).toContain(`<${BASE}${realm}.acl>; rel="acl"`)
  const body = await res.text()
  expect(body).toStartWith('invalid_signature: ')
  expect(body).toContain(reason)
}

describe('HttpSig steps 3–7: a verified signature is a principal holding the key', () => {
  test('a signed GET by a key the ACL names (relative keyid on this pod) → 200', async () => {
    const res = await signedGet(DOC, { keyid: '/keys/alice#key' })
    expect(res.status).toBe(200)
    expect(res.headers.get('wac-allow')).toBe('user="read",public=""')
  })
  test.each(ALGS)('RFC 9421 §3.3: %s verifies', async alg => {
    const key = byAlg.get(alg)!
    const rsa = alg.startsWith('rsa')
    const res = await signedGet(DOC, { key: key.privateKey, alg, keyid: `/keys/${alg}#key`, ...(rsa ? { params: ['created', 'nonce', 'keyid', 'alg'] } : {}) })
    expect(res.status).toBe(200)
  })
  test('an RSA key whose JWK names its alg needs no alg parameter', async () => {
    expect((await signedGet(DOC, { key: byAlg.get('rsa-pss-sha512')!.privateKey, alg: 'rsa-pss-sha512', keyid: '/keys/rsa-pss-only#key' })).status).toBe(200)
  })
  test('an RSA key without alg in the JWK or the signature → 401', async () => {
    const key = byAlg.get('rsa-pss-sha512')!
    await expect401(await signedGet(DOC, { key: key.privateKey, alg: 'rsa-pss-sha512', keyid: '/keys/rsa-pss-sha512#key' }), 'name one with the alg parameter')
  })
  test('RFC 9421 §3.2 step 6: an alg parameter that does not match the key → 401', async () => {
    await expect401(await signedGet(DOC, { params: ['created', 'nonce', 'keyid', 'alg'], alg: 'ecdsa-p384-sha384' }), 'does not match the key')
  })
})

describe('HttpSig step 3: required components and parameters', () => {
  test.each([
    ['authorization', ['@method', '@target-uri'], 'authorization'],
    ['@target-uri', ['@method', 'authorization'], '@target-uri'],
    ['@method', ['@target-uri', 'authorization'], '@method'],
  ])('a signature not covering %s → 401', async (_c, fields, reason) => {
    await expect401(await signedGet(DOC, { fields }), `must cover ${reason}`)
  })
  test('no nonce → 401', async () => {
    await expect401(await signedGet(DOC, { nonce: null }), 'needs a nonce')
  })
  test('created more than 60 s old → 401; 59 s old → 200', async () => {
    await expect401(await signedGet(DOC, { created: nowS() - 61 }), 'more than 60 s in the past')
    expect((await signedGet(DOC, { created: nowS() - 59 })).status).toBe(200)
  })
  test('created more than 5 s ahead → 401; 4 s ahead → 200', async () => {
    await expect401(await signedGet(DOC, { created: nowS() + 6 }), 'more than 5 s in the future')
    expect((await signedGet(DOC, { created: nowS() + 4 })).status).toBe(200)
  })
  test('expires in the past → 401', async () => {
    await expect401(await signedGet(DOC, { created: nowS() - 10, expires: nowS() - 1 }), 'has expired')
  })
  test('no Signature-Input member for the proof label → 401', async () => {
    const headers = await sign(DOC, { authorization: 'HttpSig proof=sig2' })
    await expect401(await pod.request(DOC, { headers }), 'has no member sig2')
  })
  test('no proof parameter → 401', async () => {
    await expect401(await signedGet(DOC, { authorization: 'HttpSig cred="<x>"' }), 'needs proof=')
  })
})

describe('tampering and replay', () => {
  test('the same signed headers on another method → 401', async () => {
    const headers = await sign(DOC)
    await expect401(await pod.request(DOC, { method: 'HEAD', headers }), 'does not verify')
  })
  test('on another path → 401', async () => {
    const headers = await sign('/shared/other')
    await expect401(await pod.request(DOC, { headers }), 'does not verify')
  })
  test('with another query → 401 (@target-uri covers it)', async () => {
    const headers = await sign(DOC)
    await expect401(await pod.request(`${DOC}?x=1`, { headers }), 'does not verify')
  })
  test('with a changed Authorization header → 401', async () => {
    const headers = await sign(DOC)
    headers.authorization = `HttpSig proof=sig1, cred="<${OWNER}>"`
    await expect401(await pod.request(DOC, { headers }), 'does not verify')
  })
  test('with one changed signature byte → 401', async () => {
    const headers = await sign(DOC)
    const sig = headers.Signature!
    const i = 'sig1=:'.length + 5
    headers.Signature = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1)
    await expect401(await pod.request(DOC, { headers }), 'does not verify')
  })
  test('a replayed nonce → 401', async () => {
    const headers = await sign(DOC)
    expect((await pod.request(DOC, { headers })).status).toBe(200)
    await expect401(await pod.request(DOC, { headers }), 'nonce was already used')
  })
  test('the refusal never echoes the signature', async () => {
    const headers = await sign(DOC, { nonce: 'n-echo' })
    headers.Signature = headers.Signature!.replace(':', ':AA')
    const res = await pod.request(DOC, { headers })
    const sig = headers.Signature!.slice(6, 30)
    expect(await res.text()).not.toContain(sig)
    expect(res.headers.get('www-authenticate')).not.toContain(sig)
  })
})

describe('HttpSig step 4: keyid resolution', () => {
  test('a key document that does not exist → 401', async () => {
    await expect401(await signedGet(DOC, { keyid: '/keys/nobody#key' }), 'no such key')
  })
  test('a private resource and a missing one answer alike (no existence oracle)', async () => {
    const [a, b] = [await signedGet(DOC, { keyid: '/profile/card.acl#key' }), await signedGet(DOC, { keyid: '/nothing/here#key' })]
    const noTicket = (c: string) => c.replace(/ticket="[^"]*"/, 'ticket')
    expect(noTicket(a.headers.get('www-authenticate')!)).toBe(noTicket(b.headers.get('www-authenticate')!.replace('/nothing/here', '/profile/card.acl')))
  })
  // Issue 9 (4): a document the request names is read as the public would see it
  test.each(['/private/key#key', '/private/bad-key#key'])(
    'a key in a document the public cannot read (%s) is not used, and the refusal says nothing of it',
    async keyid => {
      const [a, b] = [await signedGet(DOC, { keyid }), await signedGet(DOC, { keyid: '/nothing/here#key' })]
      await expect401(a, 'no such key')
      const noTicket = (c: string) => c.replace(/ticket="[^"]*"/, 'ticket')
      expect(noTicket(a.headers.get('www-authenticate')!)).toBe(noTicket(b.headers.get('www-authenticate')!.replace('/nothing/here', keyid.split('#')[0]!)))
    },
  )
  test('a document without that key → 401', async () => {
    await expect401(await signedGet(DOC, { keyid: '/keys/alice#other' }), 'no such key')
  })
  test('did:jwt → 401 not supported', async () => {
    await expect401(await signedGet(DOC, { keyid: 'did:jwt:abc' }), 'did:jwt keyids are not supported')
  })
  test('another DID method → 401 not supported', async () => {
    await expect401(await signedGet(DOC, { keyid: 'did:web:example.com' }), 'is not supported')
  })
  test('clientUrl=true → 401 explaining the peer-to-peer extension', async () => {
    await expect401(await signedGet(DOC, { authorization: 'HttpSig proof=sig1, clientUrl=true' }), 'peer-to-peer extension')
  })
  test('a deleted (revoked) key stops verifying at once', async () => {
    await seedTurtle(pod.store, BASE, '/keys/temp', keyDocument(p256.publicJwk, OWNER))
    await seedTurtle(pod.store, BASE, '/shared/temp', '')
    await seedTurtle(pod.store, BASE, '/shared/temp.acl', readAcl(`${BASE}/shared/temp`, 'acl:agent [ cert:key </keys/temp#key> ]'))
    expect((await signedGet('/shared/temp', { keyid: '/keys/temp#key' })).status).toBe(200)
    await deleteResource(pod.store, BASE, '/keys/temp', clock)
    await expect401(await signedGet('/shared/temp', { keyid: '/keys/temp#key' }), 'no such key', '/shared/temp')
  })
  test('an edited key document takes effect at once', async () => {
    const other = makeKey('ecdsa-p256-sha256')
    await seedTurtle(pod.store, BASE, '/keys/rotating', keyDocument(p256.publicJwk, OWNER))
    await seedTurtle(pod.store, BASE, '/shared/rot', '')
    await seedTurtle(pod.store, BASE, '/shared/rot.acl', readAcl(`${BASE}/shared/rot`, 'acl:agent [ cert:key </keys/rotating#key> ]'))
    expect((await signedGet('/shared/rot', { keyid: '/keys/rotating#key' })).status).toBe(200)
    await seedTurtle(pod.store, BASE, '/keys/rotating', keyDocument(other.publicJwk, OWNER))
    await expect401(await signedGet('/shared/rot', { keyid: '/keys/rotating#key' }), 'does not verify', '/shared/rot')
    expect((await signedGet('/shared/rot', { key: other.privateKey, keyid: '/keys/rotating#key' })).status).toBe(200)
  })
})

describe('HttpSig steps 6–7: cred', () => {
  test('a key alone does not act as the owner: 403 on the owner-only root', async () => {
    expect((await signedGet('/')).status).toBe(403)
  })
  test('cred naming a WebID whose profile does not link the key → 401', async () => {
    await expect401(await signedGet('/', { cred: OWNER }), 'does not link the signing key', '/')
  })
  test("cred naming a WebID whose profile links the key (cert:key) → the WebID's rules apply", async () => {
    await seedTurtle(
      pod.store,
      BASE,
      '/profile/card',
      `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
<#me> solid:oidcIssuer <${BASE}>; <http://www.w3.org/ns/auth/cert#key> </keys/alice#key>.`,
    )
    const res = await signedGet('/', { cred: OWNER })
    expect(res.status).toBe(200)
    expect(res.headers.get('wac-allow')).toContain('user="read write append control"')
  })
  test('a verifiable credential → 401 not supported', async () => {
    await expect401(await signedGet(DOC, { cred: `${BASE}/creds/vc#it` }), 'verifiable credentials are not supported')
  })
  test('cred=">…<" (a document on the client) → 401 not supported', async () => {
    await expect401(await signedGet(DOC, { authorization: 'HttpSig proof=sig1, cred=">/cred<"' }), 'peer-to-peer extension')
  })
  test('a cred that is not a URL in angle brackets → 401', async () => {
    await expect401(await signedGet(DOC, { authorization: `HttpSig proof=sig1, cred="${OWNER}"` }), 'cred must be a URL in angle brackets')
  })
})

describe('RFC 9110 §11.4 Authorization auth-params', () => {
  test('a malformed credential → 400 invalid_request', async () => {
    const res = await pod.request(DOC, { headers: { authorization: 'HttpSig proof=sig1,, =x' } })
    expect(res.status).toBe(400)
    expect(await res.text()).toStartWith('invalid_request: ')
  })
  test('an empty Authorization header is anonymous', async () => {
    const res = await pod.request(DOC, { headers: { authorization: '' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('HttpSig realm="/shared/doc"')
  })
})

describe('RFC 9530: a signed request with content covers its Content-Digest', () => {
  const TURTLE = 'text/turtle'
  const write = async (method: string, path: string, body: string, o: Partial<SignOptions> = {}, contentType = TURTLE) =>
    pod.request(path, { method, body, headers: await sign(path, { method, body, headers: { 'content-type': contentType }, ...o }) })
  const readBack = async (path: string) => {
    const res = await signedGet(path, { keyid: '/keys/alice#key' })
    return { status: res.status, text: await res.text() }
  }
  const refused = (res: Response, reason: string, realm: string) => expect401(res, reason, realm, ACCEPT_SIGNATURE_WITH_CONTENT)

  // In process a Request has no Content-Length: the bytes are found when the body is read (as for a chunked body)
  test('PUT without content-digest covered → 401, nothing written', async () => {
    await refused(await write('PUT', '/writable/a', '<#a> <#b> "c".', { digest: null }), 'must send Content-Digest', '/writable/a')
    expect((await readBack('/writable/a')).status).toBe(404)
  })
  test('POST with a swapped body → 401, nothing created', async () => {
    const res = await write('POST', WRITABLE, '<#a> <#b> "evil".', { body: '<#a> <#b> "signed".', headers: { 'content-type': TURTLE, slug: 'posted' } })
    await refused(res, 'does not match the signed Content-Digest (sha-256)', WRITABLE)
    expect((await readBack('/writable/posted')).status).toBe(404)
  })
  test('PATCH with a swapped body → 401, the document unchanged', async () => {
    expect((await write('PUT', '/writable/p', '<#a> <#b> "before".')).status).toBe(201)
    const patch = (v: string) => `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#a> <#b> "${v}". }.`
    const res = await write('PATCH', '/writable/p', patch('evil'), { body: patch('signed') }, 'text/n3')
    await refused(res, 'does not match the signed Content-Digest', '/writable/p')
    expect((await readBack('/writable/p')).text).not.toContain('evil')
    expect((await write('PATCH', '/writable/p', patch('signed'), {}, 'text/n3')).status).toBeOneOf([200, 204, 205])
    expect((await readBack('/writable/p')).text).toContain('signed')
  })
  test('a Content-Digest covered with sha-512 only → the write happens', async () => {
    expect((await write('PUT', '/writable/s512', '<#a> <#b> "512".', { digest: 'sha-512' })).status).toBe(201)
  })
  test('an empty PUT covering the digest of the empty body → the write happens; of another body → 401', async () => {
    expect((await write('PUT', '/writable/empty', '', { body: '' })).status).toBe(201)
    await refused(await write('PUT', '/writable/empty2', '', { body: 'x' }), 'does not match', '/writable/empty2')
  })
  test('any method with Content-Length > 0 (here DELETE) must cover content-digest, refused before the key is read', async () => {
    const headers = await sign(DOC, { method: 'DELETE', digest: null, keyid: '/keys/nobody#key' })
    const res = await pod.request(DOC, { method: 'DELETE', body: 'x', headers: { ...headers, 'content-length': '1' } })
    await expect401(res, 'must send Content-Digest', DOC, ACCEPT_SIGNATURE_WITH_CONTENT)
  })
  test('the digest is checked against the bytes as sent, not as the pod would re-encode them', async () => {
    const body = '<#a> <#b> "caf\u00e9".\n\n'
    expect(contentDigestOf(body)).not.toBe(contentDigestOf(body.trim()))
    expect((await write('PUT', '/writable/bytes', body)).status).toBe(201)
  })
})
