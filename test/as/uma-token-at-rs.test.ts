import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CompactSign, decodeJwt, generateKeyPair } from 'jose'
import { CookieJar, dpopProof, newDpopKey, obtainTokens, withToken } from '../op/op-fixture.ts'
import { BASE, bobIdToken, bobToken, exchange, openUmaPod, OTHER_SHARED, SHARED, ticketFor, type UmaPod } from './uma-fixture.ts'

let u: UmaPod
let token: string
beforeAll(async () => {
  u = await openUmaPod()
  token = await bobToken(u)
})
afterAll(() => u.pod.close())

const bearer = (t: string, path = SHARED, init: RequestInit = {}) =>
  u.pod.request(path, { ...init, headers: { authorization: `Bearer ${t}`, ...(init.headers as Record<string, string>) } })

/** Status, the code in the RS's plain-text body, and the challenges. */
async function rsRefusal(res: Response, status: number, code: string): Promise<string> {
  expect({ status: res.status, code: (await res.text()).split(':', 1)[0] }).toEqual({ status, code })
  return res.headers.get('www-authenticate') ?? ''
}

const UMA = new RegExp(`^UMA realm="${BASE}", as_uri="${BASE}", ticket="[\\w-]+\\.[\\w-]{22}"`)

describe('UMA Grant §3.3.5 / RFC 6750: the access token at the resource server (E10)', () => {
  test('opens its resource as Bearer', async () => {
    const res = await bearer(token)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(SHARED)
    expect(res.headers.get('wac-allow')).toBe('user="read",public=""')
  })
  test("opens it as DPoP with a proof of the token's key", async () => {
    expect((await withToken(u.pod, u.bobKey, token, 'GET', SHARED)).status).toBe(200)
  })
  test('as Bearer with a matching DPoP proof', async () => {
    const proof = await dpopProof(u.bobKey, 'GET', BASE + SHARED, u.pod.clock.now, { accessToken: token })
    expect((await bearer(token, SHARED, { headers: { dpop: proof } })).status).toBe(200)
  })
  test('never opens another resource, even one its WebID may read: 403 insufficient_scope with a ticket for it', async () => {
    const challenge = await rsRefusal(await bearer(token, OTHER_SHARED), 403, 'insufficient_scope')
    expect(challenge).toMatch(UMA)
    expect(challenge).toContain('Bearer error="insufficient_scope"')
  })
  test('never another mode: POST to the container with a Read token is 403 insufficient_scope', async () => {
    await rsRefusal(
      await bearer(token, '/shared/', { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: '<#a> <#b> <#c>.' }),
      403,
      'insufficient_scope',
    )
  })
  test('a token for Append on the container lets Bob POST there', async () => {
    const append = await bobToken(u, '/shared/', 'POST')
    const res = await bearer(append, '/shared/', { method: 'POST', headers: { 'content-type': 'text/turtle', slug: 'from-bob' }, body: '<#a> <#b> <#c>.' })
    expect(res.status).toBe(201)
  })
  test('after expiry: 401 invalid_token, with the Bearer error and a fresh UMA ticket', async () => {
    const t = await bobToken(u)
    u.pod.clock.now += 6 * 60_000
    try {
      const challenge = await rsRefusal(await bearer(t), 401, 'invalid_token')
      expect(challenge).toMatch(UMA)
      expect(challenge).toContain('Bearer error="invalid_token"')
    } finally {
      u.pod.clock.now -= 6 * 60_000
    }
  })
  test('with a forged signature: 401 invalid_token', async () => {
    const [h, p] = token.split('.')
    const claims = { ...decodeJwt(token), permissions: [{ resource_id: BASE + OTHER_SHARED, resource_scopes: ['read', 'write'] }] }
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${token.split('.')[2]}`
    expect(p).not.toBe(forged.split('.')[1])
    await rsRefusal(await bearer(forged, OTHER_SHARED), 401, 'invalid_token')
  })
  test('signed by another key under our kid and typ: 401 invalid_token', async () => {
    const other = (await generateKeyPair('ES256')).privateKey
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())
    const forged = await new CompactSign(Buffer.from(token.split('.')[1]!, 'base64url')).setProtectedHeader(header).sign(other)
    await rsRefusal(await bearer(forged), 401, 'invalid_token')
  })
  test('with a DPoP proof of another key: 401 invalid_token', async () => {
    const proof = await dpopProof(await newDpopKey(), 'GET', BASE + SHARED, u.pod.clock.now, { accessToken: token })
    const challenge = await rsRefusal(await bearer(token, SHARED, { headers: { dpop: proof } }), 401, 'invalid_token')
    expect(challenge).toMatch(UMA)
  })
  test('as DPoP without a proof: 401 invalid_dpop_proof', async () => {
    await rsRefusal(await u.pod.request(SHARED, { headers: { authorization: `DPoP ${token}` } }), 401, 'invalid_dpop_proof')
  })
  test('Solid-OIDC access tokens (cnf-bound) sent as Bearer stay refused (RFC 9449 §7.2)', async () => {
    const { body } = await obtainTokens(u.pod, new CookieJar(), await newDpopKey())
    const challenge = await rsRefusal(await bearer(body.access_token as string, SHARED), 401, 'invalid_token')
    expect(challenge).toMatch(UMA)
  })
  test('a UMA token is no key to userinfo', async () => {
    expect((await bearer(token, '/.oidc/userinfo')).status).toBe(401)
    expect((await withToken(u.pod, u.bobKey, token, 'GET', '/.oidc/userinfo')).status).toBe(401)
  })
  test('when the owner takes the permission away, the token stops working at once (403 forbidden)', async () => {
    const t = await bobToken(u, OTHER_SHARED)
    expect((await bearer(t, OTHER_SHARED)).status).toBe(200)
    const ownerKey = await newDpopKey()
    const { body } = await obtainTokens(u.pod, new CookieJar(), ownerKey)
    const owner = body.access_token as string
    const aclUrl = `${BASE + OTHER_SHARED}.acl`
    const put = await u.pod.request(`${OTHER_SHARED}.acl`, {
      method: 'PUT',
      headers: {
        authorization: `DPoP ${owner}`,
        dpop: await dpopProof(ownerKey, 'PUT', aclUrl, u.pod.clock.now, { accessToken: owner }),
        'content-type': 'text/turtle',
      },
      body: `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <${BASE + OTHER_SHARED}>; acl:mode acl:Read, acl:Write, acl:Control.`,
    })
    expect(put.status).toBeLessThan(300)
    await rsRefusal(await bearer(t, OTHER_SHARED), 403, 'forbidden')
  })
  test("another pod never accepts this pod's tokens (its own keys and issuer)", async () => {
    const other = await openUmaPod()
    try {
      const res = await other.pod.request(SHARED, { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(401)
      expect((await res.text()).split(':', 1)[0]).toBe('invalid_token')
    } finally {
      await other.pod.close()
    }
  })
})

describe('--uma-token-type dpop: the token works only with proofs of its key (RFC 9449 §7.1)', () => {
  let d: UmaPod
  let dpopToken: string
  beforeAll(async () => {
    d = await openUmaPod({ args: ['--uma-token-type', 'dpop'] })
    const res = await exchange(d, { ticket: await ticketFor(d.pod, SHARED), claimToken: await bobIdToken(d) })
    const body = (await res.json()) as { token_type: string; access_token: string }
    expect(body.token_type).toBe('DPoP')
    dpopToken = body.access_token
  })
  afterAll(() => d.pod.close())

  test('with a proof: 200', async () => {
    expect((await withToken(d.pod, d.bobKey, dpopToken, 'GET', SHARED)).status).toBe(200)
  })
  test('as Bearer: 401 invalid_token', async () => {
    const res = await d.pod.request(SHARED, { headers: { authorization: `Bearer ${dpopToken}` } })
    expect(res.status).toBe(401)
    expect((await res.text()).split(':', 1)[0]).toBe('invalid_token')
  })
  test('as DPoP without a proof: 401 invalid_dpop_proof', async () => {
    const res = await d.pod.request(SHARED, { headers: { authorization: `DPoP ${dpopToken}` } })
    expect(res.status).toBe(401)
    expect((await res.text()).split(':', 1)[0]).toBe('invalid_dpop_proof')
  })
  test('with a proof of another key: 401 invalid_token', async () => {
    const res = await withToken(d.pod, await newDpopKey(), dpopToken, 'GET', SHARED)
    expect(res.status).toBe(401)
    expect((await res.text()).split(':', 1)[0]).toBe('invalid_token')
  })
})
