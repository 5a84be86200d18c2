import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createSetupToken, getOwnerAccount, verifyOwnerPassword } from '../../src/account/owner-account.ts'
import { listLoginSessions } from '../../src/account/owner-session.ts'
import {
  BASE,
  CookieJar,
  FORM,
  PASSWORD,
  field,
  form,
  logIn,
  newDpopKey,
  obtainTokens,
  openTestPod,
  pageError,
  tokenRequest,
  withToken,
  type TestPod,
} from '../op/op-fixture.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod({ withPassword: false })
})
afterAll(() => pod.close())

const NEW_PASSWORD = 'a long new owner password'

async function openSetup(jar: CookieJar, token: string) {
  const res = jar.take(await pod.request(`/.admin/setup?token=${token}`, { headers: { cookie: jar.header() } }))
  return { res, page: await res.text() }
}
const submit = (jar: CookieJar, fields: Record<string, string>, origin = BASE) =>
  pod.request('/.admin/setup', { method: 'POST', headers: { 'content-type': FORM, cookie: jar.header(), origin }, body: form(fields) })

describe('/.admin/setup: the one-time password setup link', () => {
  test('before setup, the login page says where the setup link is instead of showing a password form', async () => {
    const page = await (await pod.request('/.oidc/login')).text()
    expect(page).not.toContain('type="password"')
    expect(page).toContain('No password is set')
    expect(page).toContain('<code>solopod setup-link</code>')
  })
  test('before setup, a password sent to the login page is refused with 403 setup_required', async () => {
    const jar = new CookieJar()
    const { page } = await openSetup(jar, await createSetupToken(pod.store, pod.clock.now))
    const res = await pod.request('/.oidc/login', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(page, 'csrf'), password: 'anything at all' }),
    })
    expect(res.status).toBe(403)
    const refused = await res.text()
    expect(pageError(refused)).toBe('setup_required')
    // a first-run page: no application is involved, and the way on is a new setup link
    expect(refused).not.toContain('If an application sent you here')
    expect(refused).toContain('<code>solopod setup-link</code>')
  })
  test('GET with a valid token shows the form with a CSRF token', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const { res, page } = await openSetup(new CookieJar(), token)
    expect(res.status).toBe(200)
    expect(page).toContain('type="password"')
    expect(field(page, 'token')).toBe(token)
    expect(field(page, 'csrf')).toMatch(/^[\w-]{43}$/)
  })
  test('GET with an unknown token → 400 invalid_setup_token page', async () => {
    const res = await pod.request('/.admin/setup?token=nope')
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('invalid_setup_token')
  })
  test('POST without the CSRF token → 403 csrf_failed, password unchanged', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const jar = new CookieJar()
    await openSetup(jar, token)
    const res = await submit(jar, { token, password: NEW_PASSWORD, confirm: NEW_PASSWORD })
    expect(res.status).toBe(403)
    expect(pageError(await res.text())).toBe('csrf_failed')
    expect((await getOwnerAccount(pod.store))?.passwordHash).toBeUndefined()
  })
  test('POST from another origin → 403 csrf_failed', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const jar = new CookieJar()
    const { page } = await openSetup(jar, token)
    expect((await submit(jar, { csrf: field(page, 'csrf'), token, password: NEW_PASSWORD, confirm: NEW_PASSWORD }, 'https://evil.example')).status).toBe(403)
  })
  test('two different passwords → 400 passwords_differ', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const jar = new CookieJar()
    const { page } = await openSetup(jar, token)
    const res = await submit(jar, { csrf: field(page, 'csrf'), token, password: NEW_PASSWORD, confirm: `${NEW_PASSWORD}!` })
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('passwords_differ')
  })
  test('a short password → 400 weak_password', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const jar = new CookieJar()
    const { page } = await openSetup(jar, token)
    const res = await submit(jar, { csrf: field(page, 'csrf'), token, password: 'short', confirm: 'short' })
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('weak_password')
  })
  test('a new link replaces the older one: the older answers 400 invalid_setup_token', async () => {
    const older = await createSetupToken(pod.store, pod.clock.now)
    const newer = await createSetupToken(pod.store, pod.clock.now)
    const res = await pod.request(`/.admin/setup?token=${older}`)
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('invalid_setup_token')
    expect((await pod.request(`/.admin/setup?token=${newer}`)).status).toBe(200)
  })
  test('a valid POST sets the password and burns the link', async () => {
    const token = await createSetupToken(pod.store, pod.clock.now)
    const jar = new CookieJar()
    const { page } = await openSetup(jar, token)
    const res = await submit(jar, { csrf: field(page, 'csrf'), token, password: NEW_PASSWORD, confirm: NEW_PASSWORD })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Password set')
    expect(await verifyOwnerPassword(pod.store, NEW_PASSWORD)).toBe(true)
    expect((await pod.request(`/.admin/setup?token=${token}`)).status).toBe(400)
    const again = await submit(jar, { csrf: field(page, 'csrf'), token, password: 'another password 2', confirm: 'another password 2' })
    expect(again.status).toBe(400)
    expect(pageError(await again.text())).toBe('invalid_setup_token')
  })
})

describe('/.admin/setup: a password reset', () => {
  let owned: TestPod
  beforeAll(async () => {
    owned = await openTestPod()
  })
  afterAll(() => owned.close())

  test('signs out every browser and ends the app sessions they approved', async () => {
    const browser = new CookieJar()
    const key = await newDpopKey()
    const { body } = await obtainTokens(owned, browser, key)
    const other = new CookieJar()
    await logIn(owned, other)
    expect((await listLoginSessions(owned.store, owned.clock.now)).length).toBe(2)
    expect((await withToken(owned, key, body.access_token as string, 'GET', '/profile/card')).status).toBe(200)

    const token = await createSetupToken(owned.store, owned.clock.now)
    const jar = new CookieJar()
    const page = await jar.take(await owned.request(`/.admin/setup?token=${token}`)).text()
    const res = await owned.request('/.admin/setup', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(page, 'csrf'), token, password: NEW_PASSWORD, confirm: NEW_PASSWORD }),
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('signed out (2)')

    expect(await listLoginSessions(owned.store, owned.clock.now)).toEqual([])
    const refused = await withToken(owned, key, body.access_token as string, 'GET', '/profile/card')
    expect(refused.status).toBe(401)
    const refresh = await tokenRequest(owned, {
      key,
      fields: { grant_type: 'refresh_token', refresh_token: body.refresh_token as string, client_id: 'https://app.example/id' },
    })
    expect(refresh.status).toBe(400)
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant')
    // the old password no longer signs in; the new one does
    expect(await verifyOwnerPassword(owned.store, PASSWORD)).toBe(false)
    expect(await verifyOwnerPassword(owned.store, NEW_PASSWORD)).toBe(true)
  })
})
