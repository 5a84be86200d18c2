// The monitoring role in-process: who may read the metrics (loopback or the owner), and the health check's
// answer while the database takes writes and once it does not.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from '../admin/admin-fixture.ts'
import { openTempPod } from '../temp-pod.ts'
import { checkMetricsAccess } from '../../src/monitor/metrics-access.ts'
import { HttpError } from '../../src/http/errors.ts'
import type { Principal } from '../../src/auth/principal.ts'

const BASE = 'https://pod.example'
const METRICS = `${BASE}/.well-known/solopod/metrics`
const HEALTH = `${BASE}/.well-known/solopod/health`
let pod: OwnerPod
beforeAll(async () => { pod = await openOwnerPod(BASE) })
afterAll(() => pod.close())

/** A request as the server hands it over: with the TCP peer's address recorded. */
function fromAddress(address: string | undefined, headers: Record<string, string> = {}) {
  const request = new Request(METRICS, { headers })
  pod.deps.clientAddresses.record(request, () => address)
  return request
}

describe('metrics: clients on the pod\'s machine and the owner only', () => {
  test('a loopback client (IPv4 or IPv6) may read them without credentials', async () => {
    await checkMetricsAccess(pod.deps, fromAddress('127.0.0.1'))
    await checkMetricsAccess(pod.deps, fromAddress('::1'))
  })

  test('the owner (here: the dashboard\'s session and CSRF token) gets them from anywhere', async () => {
    const res = await pod.api('GET', '/.well-known/solopod/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await res.text()).toContain('# TYPE solopod_http_requests_total counter')
  })

  test('anyone else anonymous → 401 unauthenticated, with the challenges of the owner\'s credentials', async () => {
    const res = await pod.request(METRICS)
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('unauthenticated:')
    expect(res.headers.get('www-authenticate')).toContain('DPoP algs=')
    expect(res.headers.get('www-authenticate')).toContain('HttpSig realm="/.well-known/solopod/metrics"')
  })

  test('a loopback peer with forwarding headers is a reverse proxy\'s client, not local → 401', async () => {
    const refused = await checkMetricsAccess(pod.deps, fromAddress('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(HttpError)
    expect((refused as HttpError).status).toBe(401)
    expect((refused as HttpError).code).toBe('unauthenticated')
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
