// Issue 37: wrong Basic passwords are limited per credential too, without locking the owner out. Over real HTTP
// behind a trusted proxy (--trust-proxy 127.0.0.1, X-Forwarded-For naming each client): a credential guessed at from
// six addresses (each under its own limit) uses up the credential's; then a wrong password for it is 429 from any
// address, while its right password, the owner's other credential and the dashboard's sign-in still pass.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASIC_LIMITS } from '../../src/auth/basic-credential.ts'
import { CookieJar, FORM, field, form } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { addDavClient, basicAuth, type DavCredential } from './dav-credential.ts'

let pod: RunningPod
let attacked: DavCredential
let other: DavCredential

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--trust-proxy', '127.0.0.1'] })
  attacked = await addDavClient(pod, '--name', 'Phone')
  other = await addDavClient(pod, '--name', 'Laptop')
})
afterAll(() => pod?.dispose())

/** A mounted drive's PROPFIND of the root from `client` (as the proxy names it). */
const propfind = (c: DavCredential, client: string) =>
  fetch(`${pod.baseUrl}/`, {
    method: 'PROPFIND',
    headers: { authorization: basicAuth(c), depth: '0', 'x-forwarded-for': client },
  })

const STRANGER = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5', '198.51.100.6']

describe('a credential under attack from many addresses', () => {
  test(`${BASIC_LIMITS.perCredential.max} wrong passwords from ${STRANGER.length} addresses: each 401 invalid_credentials, then 429 too_many_attempts from anywhere`, async () => {
    // each address stays under its own limit: only the credential's is used up
    expect(Math.ceil(BASIC_LIMITS.perCredential.max / STRANGER.length)).toBeLessThan(BASIC_LIMITS.perAddress.max)
    for (let i = 0; i < BASIC_LIMITS.perCredential.max; i++) {
      const res = await propfind({ id: attacked.id, secret: `guess-${i}` }, STRANGER[i % STRANGER.length]!)
      expect(res.status).toBe(401)
      expect(await res.text()).toStartWith('invalid_credentials:')
    }
    for (const address of [STRANGER[0]!, '198.51.100.99']) {
      const res = await propfind({ id: attacked.id, secret: 'another-guess' }, address)
      expect(res.status).toBe(429)
      expect(await res.text()).toStartWith('too_many_attempts:')
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect(pod.output()).not.toContain(attacked.secret)
  }, 60_000)

  test("the attacked credential's right password still passes, from a fresh address and from one the stranger used", async () => {
    expect((await propfind(attacked, '203.0.113.20')).status).toBe(207)
    expect((await propfind(attacked, STRANGER[1]!)).status).toBe(207)
  })

  test("the owner's other credential passes", async () => {
    expect((await propfind(other, '203.0.113.21')).status).toBe(207)
  })

  test("the dashboard's sign-in with the owner's password: 303 to the dashboard", async () => {
    const jar = new CookieJar()
    const client = '203.0.113.22'
    const page = await jar.take(await fetch(`${pod.baseUrl}/.oidc/login`, { headers: { cookie: jar.header(), 'x-forwarded-for': client } })).text()
    const res = await fetch(`${pod.baseUrl}/.oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: pod.baseUrl, 'x-forwarded-for': client },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${pod.baseUrl}/.admin/`)
  }, 30_000)
})
