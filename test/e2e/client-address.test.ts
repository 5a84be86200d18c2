// The real server records each request's peer address, so per-address limits apply over HTTP.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { REGISTRATION_LIMIT } from '../../src/op/registration.ts'
import { startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod()
})
afterAll(() => pod.dispose())

const register = () =>
  fetch(`${pod.baseUrl}/.oidc/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], scope: 'openid webid', client_name: 'Limit' }),
  })

test(`dynamic registration from one address is limited to ${REGISTRATION_LIMIT.max} per window`, async () => {
  for (let i = 0; i < REGISTRATION_LIMIT.max; i++) expect((await register()).status).toBe(201)
  const refused = await register()
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
})

test('without --trust-proxy, X-Forwarded-For is ignored: the limit is per TCP peer', async () => {
  const res = await fetch(`${pod.baseUrl}/.oidc/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
    body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], client_name: 'Limit' }),
  })
  expect(res.status).toBe(429)
})

describe('--trust-proxy 127.0.0.1: the client address comes from the proxy', () => {
  let proxied: RunningPod
  beforeAll(async () => {
    proxied = await startPod({ extraArgs: ['--trust-proxy', '127.0.0.1', '--log-level', 'debug'] })
  })
  afterAll(() => proxied?.dispose())
  const registerFrom = (client: string) =>
    fetch(`${proxied.baseUrl}/.oidc/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], client_name: 'Limit' }),
    })
  test('each forwarded client has its own limit, and the access log (debug level) names it', async () => {
    for (let i = 0; i < REGISTRATION_LIMIT.max; i++) expect((await registerFrom('203.0.113.1')).status).toBe(201)
    expect((await registerFrom('203.0.113.1')).status).toBe(429)
    expect((await registerFrom('203.0.113.2')).status).toBe(201)
    // The access log line is written once the answer is sent: waited for, not raced
    await proxied.waitForOutput(/"ip":"203\.0\.113\.2"/, 5_000)
  })
})
