import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { revokeConsent } from '../../src/account/consents.ts'
import {
  APP_ID,
  APP_REDIRECT,
  BASE,
  CookieJar,
  FORM,
  PASSWORD,
  WEBID,
  authorize,
  authorizeUrl,
  field,
  form,
  logIn,
  openTestPod,
  pageError,
  type TestPod,
} from './op-fixture.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod()
})
afterAll(() => pod.close())

/** A new authorization request in a browser without a session: the interaction id and the login page. */
async function startFlow(jar: CookieJar) {
  const res = jar.take(await pod.request(authorizeUrl(), { headers: { cookie: jar.header() } }))
  const interaction = new URL(res.headers.get('location')!).searchParams.get('interaction')!
  const page = await jar.take(await pod.request(`/.oidc/login?interaction=${interaction}`, { headers: { cookie: jar.header() } })).text()
  return { interaction, page }
}

const postLogin = (jar: CookieJar, fields: Record<string, string>, headers: Record<string, string> = {}, address?: string) => {
  const req = new Request(`${BASE}/.oidc/login`, {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE, ...headers },
    body: form(fields),
  })
  pod.deps.clientAddresses.record(req, () => (address === undefined ? undefined : { ip: address, local: false }))
  return pod.handle(req)
}

describe('login page', () => {
  test('shows a password form with a CSRF token and the client it continues to', async () => {
    const jar = new CookieJar()
    const { page } = await startFlow(jar)
    expect(page).toContain('type="password"')
    expect(page).toContain('Example App')
    expect(page.replaceAll('<wbr>', '')).toContain(WEBID)
    expect(field(page, 'csrf')).toMatch(/^[\w-]{43}$/)
    expect(page).not.toContain('<script')
  })
  test('the right password sets an HttpOnly, SameSite=Lax session cookie (not Secure over http) and continues to consent', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const res = await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: PASSWORD })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toStartWith(`${BASE}/.oidc/consent?interaction=`)
    const cookie = res.headers.getSetCookie().find(c => c.startsWith('solopod_session='))!
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(cookie).not.toContain('Secure')
  })
  test('a wrong password → 401 with the login page again, no session, counted in the metrics', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const failures = () => Number(/^solopod_login_failures_total (\d+)$/m.exec(pod.deps.metrics.render())![1])
    const before = failures()
    const res = await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: 'wrong password' })
    expect(res.status).toBe(401)
    expect(failures()).toBe(before + 1)
    const again = await res.text()
    expect(pageError(again)).toBe('invalid_credentials')
    expect(again).toContain('type="password"')
    expect(res.headers.getSetCookie().some(c => c.startsWith('solopod_session='))).toBe(false)
  })
  test('a missing CSRF token → 403 csrf_failed', async () => {
    const jar = new CookieJar()
    const { interaction } = await startFlow(jar)
    const res = await postLogin(jar, { interaction, password: PASSWORD })
    expect(res.status).toBe(403)
    expect(pageError(await res.text())).toBe('csrf_failed')
  })
  test('a CSRF token that is not the cookie → 403 csrf_failed', async () => {
    const jar = new CookieJar()
    const { interaction } = await startFlow(jar)
    const res = await postLogin(jar, { csrf: 'A'.repeat(43), interaction, password: PASSWORD })
    expect(res.status).toBe(403)
  })
  test('a post from another origin → 403 csrf_failed', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const res = await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: PASSWORD }, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(pageError(await res.text())).toBe('csrf_failed')
  })
  test('an unknown interaction → 400 interaction_expired', async () => {
    const res = await pod.request('/.oidc/login?interaction=AAAAAAAAAAAAAAAAAAAAAA')
    expect(res.status).toBe(400)
    expect(pageError(await res.text())).toBe('interaction_expired')
  })
  test('an interaction older than 10 minutes is gone', async () => {
    const jar = new CookieJar()
    const { interaction } = await startFlow(jar)
    pod.clock.now += 11 * 60_000
    try {
      expect((await pod.request(`/.oidc/login?interaction=${interaction}`)).status).toBe(400)
    } finally {
      pod.clock.now -= 11 * 60_000
    }
  })
  test('without an interaction or a return page, login lands on the dashboard', async () => {
    const jar = new CookieJar()
    const res = await logIn(pod, jar)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.admin/`)
  })
  test('the return target cannot leave the owner pages (no open redirect)', async () => {
    const jar = new CookieJar()
    const page = await jar.take(await pod.request('/.oidc/login?return=https://evil.example/', { headers: { cookie: jar.header() } })).text()
    expect(field(page, 'return')).toBe('/.admin/')
    const res = await postLogin(jar, { csrf: field(page, 'csrf'), return: '//evil.example/x', password: PASSWORD })
    expect(res.headers.get('location')).toBe(`${BASE}/.admin/`)
  })
  test('a login logs nothing secret', async () => {
    const jar = new CookieJar()
    const { interaction, page } = await startFlow(jar)
    const lines: string[] = []
    const { setLogLevel } = await import('../../src/log.ts')
    const [origLog, origError] = [console.log, console.error]
    console.log = (l: string) => lines.push(l)
    console.error = (l: string) => lines.push(l)
    setLogLevel('debug')
    try {
      await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: 'wrong password' })
      await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: PASSWORD })
    } finally {
      console.log = origLog
      console.error = origError
      setLogLevel('silent')
    }
    const all = lines.join('\n')
    expect(all).toContain('op.login')
    expect(all).not.toContain(PASSWORD)
    expect(all).not.toContain('wrong password')
    expect(all).not.toContain(field(page, 'csrf'))
    for (const value of jar.cookies.values()) expect(all).not.toContain(value)
  })
})

describe('consent page', () => {
  async function toConsent(jar: CookieJar) {
    const { interaction, page } = await startFlow(jar)
    const res = jar.take(await postLogin(jar, { csrf: field(page, 'csrf'), interaction, password: PASSWORD }))
    const consent = await jar.take(await pod.request(res.headers.get('location')!, { headers: { cookie: jar.header() } })).text()
    return { interaction, consent }
  }
  test("shows the client's name, logo, URI and every requested scope", async () => {
    const { consent } = await toConsent(new CookieJar())
    expect(consent).toContain('Example App')
    expect(consent).toContain('<img src="https://app.example/logo.png" alt="">')
    expect(consent).toContain('href="https://app.example/"')
    expect(consent.replaceAll('<wbr>', '')).toContain(APP_ID)
    for (const s of ['openid', 'webid', 'offline_access']) expect(consent).toContain(`<code>${s}</code>`)
  })
  test('an https app with a Client ID Document is not flagged as unverified', async () => {
    const { consent } = await toConsent(new CookieJar())
    expect(consent).not.toContain('Unverified application')
  })
  test('escapes what the client document says (no HTML injection)', async () => {
    pod.docs.set('https://app.example/xss', {
      body: JSON.stringify({
        '@context': 'https://www.w3.org/ns/solid/oidc-context.jsonld',
        client_id: 'https://app.example/xss',
        redirect_uris: [APP_REDIRECT],
        client_name: '<script>alert(1)</script>',
        logo_uri: 'javascript:alert(1)',
      }),
      type: 'application/ld+json',
    })
    const jar = new CookieJar()
    await logIn(pod, jar)
    const res = await pod.request(authorizeUrl({ client_id: 'https://app.example/xss' }), { headers: { cookie: jar.header() } })
    const consent = await (await pod.request(res.headers.get('location')!, { headers: { cookie: jar.header() } })).text()
    expect(consent).not.toContain('<script>alert')
    expect(consent).toContain('&lt;script&gt;')
    expect(consent).not.toContain('javascript:')
  })
  test('deny → redirect with access_denied, state and iss', async () => {
    const jar = new CookieJar()
    const { interaction, consent } = await toConsent(jar)
    const res = await pod.request('/.oidc/consent', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(consent, 'csrf'), interaction, decision: 'deny' }),
    })
    expect(res.status).toBe(303)
    const url = new URL(res.headers.get('location')!)
    expect(url.origin + url.pathname).toBe(APP_REDIRECT)
    expect(url.searchParams.get('error')).toBe('access_denied')
    expect(url.searchParams.get('state')).toBe('st-1')
    expect(url.searchParams.get('iss')).toBe(BASE)
  })
  test('approve → code, and the consent is remembered for the next request of this client', async () => {
    const jar = new CookieJar()
    const first = await authorize(pod, jar)
    expect(first.searchParams.get('code')).toBeTruthy()
    const again = await pod.request(authorizeUrl(), { headers: { cookie: jar.header() } })
    expect(again.status).toBe(302)
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })
  test('after the answer, the back button to the consent or login page says the sign-in is over and links to the app', async () => {
    await revokeConsent(pod.store, APP_ID, pod.clock.now)
    const jar = new CookieJar()
    const { interaction, consent } = await toConsent(jar)
    const answered = await pod.request('/.oidc/consent', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(consent, 'csrf'), interaction, decision: 'approve' }),
    })
    expect(new URL(answered.headers.get('location')!).searchParams.get('code')).toBeTruthy()
    for (const path of [`/.oidc/consent?interaction=${interaction}`, `/.oidc/login?interaction=${interaction}`]) {
      const res = await pod.request(path, { headers: { cookie: jar.header() } })
      expect(res.status).toBe(200)
      const page = await res.text()
      expect(page).toContain('This sign-in is already over')
      expect(page).toContain(`href="${new URL(APP_REDIRECT).origin}/"`)
    }
    // submitting the old form again issues nothing
    const again = await pod.request('/.oidc/consent', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(consent, 'csrf'), interaction, decision: 'approve' }),
    })
    expect(again.status).toBe(200)
    expect(again.headers.get('location')).toBeNull()
    expect(await again.text()).toContain('This sign-in is already over')
  })
  test('a consent POST without the CSRF token → 403', async () => {
    const jar = new CookieJar()
    const { interaction } = await toConsent(jar)
    const res = await pod.request('/.oidc/consent', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header() },
      body: form({ interaction, decision: 'approve' }),
    })
    expect(res.status).toBe(403)
    expect(pageError(await res.text())).toBe('csrf_failed')
  })
  test('the consent page without a session sends the browser to login', async () => {
    const jar = new CookieJar()
    const { interaction } = await startFlow(jar)
    const res = await pod.request(`/.oidc/consent?interaction=${interaction}`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?interaction=${interaction}`)
  })
  test('the code redirect after consent carries code, state and iss', async () => {
    const url = await authorize(pod, new CookieJar())
    expect(url.origin + url.pathname).toBe(APP_REDIRECT)
    expect(url.searchParams.get('state')).toBe('st-1')
    expect(url.searchParams.get('iss')).toBe(BASE)
  })
})
