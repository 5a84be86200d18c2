// Issue 33: behind the documentation's nginx site (docs/hosting.md; real nginx, TLS), a client cannot name its own address. Each
// client here plays one on the internet (nginx's realip module reads TEST_CLIENT_HEADER, test only) and
// sends its own Forwarded and X-Forwarded-For: the pod still sees the address nginx saw, so the metrics stay
// closed and the per-address password limit holds; a client on nginx's machine is local, and the owner reads them.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LOGIN_LIMITS } from '../../src/op/login.ts'
import { CookieJar, FORM, field, form, pageError } from '../op/op-fixture.ts'
import { PROXY_ADDRESS, TEST_CLIENT_HEADER, readmeStartFlags, startNginxProxy, type NginxProxy } from '../browser/nginx-proxy.ts'
import { OWNER_PASSWORD, freePort, startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
let proxy: NginxProxy
beforeAll(async () => {
  const port = await freePort()
  pod = await startPod({ extraArgs: readmeStartFlags({ publicOrigin: `https://localhost:${port}`, proxyAddress: PROXY_ADDRESS }) })
  proxy = await startNginxProxy(port, pod.port, { remoteClients: true })
}, 30_000)
afterAll(async () => {
  await proxy?.stop()
  await pod?.dispose()
})

/** A request through nginx from `client` (undefined: from nginx's own machine), with the client's own headers. */
const via = (client: string | undefined, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  fetch(proxy.origin + path, {
    ...init,
    redirect: 'manual',
    tls: { ca: proxy.certPem },
    headers: { ...init.headers, ...(client ? { [TEST_CLIENT_HEADER]: client } : {}) },
  })

const METRICS = '/.well-known/solopod/metrics'
const SPOOF = { forwarded: 'for=127.0.0.1', 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' }

describe('metrics behind nginx', () => {
  test('a remote client claiming to be loopback (Forwarded, X-Forwarded-For, X-Real-IP) → 401 unauthenticated', async () => {
    const res = await via('203.0.113.50', METRICS, { headers: SPOOF })
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('unauthenticated:')
  })

  test("a client on nginx's machine is local → 200", async () => {
    expect((await via(undefined, METRICS)).status).toBe(200)
  })
})

/** One sign-in attempt from `client`, with its own cookie jar and forwarding headers. */
async function signIn(jar: CookieJar, client: string, password: string, headers: Record<string, string> = {}) {
  const page = await jar.take(await via(client, '/.oidc/login', { headers: { cookie: jar.header(), ...headers } })).text()
  return jar.take(
    await via(client, '/.oidc/login', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: pod.baseUrl, ...headers },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password }),
    }),
  )
}

describe('the per-address password limit behind nginx', () => {
  test(`a new Forwarded / X-Forwarded-For on every attempt does not escape it: ${LOGIN_LIMITS.perAddress.max} × 401, then 429 too_many_attempts`, async () => {
    const jar = new CookieJar()
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < LOGIN_LIMITS.perAddress.max + 3; i++) {
      const spoofed = `198.51.100.${i + 1}`
      last = await signIn(jar, '203.0.113.60', `guess-${i}`, { forwarded: `for=${spoofed}`, 'x-forwarded-for': spoofed })
      statuses.push(last.status)
    }
    expect(statuses).toEqual([...Array(LOGIN_LIMITS.perAddress.max).fill(401), 429, 429, 429])
    expect(pageError(await last!.text())).toBe('too_many_attempts')
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
  }, 60_000) // real argon2id verifications

  test('the owner, from another remote address, signs in and reads the metrics (200)', async () => {
    const jar = new CookieJar()
    expect((await signIn(jar, '203.0.113.70', OWNER_PASSWORD)).status).toBe(303)
    const csrf = (await jar.take(await via('203.0.113.70', '/.admin/api/csrf', { headers: { cookie: jar.header() } })).json()).token
    const res = await via('203.0.113.70', METRICS, { headers: { cookie: jar.header(), 'x-csrf-token': csrf, origin: pod.baseUrl } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('# TYPE solopod_http_requests_total counter')
  }, 30_000)
})
