// The AS decides with the pod's one decision function: an access grant (no ACL rule) lets Bob obtain
// a UMA token, and revoking the grant takes effect for the token and for new exchanges at once.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { openOwnerPod, type OwnerPod } from '../admin/admin-fixture.ts'
import { BOB, POD, grant } from '../policy/grant-fixture.ts'
import { dpopProof, FORM, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { ID_TOKEN_FORMAT, profileTurtle, UMA_GRANT, umaTicketOf } from './uma-fixture.ts'

const OP = 'https://op.example'
const DOC = '/projects/p1'
let pod: OwnerPod
let opKey: CryptoKey
let bobKey: DpopKey
let grantUrl = ''

beforeAll(async () => {
  const op = await generateKeyPair('ES256', { extractable: true })
  opKey = op.privateKey
  const docs = new Map<string, { body: string; type: string }>([
    ['https://bob.example/profile/card', { body: profileTurtle(OP), type: 'text/turtle' }],
    [`${OP}/.well-known/openid-configuration`, { body: JSON.stringify({ issuer: OP, jwks_uri: `${OP}/jwks` }), type: 'application/json' }],
    [`${OP}/jwks`, { body: JSON.stringify({ keys: [{ ...(await exportJWK(op.publicKey)), kid: 'op-1', alg: 'ES256' }] }), type: 'application/json' }],
  ])
  // The guarded fetcher connects to the pinned address; the Host header names the site asked for.
  const fetchImpl = (async (target: URL | string, init?: RequestInit) => {
    const doc = docs.get(`https://${new Headers(init?.headers).get('host')}${new URL(String(target)).pathname}`)
    return doc ? new Response(doc.body, { headers: { 'content-type': doc.type } }) : new Response('not found', { status: 404 })
  }) as typeof fetch
  pod = await openOwnerPod(POD, { fetcher: { fetchImpl, lookup: async () => ['93.184.216.34'] } })
  await pod.seed('/projects/', '')
  await pod.seed(DOC, '<#it> <http://purl.org/dc/terms/title> "granted".')
  bobKey = await newDpopKey()
  const res = await pod.api('POST', '/.admin/api/grants', { body: grant() })
  expect(res.status).toBe(201)
  grantUrl = res.headers.get('location')!
})
afterAll(() => pod?.close())

function bobIdToken(): Promise<string> {
  const iat = Math.floor(Date.now() / 1000)
  const claims = {
    iss: OP,
    sub: BOB,
    webid: BOB,
    aud: ['https://app.example/id', 'solid'],
    azp: 'https://app.example/id',
    iat,
    exp: iat + 600,
    cnf: { jkt: bobKey.jkt },
  }
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'ES256', kid: 'op-1', typ: 'JWT' }).sign(opKey)
}

async function exchange(): Promise<Response> {
  const refused = await pod.request(DOC)
  expect(refused.status).toBe(401)
  return pod.request('/.uma/token', {
    method: 'POST',
    headers: { 'content-type': FORM, dpop: await dpopProof(bobKey, 'POST', `${POD}/.uma/token`, Date.now()) },
    body: new URLSearchParams({ grant_type: UMA_GRANT, ticket: umaTicketOf(refused), claim_token: await bobIdToken(), claim_token_format: ID_TOKEN_FORMAT }),
  })
}

describe('UMA decisions include access grants (WAC ∪ grants)', () => {
  let token = ''
  test('a grant alone (no ACL rule for Bob) lets him trade his ticket and read', async () => {
    const res = await exchange()
    expect(res.status).toBe(200)
    token = ((await res.json()) as { access_token: string }).access_token
    const read = await pod.request(DOC, { headers: { authorization: `Bearer ${token}` } })
    expect(read.status).toBe(200)
    expect(await read.text()).toContain('granted')
  })
  test('after the owner revokes the grant: the token stops working and a new exchange is request_denied', async () => {
    expect((await pod.api('DELETE', new URL(grantUrl).pathname)).status).toBeLessThan(300)
    expect((await pod.request(DOC, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403)
    const res = await exchange()
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: string }).error).toBe('request_denied')
  })
})
