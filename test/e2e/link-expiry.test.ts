// Issue 38's last gap over real HTTP and the command line: the owner sets the default and the maximum expiry of share
// links (the Links page's form, `solopod links settings`), and every face that makes a link keeps to them: the share
// page offers only allowed expiries, the default chosen; longer is refused 400 link_expiry_too_long naming the
// maximum, nothing made; the command line says the same sentence and exits 2; the settings survive a restart.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, FORM, form } from '../op/op-fixture.ts'
import { ownerForms, type OwnerForms } from './owner-login.ts'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { ownerScript } from './owner-script.ts'

const DAY_MS = 24 * 60 * 60 * 1000
let pod: RunningPod
let owner: OwnerForms

const url = (path: string) => pod.baseUrl + path
const links = (...args: string[]) => runSolopod('links', ...args, '--data', pod.dataDir)
/** The options of a select, in order, and which is selected. */
const optionsOf = (body: string, id: string) => {
  const select = body.match(new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`, 's'))![1]!
  const options = [...select.matchAll(/<option value="([^"]+)"( selected)?>/g)]
  return { values: options.map(o => o[1]), selected: options.filter(o => o[2]).map(o => o[1]) }
}
const linkCount = async () => (await links('list')).stdout.split('\n').filter(l => l.startsWith('link-')).length
/** The expiry `links list` tells for a link, as a time. */
const expiryOf = async (id: string) => {
  const line = (await links('list')).stdout.split('\n').find(l => l.startsWith(`${id}\t`))!
  return Date.parse(/\texpires (\S+)/.exec(line)![1]!)
}

beforeAll(async () => {
  pod = await startPod()
  const send = await ownerScript(pod)
  expect((await send('PUT', '/private/report.txt', 'the secret report', { 'content-type': 'text/plain' })).status).toBe(201)
  owner = await ownerForms(pod)
}, 60_000)
afterAll(() => pod?.dispose())

describe('until the owner sets them: 7 days by default, at most 365 days, no "never"', () => {
  test('the Links page shows the settings form with the current values chosen', async () => {
    const body = await (await owner.page('/.admin/links')).text()
    expect(body).toContain('action="/.admin/links/settings"')
    expect(body).toContain('Changing these leaves the links already made as they are')
    expect(optionsOf(body, 'default-expiry').selected).toEqual(['7d'])
    expect(optionsOf(body, 'max-expiry')).toEqual({ values: ['1d', '7d', '30d', '90d', '365d', 'none'], selected: ['365d'] })
  })

  test('the share page offers up to 365 days, 7 chosen, and no "never"', async () => {
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(optionsOf(body, 'link-expires')).toEqual({ values: ['1d', '7d', '30d', '90d', '365d'], selected: ['7d'] })
  })

  test('solopod links settings prints them (over the running server)', async () => {
    const r = await links('settings')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('default-expiry=7d\nmax-expiry=365d\n')
  })

  test('a "never" link is refused: 400 link_expiry_too_long on the form, exit 2 at the command line', async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: 'never' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">link_expiry_too_long</code>')
    const r = await links('add', '/private/report.txt', '--expires', 'never')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('a link expires after at most 365 days, the maximum the owner set')
  })
})

describe('the owner sets a default of 3 days and a maximum of 30 on the Links page', () => {
  test('without the CSRF token: 403 csrf_failed, nothing changed', async () => {
    const res = await owner.postForm('/.admin/links/settings', { defaultExpiry: '3d', maxExpiry: '30d' }, { csrf: 'wrong' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('csrf_failed')
    expect((await links('settings')).stdout).toBe('default-expiry=7d\nmax-expiry=365d\n')
  })

  test('a default longer than the maximum: 400 invalid_request naming both, nothing changed', async () => {
    const res = await owner.postForm('/.admin/links/settings', { defaultExpiry: '90d', maxExpiry: '30d' })
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toContain('<code id="error">invalid_request</code>')
    expect(body).toContain('The default expiry (90 days) must not be longer than the maximum (30 days)')
    expect((await links('settings')).stdout).toBe('default-expiry=7d\nmax-expiry=365d\n')
  })

  test('not a duration: 400 invalid_field', async () => {
    const res = await owner.postForm('/.admin/links/settings', { defaultExpiry: '3d', maxExpiry: 'forever' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">invalid_field</code>')
  })

  test('Save: 303 back to the Links page, which says they apply to new links', async () => {
    const res = await owner.postForm('/.admin/links/settings', { defaultExpiry: '3d', maxExpiry: '30d' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/links?done=settings')
    const body = await (await owner.page('/.admin/links?done=settings')).text()
    expect(body).toContain('they apply to new links; the links already made keep their expiry')
    expect(optionsOf(body, 'default-expiry').selected).toEqual(['3d'])
    expect(optionsOf(body, 'max-expiry').selected).toEqual(['30d'])
  })

  test('the share page offers nothing beyond 30 days, 3 days chosen', async () => {
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(optionsOf(body, 'link-expires')).toEqual({ values: ['1d', '3d', '7d', '30d'], selected: ['3d'] })
  })

  test('a form asking for 31 days: 400 link_expiry_too_long naming the maximum, no link made', async () => {
    const before = await linkCount()
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '31d' })
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(body).toContain('<code id="error">link_expiry_too_long</code>')
    expect(body).toContain('A link expires after at most 30 days, the maximum the owner set.')
    expect(body).not.toContain('id="new-link"')
    expect(await linkCount()).toBe(before)
  })

  test('a form with no expiry gets the default; 30 days is allowed', async () => {
    const t0 = Date.now()
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', name: 'no expiry chosen' })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('it expires in 3 days') // 3 days less the moment since, rounded
    expect((await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '30d' })).status).toBe(200)
    const line = (await links('list')).stdout.split('\n').find(l => l.includes('no expiry chosen'))!
    const at = Date.parse(/\texpires (\S+)/.exec(line)![1]!)
    expect(at).toBeGreaterThanOrEqual(t0 + 3 * DAY_MS)
    expect(at).toBeLessThanOrEqual(Date.now() + 3 * DAY_MS)
  })
})

describe('solopod links settings and add keep to the same rule', () => {
  test('add --expires 31d: exit 2 with the sentence, nothing on stdout, no link made', async () => {
    const before = await linkCount()
    const r = await links('add', '/private/report.txt', '--expires', '31d')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('a link expires after at most 30 days, the maximum the owner set')
    expect(await linkCount()).toBe(before)
  })

  test('add without --expires: the default, 3 days', async () => {
    const t0 = Date.now()
    const r = await links('add', '/private/report.txt')
    expect(r.code).toBe(0)
    const id = /^id=(\S+)$/m.exec(r.stdout)![1]!
    const at = await expiryOf(id)
    expect(at).toBeGreaterThanOrEqual(t0 + 3 * DAY_MS)
    expect(at).toBeLessThanOrEqual(Date.now() + 3 * DAY_MS)
  })

  test('settings --default-expiry 60d under the maximum of 30 days: exit 2 with the sentence, nothing changed', async () => {
    const r = await links('settings', '--default-expiry', '60d')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('the default expiry (60 days) must not be longer than the maximum (30 days)')
    expect((await links('settings')).stdout).toBe('default-expiry=3d\nmax-expiry=30d\n')
  })

  test('settings --max-expiry soon: exit 2', async () => {
    const r = await links('settings', '--max-expiry', 'soon')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--max-expiry takes a duration such as 30m, 12h, 7d or 2w, or none')
  })

  test('--max-expiry none: "never" may be chosen, on the command line and on the share page', async () => {
    const r = await links('settings', '--max-expiry', 'none')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('default-expiry=3d\nmax-expiry=none\n')
    const added = await links('add', '/private/report.txt', '--expires', 'never', '--name', 'forever')
    expect(added.code).toBe(0)
    expect((await links('list')).stdout).toMatch(/\tforever\tnever expires\t/)
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(optionsOf(body, 'link-expires')).toEqual({ values: ['1d', '3d', '7d', '30d', '90d', '365d', 'never'], selected: ['3d'] })
  })

  test('lowering the maximum again leaves the "never" link as it was, and the Links page marks it', async () => {
    const r = await links('settings', '--max-expiry', '7d')
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('the links already made keep their expiry')
    expect((await links('list')).stdout).toMatch(/\tforever\tnever expires\t/)
    const body = await (await owner.page('/.admin/links')).text()
    expect(body).toContain('(beyond your maximum)')
    expect(body).toContain('longer than your maximum now allows: a lower maximum applies to new links only')
  })
})

describe('the settings are kept in the store', () => {
  test('they survive a restart, read on the stopped pod and by the server again', async () => {
    await pod.stop()
    const offline = await links('settings')
    expect(offline.code).toBe(0)
    expect(offline.stdout).toBe('default-expiry=3d\nmax-expiry=7d\n')
    // a change on the stopped pod is what the server reads when it starts
    expect((await links('settings', '--default-expiry', '2d')).code).toBe(0)
    await pod.restart()
    owner = await ownerForms(pod)
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(optionsOf(body, 'link-expires')).toEqual({ values: ['1d', '2d', '7d'], selected: ['2d'] })
    expect((await links('settings')).stdout).toBe('default-expiry=2d\nmax-expiry=7d\n')
  })

  test('a stranger is sent to sign in, and may not post the settings', async () => {
    const res = await owner.page('/.admin/links', new CookieJar())
    expect(res.status).toBe(303)
    const post = await fetch(url('/.admin/links/settings'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, origin: pod.baseUrl },
      body: form({ csrf: 'x', defaultExpiry: '1d', maxExpiry: 'none' }),
    })
    expect(post.status).toBe(401)
    expect(await post.text()).toContain('login_required')
  })
})

describe("the owner API's /.admin/api/link-settings: the same settings as JSON", () => {
  const api = (method: string, body?: unknown, o: { csrf?: string } = {}) =>
    fetch(url('/.admin/api/link-settings'), {
      method,
      headers: {
        cookie: owner.jar.header(),
        'x-csrf-token': o.csrf ?? owner.csrf,
        origin: pod.baseUrl,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })

  test('GET: the current values', async () => {
    const res = await api('GET')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ defaultExpiry: '2d', maxExpiry: '7d' })
  })

  test('PUT a default longer than the maximum: 400 invalid_request naming both, nothing changed', async () => {
    const res = await api('PUT', { defaultExpiry: '30d' })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toBe('invalid_request')
    expect(body.error_description).toContain('the default expiry (30 days) must not be longer than the maximum (7 days)')
    expect(await (await api('GET')).json()).toEqual({ defaultExpiry: '2d', maxExpiry: '7d' })
  })

  test('PUT not a duration: 400 invalid_request naming the field', async () => {
    const res = await api('PUT', { maxExpiry: 'soon' })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toBe('invalid_request')
    expect(body.error_description).toContain('maxExpiry takes a duration such as 30m, 12h, 7d or 2w, or none')
  })

  test('PUT without the CSRF header: 403 csrf_failed', async () => {
    const res = await api('PUT', { maxExpiry: 'none' }, { csrf: 'wrong' })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
  })

  test('PUT 2w for both: 200 with the values; a link for 15 days is then 400 link_expiry_too_long naming 14 days', async () => {
    const res = await api('PUT', { defaultExpiry: '2w', maxExpiry: '2w' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ defaultExpiry: '14d', maxExpiry: '14d' })
    const refused = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '15d' })
    expect(refused.status).toBe(400)
    const page = await refused.text()
    expect(page).toContain('<code id="error">link_expiry_too_long</code>')
    expect(page).toContain('A link expires after at most 14 days, the maximum the owner set.')
  })
})
