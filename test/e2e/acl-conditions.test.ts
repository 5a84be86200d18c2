// WAC 1.1 editor's draft §4.4 conditions over real HTTP, with two pods and two apps: Alice shares documents
// with Bob's WebID (hosted on pod B) only through one app, only with an identity from one issuer, or under a
// condition no pod understands. Bob reads with his DPoP-bound tokens from B, and with UMA tokens from A's AS.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer, type TokenSet } from './oidc-client.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { readUmaChallenge, requestUmaToken, umaTokenEndpoint } from './uma-client.ts'

let alice: RunningPod
let bob: RunningPod
let goodApp: ClientIdServer
let otherApp: ClientIdServer
type Session = { key: DpopKey; tokens: TokenSet }
/** Bob's sessions at his own pod's OP, one per app. */
const sessions = {} as Record<'good' | 'other', Session>
/** Alice's session at her own pod (through the good app). */
let aliceSession: Session
const CONDITION_REL = 'http://www.w3.org/ns/auth/acl#condition'

async function signIn(pod: RunningPod, app: ClientIdServer): Promise<Session> {
  const key = await newDpopKey()
  return { key, tokens: await exchangeCode(pod.baseUrl, app, key, await obtainCodeOverHttp(pod.baseUrl, app, new CookieJar(), OWNER_PASSWORD)) }
}

/** A request with a DPoP-bound access token of `s`. */
async function withToken(s: Session, method: string, url: string, init: { body?: string; type?: string } = {}) {
  const token = s.tokens.access_token as string
  return fetch(url, {
    method,
    ...(init.body !== undefined ? { body: init.body } : {}),
    headers: {
      authorization: `DPoP ${token}`,
      dpop: await dpopProof(s.key, method, url, Date.now(), { accessToken: token }),
      ...(init.type ? { 'content-type': init.type } : {}),
    },
  })
}

const rule = (name: string, doc: string, condition: string) =>
  `<#${name}> a acl:Authorization; acl:agent <${bob.baseUrl}/profile/card#me>; acl:accessTo <${alice.baseUrl}${doc}>; acl:mode acl:Read; acl:condition ${condition}.`

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod(), startPod()])
  goodApp = serveClientIdDocument('the app Alice trusts')
  otherApp = serveClientIdDocument('another app')
  aliceSession = await signIn(alice, goodApp)
  sessions.good = await signIn(bob, goodApp)
  sessions.other = await signIn(bob, otherApp)
  const docs: Record<string, string> = {
    '/shared/app-only.ttl': `[ a acl:ClientCondition; acl:client <${goodApp.clientId}> ], [ a acl:IssuerCondition; acl:issuer <${bob.baseUrl}> ]`,
    '/shared/other-issuer.ttl': '[ a acl:IssuerCondition; acl:issuer <https://idp.example> ]',
    '/shared/unknown.ttl': '[ a <https://example.org/terms#TimeCondition> ]',
    '/shared/untyped.ttl': `[ acl:client <${goodApp.clientId}> ]`,
  }
  for (const [path, condition] of Object.entries(docs)) {
    expect(
      (await withToken(aliceSession, 'PUT', alice.baseUrl + path, { type: 'text/turtle', body: '<#it> <http://purl.org/dc/terms/title> "for Bob".' })).status,
    ).toBe(201)
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#alice> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <${alice.baseUrl}${path}>; acl:mode acl:Read, acl:Write, acl:Control.
${rule('bob', path, condition)}`
    expect((await withToken(aliceSession, 'PUT', `${alice.baseUrl}${path}.acl`, { type: 'text/turtle', body: acl })).status).toBe(201)
  }
}, 60_000)

afterAll(async () => {
  goodApp?.stop()
  otherApp?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

const bobReads = (app: 'good' | 'other', path: string) => withToken(sessions[app], 'GET', alice.baseUrl + path)

async function expectForbidden(res: Response) {
  expect(res.status).toBe(403)
  expect(await res.text()).toStartWith('forbidden:')
}

describe('WAC 1.1 ED §3.2: the effective ACL resource names the condition types the pod understands', () => {
  test('HEAD of the ACL by its owner: Link rel=acl#condition for ClientCondition and IssuerCondition', async () => {
    const res = await withToken(aliceSession, 'HEAD', `${alice.baseUrl}/shared/app-only.ttl.acl`)
    expect(res.status).toBe(200)
    const link = res.headers.get('link')!
    expect(link).toContain(`<http://www.w3.org/ns/auth/acl#ClientCondition>; rel="${CONDITION_REL}"`)
    expect(link).toContain(`<http://www.w3.org/ns/auth/acl#IssuerCondition>; rel="${CONDITION_REL}"`)
  })
})

describe('WAC 1.1 ED §4.4, §5.3.2 with DPoP-bound tokens of pod B', () => {
  test('through the named app, with an identity from the named issuer (B): 200', async () => {
    const res = await bobReads('good', '/shared/app-only.ttl')
    expect(res.status).toBe(200)
    expect(decodeJwt(sessions.good.tokens.access_token as string)).toMatchObject({ iss: bob.baseUrl, client_id: goodApp.clientId })
  })
  test('the same WebID through another app: 403 forbidden', async () => {
    await expectForbidden(await bobReads('other', '/shared/app-only.ttl'))
  })
  test('an issuer condition naming another issuer: 403 forbidden', async () => {
    await expectForbidden(await bobReads('good', '/shared/other-issuer.ttl'))
  })
  test.each(['/shared/unknown.ttl', '/shared/untyped.ttl'])('a condition the pod does not understand (%s) never grants: 403 forbidden', async path => {
    await expectForbidden(await bobReads('good', path))
  })
})

describe("WAC 1.1 ED §4.4 with UMA access tokens of A's authorization server", () => {
  async function trade(app: 'good' | 'other', path: string) {
    const { asUri, ticket } = readUmaChallenge(await fetch(alice.baseUrl + path))
    return requestUmaToken(await umaTokenEndpoint(asUri), ticket, sessions[app].tokens.id_token as string, sessions[app].key)
  }
  test("the good app's ID token buys a token naming B as the WebID's issuer, and it reads the document", async () => {
    const res = await trade('good', '/shared/app-only.ttl')
    expect(res.status).toBe(200)
    const { access_token: rpt } = (await res.json()) as { access_token: string }
    expect(decodeJwt(rpt)).toMatchObject({ iss: alice.baseUrl, azp: goodApp.clientId, webid_iss: bob.baseUrl })
    const read = await fetch(`${alice.baseUrl}/shared/app-only.ttl`, { headers: { authorization: `Bearer ${rpt}` } })
    expect(read.status).toBe(200)
  })
  test("the other app's ID token: 403 request_denied, nothing issued", async () => {
    const res = await trade('other', '/shared/app-only.ttl')
    expect(res.status).toBe(403)
    const body = (await res.json()) as Record<string, unknown>
    expect(body.error).toBe('request_denied')
    expect(body.access_token).toBeUndefined()
  })
  test('an unknown condition: 403 request_denied', async () => {
    const res = await trade('good', '/shared/unknown.ttl')
    expect(res.status).toBe(403)
    expect(((await res.json()) as Record<string, unknown>).error).toBe('request_denied')
  })
})
