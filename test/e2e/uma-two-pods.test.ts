// Two real pods on two ports: Bob (pod B's owner) logs in at B's OP and reads Alice's shared
// document on pod A through A's UMA authorization server, over real HTTP.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer, type TokenSet } from './oidc-client.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { readUmaChallenge, requestUmaToken, umaTokenEndpoint } from './uma-client.ts'

let alice: RunningPod
let bob: RunningPod
let app: ClientIdServer
let bobKey: DpopKey
let bobTokens: TokenSet
const SHARED = '/shared/doc.ttl'
const SECRET = '/shared/secret.ttl'

/** A's owner writes with her own DPoP-bound token (she logged in at her pod, like any app user). */
async function aliceWrites(tokens: TokenSet, key: DpopKey, path: string, body: string) {
  const url = alice.baseUrl + path
  const token = tokens.access_token as string
  const res = await fetch(url, {
    method: 'PUT',
    body,
    headers: { 'content-type': 'text/turtle', authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'PUT', url, Date.now(), { accessToken: token }) },
  })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod(), startPod()])
  app = serveClientIdDocument("Bob and Alice's app")
  // Alice shares /shared/doc.ttl with Bob's WebID by ACL; /shared/secret.ttl stays hers.
  const aliceKey = await newDpopKey()
  const aliceTokens = await exchangeCode(alice.baseUrl, app, aliceKey, await obtainCodeOverHttp(alice.baseUrl, app, new CookieJar(), OWNER_PASSWORD))
  await aliceWrites(aliceTokens, aliceKey, SHARED, '<#it> <http://purl.org/dc/terms/title> "for Bob".')
  await aliceWrites(aliceTokens, aliceKey, SECRET, '<#it> <http://purl.org/dc/terms/title> "Alice only".')
  await aliceWrites(
    aliceTokens,
    aliceKey,
    `${SHARED}.acl`,
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#alice> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <${alice.baseUrl}${SHARED}>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${bob.baseUrl}/profile/card#me>; acl:accessTo <${alice.baseUrl}${SHARED}>; acl:mode acl:Read.`,
  )
  // Bob logs in at his own pod's OP: authorization code + PKCE + DPoP
  bobKey = await newDpopKey()
  bobTokens = await exchangeCode(bob.baseUrl, app, bobKey, await obtainCodeOverHttp(bob.baseUrl, app, new CookieJar(), OWNER_PASSWORD))
}, 60_000)

