// The pod behind real nginx (the documentation's site, docs/hosting.md, TLS with a self-signed certificate): the app's login
// in Chromium and its DPoP requests pass through the proxy, and everything the pod names — issuer,
// WebID, redirects, htu — uses the public https origin, not the loopback address nginx forwards to.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { freePort } from '../e2e/start-server.ts'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { startTestApp, type TestApp } from './app-server.ts'
import { logInThroughApp, openApp, runInApp } from './app-flow.ts'
import { PROXY_ADDRESS, readmeStartFlags, startNginxProxy, type NginxProxy } from './nginx-proxy.ts'

// a browser, a pod, nginx and argon2 password checks on a shared 2-core machine
setDefaultTimeout(30_000)
let pod: RunningPod
let proxy: NginxProxy
let app: TestApp
let context: BrowserContext
let page: Page
let publicOrigin = ''

beforeAll(async () => {
  const port = await freePort()
  publicOrigin = `https://localhost:${port}`
  ;[pod, app] = await Promise.all([
    // the documentation's own start command, with this test's origin and proxy address
    startBrowserPod({ extraArgs: [...readmeStartFlags({ publicOrigin, proxyAddress: PROXY_ADDRESS }), '--log-level', 'debug'] }),
    startTestApp(),
  ])
  proxy = await startNginxProxy(port, pod.port)
  // the certificate is self-signed: this browser profile accepts it, as a person would after checking it
  context = await newContext({ ignoreHTTPSErrors: true })
  page = await openApp(context, app)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await proxy?.stop()
  await app?.stop()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const run = <T>(fn: (api: Window['testApp'], arg: any) => Promise<T> | T, arg?: unknown) => runInApp(page, fn, arg)

describe('issue 8: behind nginx with TLS', () => {
  test('the pod names its public https origin, not the address nginx forwards to', async () => {
    expect(pod.baseUrl).toBe(publicOrigin)
    const res = await fetch(`${proxy.origin}/.well-known/openid-configuration`, { tls: { ca: proxy.certPem } })
    expect((await res.json()).issuer).toBe(publicOrigin)
  })

  test('the app logs in through the proxy: login and consent pages over https, secure cookies', async () => {
    const webId = await logInThroughApp(page, { pod: publicOrigin, shots: { login: 'proxy-login' } })
    expect(webId).toBe(`${publicOrigin}/profile/card#me`)
    const cookies = await context.cookies(publicOrigin)
    expect(cookies.length).toBeGreaterThan(0)
    for (const c of cookies) {
      expect(c.name).toStartWith('__Host-')
      expect(c.secure).toBe(true)
    }
    await screenshot(page, 'proxy-app-logged-in')
  })

  test('DPoP requests through the proxy pass (htu is the public URL): read the profile, write and read a document', async () => {
    expect(await run(api => api.readProfile())).toEqual({ issuer: publicOrigin, storage: `${publicOrigin}/` })
    await run((api, url) => api.writeTitle(url, 'via nginx'), `${publicOrigin}/proxied/doc`)
    expect(await run((api, url) => api.readTitle(url), `${publicOrigin}/proxied/doc`)).toBe('via nginx')
    expect(proxy.accessLog()).toContain('"PUT /proxied/doc HTTP/1.1" 201')
  })

  test("with --trust-proxy the pod logs the browser's address nginx forwarded, not nginx's own", () => {
    expect(pod.output()).toMatch(/"path":"\/proxied\/doc","status":201,"ms":\d+,"ip":"127\.0\.0\.1"/)
    expect(pod.output()).not.toContain(`"ip":"${PROXY_ADDRESS}"`)
  })
})
