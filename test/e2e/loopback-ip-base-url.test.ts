// A pod whose base URL is http://127.0.0.1:PORT verifies the tokens it issued itself: the
// http-only-on-localhost rule of Solid-OIDC verifiers is for other issuers, not for its own.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer } from './oidc-client.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
let rp: ClientIdServer
let key: DpopKey
beforeAll(async () => {
  ;[pod, key] = await Promise.all([startPod({ baseHost: '127.0.0.1' }), newDpopKey()])
  rp = serveClientIdDocument('127.0.0.1 RP')
}, 30_000)
afterAll(async () => {
  rp?.stop()
  await pod?.dispose()
})

describe('issue 8: the pod always trusts its own issuer and keys', () => {
  test('a login on a http://127.0.0.1 pod gives tokens that pod accepts', async () => {
    expect(pod.baseUrl).toStartWith('http://127.0.0.1:')
    const code = await obtainCodeOverHttp(pod.baseUrl, rp, new CookieJar(), OWNER_PASSWORD)
    const tokens = await exchangeCode(pod.baseUrl, rp, key, code)
    const token = tokens.access_token as string
    const url = `${pod.baseUrl}/`
    const res = await fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url, Date.now(), { accessToken: token }) } })
    expect(res.status).toBe(200)
    expect(res.headers.get('wac-allow')).toContain('user="read write append control"')
  })
})