afterAll(async () => {
  app?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

/** 401 from A → its AS → an answer to ticket + Bob's ID token + a proof of `key`. */
async function tradeTicket(path: string, key = bobKey): Promise<Response> {
  const refused = await fetch(alice.baseUrl + path)
  expect(refused.status).toBe(401)
  const { asUri, ticket } = readUmaChallenge(refused)
  return requestUmaToken(await umaTokenEndpoint(asUri), ticket, bobTokens.id_token as string, key)
}

describe('UMA across two pods over real HTTP', () => {
  test("Bob's ID token comes from his own pod, bound to his app's DPoP key", () => {
    expect(decodeJwt(bobTokens.id_token as string)).toMatchObject({ iss: bob.baseUrl, webid: `${bob.baseUrl}/profile/card#me`, cnf: { jkt: bobKey.jkt } })
  })

  test('an anonymous GET on A is 401 with both challenges: UMA (as_uri = A) and DPoP', async () => {
    const res = await fetch(alice.baseUrl + SHARED)
    expect(res.status).toBe(401)
    const challenges = res.headers.get('www-authenticate')!
    expect(challenges).toMatch(new RegExp(`^UMA realm="[^"]+", as_uri="${alice.baseUrl}", ticket="[\\w-]+\\.[\\w-]{22}", DPoP algs="ES256`))
  })

  test("ticket + ID token + proof at A's AS → a token that reads the shared document", async () => {
    const res = await tradeTicket(SHARED)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number }
    expect(body.token_type).toBe('Bearer')
    expect(decodeJwt(body.access_token)).toMatchObject({ iss: alice.baseUrl, sub: `${bob.baseUrl}/profile/card#me`, azp: app.clientId })
    const read = await fetch(alice.baseUrl + SHARED, { headers: { authorization: `Bearer ${body.access_token}`, accept: 'text/turtle' } })
    expect(read.status).toBe(200)
    expect(await read.text()).toContain('for Bob')
    // and nothing else on A
    expect((await fetch(alice.baseUrl + SECRET, { headers: { authorization: `Bearer ${body.access_token}` } })).status).toBe(403)
  })

  test('the unshared document stays 403 request_denied', async () => {
    const res = await tradeTicket(SECRET)
    expect(res.status).toBe(403)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBe('request_denied')
    expect(body.access_token).toBeUndefined()
  })

  test('the same ID token with another DPoP key is refused (403 need_info, nothing issued)', async () => {
    const res = await tradeTicket(SHARED, await newDpopKey())
    expect(res.status).toBe(403)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBe('need_info')
    expect(body.access_token).toBeUndefined()
    expect(body.ticket).toMatch(/^[\w-]+\.[\w-]{22}$/)
  })

  test("Bob's access token (typ at+jwt, from pod B) is not a claim token: 403 need_info, nothing issued", async () => {
    const refused = await fetch(alice.baseUrl + SHARED)
    const { asUri, ticket } = readUmaChallenge(refused)
    const res = await requestUmaToken(await umaTokenEndpoint(asUri), ticket, bobTokens.access_token as string, bobKey)
    expect(res.status).toBe(403)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBe('need_info')
    expect(body.error_description).toContain('access token, not an ID token')
    expect(body.access_token).toBeUndefined()
  })

  test('a spent ticket spelled with another last character (same seal bytes) is 400 invalid_grant', async () => {
    const { asUri, ticket } = readUmaChallenge(await fetch(alice.baseUrl + SHARED))
    const endpoint = await umaTokenEndpoint(asUri)
    expect((await requestUmaToken(endpoint, ticket, bobTokens.id_token as string, bobKey)).status).toBe(200)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const i = alphabet.indexOf(ticket.at(-1)!)
    const respelled = ticket.slice(0, -1) + alphabet[(i & ~15) | ((i + 1) & 15)]
    const res = await requestUmaToken(endpoint, respelled, bobTokens.id_token as string, bobKey)
    expect(res.status).toBe(400)
    expect(((await res.json()) as Record<string, unknown>).error).toBe('invalid_grant')
  })

  test('a ticket of another resource server (pod B) is 400 invalid_grant at A', async () => {
    const fromB = readUmaChallenge(await fetch(`${bob.baseUrl}/`))
    const res = await requestUmaToken(await umaTokenEndpoint(alice.baseUrl), fromB.ticket, bobTokens.id_token as string, bobKey)
    expect(res.status).toBe(400)
    expect(((await res.json()) as Record<string, unknown>).error).toBe('invalid_grant')
  })
})

describe('A restarted with --uma-token-type dpop', () => {
  let dpopToken = ''
  let ticketBefore = ''
  beforeAll(async () => {
    // a ticket issued just before the restart survives it (written to the store on SIGTERM)
    ticketBefore = readUmaChallenge(await fetch(alice.baseUrl + SHARED)).ticket
    await alice.stop()
    alice = await startPod({ dataDir: alice.dataDir, port: alice.port, extraArgs: ['--uma-token-type', 'dpop'] })
    const res = await requestUmaToken(await umaTokenEndpoint(alice.baseUrl), ticketBefore, bobTokens.id_token as string, bobKey)
    const body = (await res.json()) as { access_token: string; token_type: string }
    expect(res.status).toBe(200)
    expect(body.token_type).toBe('DPoP')
    dpopToken = body.access_token
  }, 30_000)

  test("the token works with a proof of Bob's key", async () => {
    const url = alice.baseUrl + SHARED
    const res = await fetch(url, {
      headers: { authorization: `DPoP ${dpopToken}`, dpop: await dpopProof(bobKey, 'GET', url, Date.now(), { accessToken: dpopToken }) },
    })
    expect(res.status).toBe(200)
  })
  test('and not without one', async () => {
    expect((await fetch(alice.baseUrl + SHARED, { headers: { authorization: `Bearer ${dpopToken}` } })).status).toBe(401)
    expect((await fetch(alice.baseUrl + SHARED, { headers: { authorization: `DPoP ${dpopToken}` } })).status).toBe(401)
  })
})
