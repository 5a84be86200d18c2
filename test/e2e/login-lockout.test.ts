// Issue 33: a stranger cannot lock the owner out of signing in. Over real HTTP behind a trusted proxy
// (--trust-proxy 127.0.0.1, X-Forwarded-For naming each client): wrong passwords from six addresses use up
// the account's limit; the owner's right password still signs in from a fresh address and from a browser it
// signed in from before, while the stranger's addresses keep getting 429 too_many_attempts with Retry-After.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LOGIN_LIMITS } from '../../src/op/login.ts'
import { CookieJar, FORM, field, form, pageError } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--trust-proxy', '127.0.0.1'] })
})
afterAll(() => pod?.dispose())

/** One sign-in attempt from `client` (as the proxy names it), with the jar's cookies (CSRF, known device). */
async function signIn(jar: CookieJar, client: string, password: string): Promise<Response> {
  const page = await jar.take(await fetch(`${pod.baseUrl}/.oidc/login`, { headers: { cookie: jar.header(), 'x-forwarded-for': client } })).text()
  return jar.take(
    await fetch(`${pod.baseUrl}/.oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: pod.baseUrl, 'x-forwarded-for': client },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password }),
    }),
  )
}

const STRANGER = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5', '198.51.100.6']

describe('a stranger cannot lock the owner out', () => {
  const ownersBrowser = new CookieJar()
  test('the owner signs in once: the browser is remembered (a known-device cookie)', async () => {
    const res = await signIn(ownersBrowser, '203.0.113.10', OWNER_PASSWORD)
    expect(res.status).toBe(303)
    expect(res.headers.getSetCookie().some(c => c.startsWith('solopod_device=') && c.includes('HttpOnly'))).toBe(true)
  })

  test(`${LOGIN_LIMITS.perAccount.max} wrong passwords from ${STRANGER.length} addresses, then the owner's right password from a fresh address → 303`, async () => {
    const stranger = new CookieJar()
    let failures = 0
    for (let i = 0; failures < LOGIN_LIMITS.perAccount.max; i++) {
      const res = await signIn(stranger, STRANGER[i % STRANGER.length]!, `guess-${i}`)
      expect([401, 429]).toContain(res.status)
      failures++
    }
    // the stranger's addresses and any new one: a wrong password is refused with 429 and when to come back
    for (const address of [STRANGER[0]!, '198.51.100.99']) {
      const refused = await signIn(stranger, address, 'another-guess')
      expect(refused.status).toBe(429)
      expect(pageError(await refused.text())).toBe('too_many_attempts')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    // the owner, on a browser never seen, from an address of its own
    const fresh = await signIn(new CookieJar(), '203.0.113.20', OWNER_PASSWORD)
    expect(fresh.status).toBe(303)
    expect(fresh.headers.get('location')).toBe(`${pod.baseUrl}/.admin/`)
  }, 120_000) // every failure is a real argon2id verification

  test("the owner's known browser signs in even from an address the stranger used up", async () => {
    const res = await signIn(ownersBrowser, STRANGER[0]!, OWNER_PASSWORD)
    expect(res.status).toBe(303)
    // the same address without the cookie is still refused, even with the right password
    const refused = await signIn(new CookieJar(), STRANGER[0]!, OWNER_PASSWORD)
    expect(refused.status).toBe(429)
    expect(pageError(await refused.text())).toBe('too_many_attempts')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  }, 30_000)
})
