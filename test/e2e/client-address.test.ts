// The real server records each request's peer address, so per-address limits apply over HTTP.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { REGISTRATION_LIMIT } from '../../src/op/registration.ts'
import { startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
beforeAll(async () => { pod = await startPod() })
afterAll(() => pod.dispose())

const register = () => fetch(`${pod.baseUrl}/.oidc/reg`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], scope: 'openid webid', client_name: 'Limit' }),
})

test(`dynamic registration from one address is limited to ${REGISTRATION_LIMIT.max} per window`, async () => {
  for (let i = 0; i < REGISTRATION_LIMIT.max; i++) expect((await register()).status).toBe(201)
  const refused = await register()
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
})
