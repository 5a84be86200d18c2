// A revoked app keeps nothing through the UMA AS: the owner's ID token it still holds is honoured only while
// its app session lives, and UMA tokens bought with it end with that session. Real server, real HTTP.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer, type TokenSet } from './oidc-client.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { readUmaChallenge, requestUmaToken, umaTokenEndpoint } from './uma-client.ts'
import { csrfToken } from './owner-login.ts'

const SECRET = '/shared/secret.ttl'
let pod: RunningPod
let app: ClientIdServer
let browser: CookieJar
let appKey: DpopKey
let tokens: TokenSet

async function ownerWrites(path: string, body: string) {
  const url = pod.baseUrl + path
  const token = tokens.access_token as string
  const res = await fetch(url, {
    method: 'PUT',
    body,
    headers: { 'content-type': 'text/turtle', authorization: `DPoP ${token}`, dpop: await dpopProof(appKey, 'PUT', url, Date.now(), { accessToken: token }) },
  })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}

/** An anonymous request's ticket, traded with the app's copy of the owner's ID token and a proof of its key. */
async function trade(path: string, method = 'GET'): Promise<Response> {
  const refused = await fetch(pod.baseUrl + path, { method, ...(method === 'PUT' ? { body: 'x', headers: { 'content-type': 'text/turtle' } } : {}) })
  expect(refused.status).toBe(401)
  const { asUri, ticket } = readUmaChallenge(refused)
  return requestUmaToken(await umaTokenEndpoint(asUri), ticket, tokens.id_token as string, appKey)
}

async function ownerApi(method: string, path: string): Promise<Response> {
  const csrf = { token: await csrfToken(pod.baseUrl, browser) }.token
  return fetch(pod.baseUrl + path, { method, headers: { cookie: browser.header(), 'x-csrf-token': csrf, origin: pod.baseUrl } })
}

beforeAll(async () => {
  pod = await startPod()
  app = serveClientIdDocument('An app the owner will revoke')
  browser = new CookieJar()
  appKey = await newDpopKey()
  tokens = await exchangeCode(pod.baseUrl, app, appKey, await obtainCodeOverHttp(pod.baseUrl, app, browser, OWNER_PASSWORD))
  await ownerWrites(SECRET, '<#it> <http://purl.org/dc/terms/title> "owner only".')
}, 60_000)

afterAll(async () => {
  app?.stop()
  await pod?.dispose()
})

describe("the owner's ID token at the pod's own UMA AS", () => {
  let bought = ''
  test('while the app session lives it buys a token that names the session (sid)', async () => {
    const res = await trade(SECRET)
    expect(res.status).toBe(200)
    bought = ((await res.json()) as { access_token: string }).access_token
    expect(decodeJwt(bought).sid).toBe(decodeJwt(tokens.id_token as string).sid as string)
    expect((await fetch(pod.baseUrl + SECRET, { headers: { authorization: `Bearer ${bought}` } })).status).toBe(200)
  })

  test('after the owner revokes the app: no ticket is granted (Read, Write, Control), and the token bought before is refused', async () => {
    expect((await ownerApi('DELETE', `/.admin/api/consents/${encodeURIComponent(app.clientId)}`)).status).toBe(204)
    for (const [path, method] of [
      [SECRET, 'GET'],
      [SECRET, 'PUT'],
      [`${SECRET}.acl`, 'GET'],
    ] as const) {
      const res = await trade(path, method)
      const body = (await res.json()) as Record<string, unknown>
      expect({ path, method, status: res.status, error: body.error }).toEqual({ path, method, status: 403, error: 'need_info' })
      expect(body.error_description).toContain('app session has ended')
      expect(body.access_token).toBeUndefined()
    }
    const read = await fetch(pod.baseUrl + SECRET, { headers: { authorization: `Bearer ${bought}` } })
    expect(read.status).toBe(401)
    expect(read.headers.get('www-authenticate')).toContain('error="invalid_token"')
    // and nothing was written
    const url = pod.baseUrl + SECRET
    expect(
      (await fetch(url, { method: 'PUT', body: '<#x> <#y> <#z>.', headers: { 'content-type': 'text/turtle', authorization: `Bearer ${bought}` } })).status,
    ).toBe(401)
  })
})

describe('signing a browser out ends what the apps it approved can buy', () => {
  test('an app approved in a browser the owner signs out from the dashboard gets 403 need_info', async () => {
    const other = serveClientIdDocument('An app approved on the phone')
    try {
      const phone = new CookieJar()
      const phoneKey = await newDpopKey()
      const phoneTokens = await exchangeCode(pod.baseUrl, other, phoneKey, await obtainCodeOverHttp(pod.baseUrl, other, phone, OWNER_PASSWORD))
      const tradeOnPhone = async () => {
        const { asUri, ticket } = readUmaChallenge(await fetch(pod.baseUrl + SECRET))
        return requestUmaToken(await umaTokenEndpoint(asUri), ticket, phoneTokens.id_token as string, phoneKey)
      }
      expect((await tradeOnPhone()).status).toBe(200)
      const csrf = { token: await csrfToken(pod.baseUrl, browser) }.token
      const sessions = (await (await fetch(`${pod.baseUrl}/.admin/api/sessions`, { headers: { cookie: browser.header() } })).json()) as {
        loginSessions: { id: string; current: boolean }[]
      }
      const phoneLogin = sessions.loginSessions.find(l => !l.current)!
      expect(
        (
          await fetch(`${pod.baseUrl}/.admin/api/sessions/${phoneLogin.id}`, {
            method: 'DELETE',
            headers: { cookie: browser.header(), 'x-csrf-token': csrf, origin: pod.baseUrl },
          })
        ).status,
      ).toBe(204)
      const res = await tradeOnPhone()
      const body = (await res.json()) as Record<string, unknown>
      expect({ status: res.status, error: body.error }).toEqual({ status: 403, error: 'need_info' })
      expect(body.access_token).toBeUndefined()
    } finally {
      other.stop()
    }
  })
})
