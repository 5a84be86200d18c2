// The monitoring role in-process: who may read the metrics (loopback or the owner), and the health check's
// answer while the database takes writes and once it does not.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from '../admin/admin-fixture.ts'
import { openTempPod } from '../temp-pod.ts'
import { checkMetricsAccess } from '../../src/monitor/metrics-access.ts'
import { HttpError } from '../../src/http/errors.ts'
import type { Principal } from '../../src/auth/principal.ts'
import { clientAddressFrom } from '../../src/http/client-address.ts'
import { ownerWebIdOf } from '../../src/config.ts'

const BASE = 'https://pod.example'
const METRICS = `${BASE}/.well-known/solopod/metrics`
const HEALTH = `${BASE}/.well-known/solopod/health`
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
})
afterAll(() => pod.close())

/** A request as the server hands it over: with the client address recorded from the TCP peer (and a trusted proxy's header). */
function fromAddress(peer: string | undefined, headers: Record<string, string> = {}, trusted: readonly string[] = []) {
  const request = new Request(METRICS, { headers })
  pod.deps.clientAddresses.record(request, () => clientAddressFrom(peer, request.headers, new Set(trusted)))
  return request
}
const refusalOf = (deps: Parameters<typeof checkMetricsAccess>[0], request: Request) =>
  checkMetricsAccess(deps, request).then(
    () => undefined,
    (e: unknown) => e as HttpError,
  )

describe("metrics: clients on the pod's machine and the owner only", () => {
  test('a loopback client (IPv4 or IPv6) may read them without credentials', async () => {
    await checkMetricsAccess(pod.deps, fromAddress('127.0.0.1'))
    await checkMetricsAccess(pod.deps, fromAddress('::1'))
  })

  test("the owner (here: the dashboard's session and CSRF token) gets them from anywhere", async () => {
    const res = await pod.api('GET', '/.well-known/solopod/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await res.text()).toContain('# TYPE solopod_http_requests_total counter')
  })

  test("anyone else anonymous → 401 unauthenticated, with the challenges of the owner's credentials", async () => {
    const res = await pod.request(METRICS)
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('unauthenticated:')
    expect(res.headers.get('www-authenticate')).toContain('DPoP algs=')
    expect(res.headers.get('www-authenticate')).toContain('HttpSig realm="/.well-known/solopod/metrics"')
  })

  test("a loopback peer with forwarding headers is a reverse proxy's client, not local → 401", async () => {
    const refused = await checkMetricsAccess(pod.deps, fromAddress('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(HttpError)
    expect((refused as HttpError).status).toBe(401)
    expect((refused as HttpError).code).toBe('unauthenticated')
  })

  test('behind a trusted proxy on loopback, a remote client is not local, whatever it claims → 401', async () => {
    // the proxy's own TCP peer address is loopback; the client is who it wrote rightmost
    const claims: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { forwarded: 'for=127.0.0.1', 'x-forwarded-for': '203.0.113.7' },
    ]
    for (const headers of claims) {
      const refused = await refusalOf(pod.deps, fromAddress('127.0.0.2', headers, ['127.0.0.2']))
      expect([refused?.status, refused?.code]).toEqual([401, 'unauthenticated'])
    }
    // a trusted proxy that names no client but speaks for one in Forwarded (which the pod never reads) is not local either
    const refused = await refusalOf(pod.deps, fromAddress('127.0.0.2', { forwarded: 'for=127.0.0.1' }, ['127.0.0.2']))
    expect([refused?.status, refused?.code]).toEqual([401, 'unauthenticated'])
    // a client on the proxy's machine is: the proxy wrote its loopback address
    expect(await refusalOf(pod.deps, fromAddress('127.0.0.2', { 'x-forwarded-for': '127.0.0.1' }, ['127.0.0.2']))).toBeUndefined()
  })

  test("tokens of the owner's WebID that are not the owner: a client credential, an app limited to folders → 403 forbidden", async () => {
    const owner = ownerWebIdOf(BASE) as NonNullable<Principal['webid']>
    const script: Principal = { webid: owner, clientId: 'script-abcdefghijklmnopqrstuv' as Principal['clientId'] & string, keys: [], scheme: 'DPoP' }
    const script403 = await refusalOf({ ...pod.deps, authenticate: async () => script }, fromAddress('203.0.113.7'))
    expect([script403?.status, script403?.code]).toEqual([403, 'forbidden'])
    const appId = 'https://app.example/id'
    await pod.deps.appScopes.set(appId, [{ path: '/photos/', right: 'read' }], Date.now())
    const app: Principal = { webid: owner, clientId: appId as Principal['clientId'] & string, keys: [], scheme: 'DPoP' }
    const app403 = await refusalOf({ ...pod.deps, authenticate: async () => app }, fromAddress('203.0.113.7'))
    expect([app403?.status, app403?.code]).toEqual([403, 'forbidden'])
    // the same app with full access is the owner's
    await pod.deps.appScopes.set(appId, undefined, Date.now())
    expect(await refusalOf({ ...pod.deps, authenticate: async () => app }, fromAddress('203.0.113.7'))).toBeUndefined()
  })

  test('an agent other than the owner → 403 forbidden', async () => {
    const bob: Principal = { webid: 'https://bob.example/profile/card#me' as Principal['webid'] & string, keys: [], scheme: 'DPoP' }
    const refused = await checkMetricsAccess({ ...pod.deps, authenticate: async () => bob }, fromAddress('203.0.113.7')).catch((e: unknown) => e)
    expect((refused as HttpError).status).toBe(403)
    expect((refused as HttpError).code).toBe('forbidden')
  })
})

describe('health: 200 while the database takes a synced write, 503 otherwise', () => {
  test('an open pod is healthy, and says nothing more', async () => {
    const res = await pod.request(HEALTH)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('{"status":"ok"}')
  })

  test('a closed database → 503', async () => {
    const other = await openTempPod('health', BASE)
    try {
      await other.store.close()
      const res = await other.handle(new Request(HEALTH))
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ status: 'unavailable' })
    } finally {
      await other.close().catch(() => {})
    }
  })
})
