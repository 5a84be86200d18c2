import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { LOGIN_LIMITS } from '../../src/op/login.ts'
import { BASE, CookieJar, FORM, PASSWORD, authorizeUrl, field, form, openTestPod, pageError, type TestPod } from './op-fixture.ts'

let pod: TestPod

async function startFlow(jar: CookieJar) {
  const res = jar.take(await pod.request(authorizeUrl(), { headers: { cookie: jar.header() } }))
  const interaction = new URL(res.headers.get('location')!).searchParams.get('interaction')!
  const page = await jar.take(await pod.request(`/.oidc/login?interaction=${interaction}`, { headers: { cookie: jar.header() } })).text()
  return { interaction, page }
}

const postLogin = (jar: CookieJar, fields: Record<string, string>, address?: string) => {
  const req = new Request(`${BASE}/.oidc/login`, { method: 'POST', headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE }, body: form(fields) })
  pod.deps.clientAddresses.record(req, () => (address === undefined ? undefined : { ip: address, local: false }))
  return pod.handle(req)
}

describe('login rate limiting', () => {
  // each test starts with a fresh pod: the limiter lives in the plugin
  beforeEach(async () => {
    pod = await openTestPod()
  })
  afterEach(() => pod.close())
  test(`per client address: after ${LOGIN_LIMITS.perAddress.max} failures → 429 with Retry-After, even with the right password`, async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const csrf = field(page, 'csrf')
    for (let i = 0; i < LOGIN_LIMITS.perAddress.max; i++) expect((await postLogin(jar, { csrf, interaction, password: 'nope' }, '10.0.0.1')).status).toBe(401)
    const res = await postLogin(jar, { csrf, interaction, password: PASSWORD }, '10.0.0.1')
    expect(res.status).toBe(429)
    expect(pageError(await res.text())).toBe('too_many_attempts')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // another address is not blocked
    expect((await postLogin(jar, { csrf, interaction, password: PASSWORD }, '10.0.0.2')).status).toBe(303)
    // the window ends
    pod.clock.now += LOGIN_LIMITS.perAddress.windowMs
    try {
      expect((await postLogin(jar, { csrf, password: PASSWORD }, '10.0.0.1')).status).toBe(303)
    } finally {
      pod.clock.now -= LOGIN_LIMITS.perAddress.windowMs
    }
  }, 30_000) // 11 real argon2id verifications: seconds on a loaded 2-core machine
  test('an IPv6 client is counted by its /64: fresh addresses of one block share its limit', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const csrf = field(page, 'csrf')
    for (let i = 0; i < LOGIN_LIMITS.perAddress.max; i++) {
      expect((await postLogin(jar, { csrf, interaction, password: 'nope' }, `2001:db8:5:6::${(i + 1).toString(16)}`)).status).toBe(401)
    }
    const res = await postLogin(jar, { csrf, interaction, password: 'nope' }, '2001:db8:5:6:ffff:1:2:3')
    expect(res.status).toBe(429)
    expect(pageError(await res.text())).toBe('too_many_attempts')
    // the next /64 is another client
    expect((await postLogin(jar, { csrf, interaction, password: PASSWORD }, '2001:db8:5:7::1')).status).toBe(303)
  }, 30_000)
  test('attempts are counted before the password is checked: 20 wrong passwords at once give at most 10 × 401, the rest 429', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const csrf = field(page, 'csrf')
    const answers = await Promise.all(Array.from({ length: 20 }, () => postLogin(jar, { csrf, interaction, password: 'nope' }, '10.0.0.3')))
    const statuses = answers.map(r => r.status)
    expect(statuses.filter(s => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAddress.max)
    expect(statuses.filter(s => s === 429).length).toBe(20 - statuses.filter(s => s === 401).length)
    expect(statuses.filter(s => s === 429).length).toBeGreaterThanOrEqual(20 - LOGIN_LIMITS.perAddress.max)
    const refused = answers.find(r => r.status === 429)!
    expect(pageError(await refused.text())).toBe('too_many_attempts')
  }, 60_000)
  test(`per account: after ${LOGIN_LIMITS.perAccount.max} failures from many addresses, a wrong password from a fresh one is 429, the right one still signs in`, async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const csrf = field(page, 'csrf')
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max; i++) await postLogin(jar, { csrf, interaction, password: 'nope' }, `10.1.${i}.1`)
    const refused = await postLogin(jar, { csrf, interaction, password: 'nope' }, '10.9.9.8')
    expect(refused.status).toBe(429)
    expect(pageError(await refused.text())).toBe('too_many_attempts')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await postLogin(jar, { csrf, interaction, password: PASSWORD }, '10.9.9.9')).status).toBe(303)
  }, 60_000) // every failure is a real argon2id verification
  test('strangers together: past their cap a browser not known before is refused before its password is compared; a known one still signs in', async () => {
    const saved = LOGIN_LIMITS.unknownDevices.max
    LOGIN_LIMITS.unknownDevices.max = 3
    try {
      const owner = new CookieJar()
      const first = await startFlow(owner)
      // its answer sets the known-device cookie
      expect(
        owner.take(await postLogin(owner, { csrf: field(first.page, 'csrf'), interaction: first.interaction, password: PASSWORD }, '10.2.0.1')).status,
      ).toBe(303)
      const newBrowser = new CookieJar()
      const { interaction, page } = await startFlow(newBrowser)
      const csrf = field(page, 'csrf')
      for (let i = 0; i < 3; i++) expect((await postLogin(newBrowser, { csrf, interaction, password: 'nope' }, `10.3.${i}.1`)).status).toBe(401)
      const refused = await postLogin(newBrowser, { csrf, interaction, password: PASSWORD }, '10.3.9.9')
      expect(refused.status).toBe(429)
      expect(pageError(await refused.text())).toBe('too_many_attempts')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // the owner's browser that signed in before is never refused, from the same fresh address too
      const again = await startFlow(owner)
      expect((await postLogin(owner, { csrf: field(again.page, 'csrf'), interaction: again.interaction, password: PASSWORD }, '10.3.9.9')).status).toBe(303)
    } finally {
      LOGIN_LIMITS.unknownDevices.max = saved
    }
  }, 60_000)
})
