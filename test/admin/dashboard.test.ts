// The owner's dashboard (/.admin/): the page and its script, the owner API it reads, and the owner's
// cookie + CSRF token on the resource server's own LDP endpoints.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, CookieJar, WEBID, logIn, openTestPod, type TestPod } from '../op/op-fixture.ts'

let pod: TestPod
let owner: CookieJar
let csrf: string
beforeAll(async () => {
  pod = await openTestPod()
  owner = new CookieJar()
  await logIn(pod, owner)
  const page = owner.take(await pod.request('/.admin/', { headers: { cookie: owner.header() } }))
  csrf = /data-csrf="([^"]+)"/.exec(await page.text())![1]!
})
afterAll(() => pod.close())

interface Opts {
  body?: string
  type?: string
  csrf?: string | false
  origin?: string
  jar?: CookieJar
  headers?: Record<string, string>
}
function call(method: string, path: string, o: Opts = {}) {
  const jar = o.jar ?? owner
  return pod.request(path, {
    method,
    headers: {
      cookie: jar.header(),
      ...(o.origin ? { origin: o.origin } : {}),
      ...(o.csrf === false ? {} : { 'x-csrf-token': o.csrf ?? csrf }),
      ...(o.type ? { 'content-type': o.type } : {}),
      ...o.headers,
    },
    ...(o.body !== undefined ? { body: o.body } : {}),
  })
}
/** The code of a refusal: the owner API answers JSON `{ error }`, the RS `code: description` to a client that asks for no problem details. */
const codeOf = async (res: Response) => {
  const text = await res.text()
  return res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as { error: string }).error : text.split(':')[0]
}
const json = async <T = Record<string, unknown>>(res: Response) => {
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

describe('the dashboard page', () => {
  test('without a session → 303 to the sign-in page coming back to /.admin/', async () => {
    const res = await pod.request('/.admin/')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=/.admin/`)
  })
  test("the owner gets the Files page, which works without script; its CSP runs only the pod's own dashboard script and is never framed", async () => {
    const res = await call('GET', '/.admin/', { csrf: false })
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain(`script-src ${BASE}/.admin/app.js;`)
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    const page = await res.text()
    // the script by its bundle's version (the policy above names its path: a source expression has no query)
    expect(page).toMatch(new RegExp(`<script type="module" src="${BASE}/\\.admin/app\\.js\\?v=[0-9a-f]{16}"></script>`))
    // one dashboard: the page itself lists the root's items and links every section, with or without script
    expect(page).toContain('<h1>Your files</h1>')
    expect(page).toContain('href="/.admin/files?path=%2Fprofile%2F"')
    for (const href of ['/.admin/files', '/.admin/sessions', '/.admin/profile', '/.admin/backup', '/.admin/grants', '/.admin/keys'])
      expect(page).toContain(`href="${href}"`)
  })
  test('the script named by its version is kept for good; by its path alone, or an old version, it is revalidated (ETag, 304)', async () => {
    const page = await (await pod.request('/.admin/', { headers: { cookie: owner.header() } })).text()
    const version = /app\.js\?v=([0-9a-f]{16})/.exec(page)?.[1]
    expect(version).toBeDefined()
    const current = await pod.request(`/.admin/app.js?v=${version}`)
    expect(current.status).toBe(200)
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(current.headers.get('etag')).toBe(`"${version}"`)
    const body = await current.text()
    // the version is the bundle's own digest: another bundle, another URL
    expect(new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 16)).toBe(version!)
    for (const path of ['/.admin/app.js', '/.admin/app.js?v=0000000000000000']) {
      const res = await pod.request(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toBe(body)
      const again = await pod.request(path, { headers: { 'if-none-match': `W/"x", "${version}"` } })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe(`"${version}"`)
      expect(await again.text()).toBe('')
    }
    expect((await pod.request('/.admin/app.js', { headers: { 'if-none-match': '"0000000000000000"' } })).status).toBe(200)
  })
  test('the script is one bundle: no import left, nothing loaded from elsewhere', async () => {
    const res = await pod.request('/.admin/app.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const js = await res.text()
    expect(js.length).toBeGreaterThan(500)
    // an ES import statement or call (the panel's text may name `solopod import FILE`)
    expect(js).not.toMatch(/\bimport\s*[{("'*]|\bimport\s+[\w$]+\s+from\b|\bimport\(/)
    expect(js).toContain('x-csrf-token')
  })
})

describe('the owner API of the dashboard is for the owner only', () => {
  for (const path of ['/.admin/api/browse?path=/', '/.admin/api/acl?path=/', '/.admin/api/profile']) {
    test(`${path} without a session → 401 login_required`, async () => {
      const res = await pod.request(path)
      expect(res.status).toBe(401)
      expect(await codeOf(res)).toBe('login_required')
    })
    test(`${path} from another origin → 403 csrf_failed`, async () => {
      const res = await call('GET', path, { origin: 'https://evil.example' })
      expect(res.status).toBe(403)
      expect(await codeOf(res)).toBe('csrf_failed')
    })
  }
  test('check-rdf without the CSRF token → 403 csrf_failed', async () => {
    const res = await call('POST', '/.admin/api/check-rdf', { csrf: false, type: 'application/json', body: '{}' })
    expect(res.status).toBe(403)
    expect(await codeOf(res)).toBe('csrf_failed')
  })
})

describe('the owner cookie on the resource server (auth/owner-cookie.ts)', () => {
  test('cookie + CSRF token: the owner writes and reads a private document', async () => {
    const put = await call('PUT', '/notes/secret.txt', { type: 'text/plain', body: 'hello' })
    expect(put.status).toBe(201)
    const get = await call('GET', '/notes/secret.txt')
    expect(get.status).toBe(200)
    expect(await get.text()).toBe('hello')
  })
  test('the cookie alone (a link or form from elsewhere) is anonymous → 401 unauthenticated', async () => {
    const res = await call('GET', '/notes/secret.txt', { csrf: false })
    expect(res.status).toBe(401)
    expect(await codeOf(res)).toBe('unauthenticated')
    const del = await call('DELETE', '/notes/secret.txt', { csrf: false })
    expect(del.status).toBe(401)
  })
  test('a wrong CSRF token → 403 csrf_failed and nothing changes', async () => {
    const res = await call('DELETE', '/notes/secret.txt', { csrf: 'x'.repeat(43) })
    expect(res.status).toBe(403)
    expect(await codeOf(res)).toBe('csrf_failed')
    expect((await call('GET', '/notes/secret.txt')).status).toBe(200)
  })
  test('from another origin, even with the token → 403 csrf_failed', async () => {
    const res = await call('GET', '/notes/secret.txt', { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await codeOf(res)).toBe('csrf_failed')
  })
  test('the token without a live session is anonymous → 401', async () => {
    const stranger = new CookieJar()
    const res = await pod.request('/notes/secret.txt', {
      headers: { cookie: owner.header().replace(/solopod_session=[^;]+/, 'solopod_session=' + 'A'.repeat(43)), 'x-csrf-token': csrf },
    })
    expect(res.status).toBe(401)
    expect(stranger.header()).toBe('')
  })
  test("removing the owner's Control of the root is refused → 409 owner_lockout", async () => {
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n<#r> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <${BASE}/>; acl:mode acl:Read.`
    const res = await call('PUT', '/.acl', { type: 'text/turtle', body: acl })
    expect(res.status).toBe(409)
    expect(await codeOf(res)).toBe('owner_lockout')
  })
})

describe('browse: a container one page at a time', () => {
  interface Page {
    count: number
    countIsExact: boolean
    next: string | null
    prev: string | null
    items: { path: string; kind: string; contentType: string; size: number; modified: string }[]
  }
  const browse = async (query: string) => json<Page>(await call('GET', `/.admin/api/browse?path=/many/&limit=5${query}`))
  test('members with kind, type, size and date; paged by cursor and limit, with the count', async () => {
    for (let i = 0; i < 12; i++)
      expect((await call('PUT', `/many/f${String(i).padStart(2, '0')}.txt`, { type: 'text/plain', body: 'x'.repeat(i) })).status).toBe(201)
    const first = await browse('')
    expect({ count: first.count, exact: first.countIsExact, prev: first.prev, next: first.next }).toEqual({
      count: 12,
      exact: true,
      prev: null,
      next: '/many/f04.txt',
    })
    expect(first.items.map(i => i.path)).toEqual(['/many/f00.txt', '/many/f01.txt', '/many/f02.txt', '/many/f03.txt', '/many/f04.txt'])
    expect(first.items[3]).toMatchObject({ kind: 'binary', contentType: 'text/plain', size: 3 })
    expect(Date.parse(first.items[0]!.modified)).toBeGreaterThan(0)
    const second = await browse(`&after=${encodeURIComponent(first.next!)}`)
    expect(second.prev).toBe('/many/f05.txt')
    const last = await browse(`&after=${encodeURIComponent(second.next!)}`)
    expect({ items: last.items.map(i => i.path), next: last.next }).toEqual({ items: ['/many/f10.txt', '/many/f11.txt'], next: null })
    const back = await browse(`&before=${encodeURIComponent(last.prev!)}`)
    expect(back.items.map(i => i.path)).toEqual(second.items.map(i => i.path))
  })
  test('a page does not shift when members are added before it', async () => {
    const first = await browse('')
    expect((await call('PUT', '/many/a-new.txt', { type: 'text/plain', body: 'new' })).status).toBe(201)
    const second = await browse(`&after=${encodeURIComponent(first.next!)}`)
    expect(second.items[0]!.path).toBe('/many/f05.txt')
    expect((await call('DELETE', '/many/a-new.txt')).status).toBe(204)
  })
  test('the root lists containers and documents, never ACLs', async () => {
    const root = await json<{ items: { path: string; kind: string }[] }>(await call('GET', '/.admin/api/browse?path=/'))
    expect(root.items).toContainEqual(expect.objectContaining({ path: '/profile/', kind: 'container' }))
    expect(root.items.some(i => i.path.endsWith('.acl'))).toBe(false)
  })
  const bad: [string, number, string][] = [
    ['path=notes/', 400, 'invalid_path'],
    ['path=/a/../', 400, 'invalid_path'],
    ['path=/notes/secret.txt', 400, 'not_a_container'],
    ['path=/nothing/', 404, 'not_found'],
    ['path=/&limit=-1', 400, 'invalid_query'],
    ['path=/many/&after=/other/x', 400, 'invalid_query'],
    ['path=/many/&after=f01.txt', 400, 'invalid_query'],
    ['path=/many/&before=/many/sub/f01.txt', 400, 'invalid_query'],
    ['path=/many/&after=/many/f01.txt&before=/many/f05.txt', 400, 'invalid_query'],
  ]
  for (const [query, status, code] of bad) {
    test(`?${query} → ${status} ${code}`, async () => {
      const res = await call('GET', `/.admin/api/browse?${query}`)
      expect(res.status).toBe(status)
      expect(await codeOf(res)).toBe(code)
    })
  }
})

describe('check-rdf: the parser error at its line, nothing saved', () => {
  test('valid Turtle → ok with the triple count', async () => {
    const res = await call('POST', '/.admin/api/check-rdf', {
      type: 'application/json',
      body: JSON.stringify({ text: '<a> <b> <c>.', contentType: 'text/turtle', base: `${BASE}/x` }),
    })
    expect(await json(res)).toEqual({ ok: true, triples: 1 })
  })
  test('a syntax error → its line and column', async () => {
    const text = '@prefix ex: <http://ex.example/>.\n<a> ex:b <c>.\n<a> ex:b "unterminated .\n'
    const r = await json(
      await call('POST', '/.admin/api/check-rdf', { type: 'application/json', body: JSON.stringify({ text, contentType: 'text/turtle', base: `${BASE}/x` }) }),
    )
    expect(r).toMatchObject({ ok: false, code: 'invalid_rdf', line: 3 })
    expect(String(r.message)).toContain('line 3')
  })
  test('a body without text → 400 invalid_request', async () => {
    const res = await call('POST', '/.admin/api/check-rdf', { type: 'application/json', body: '{"text": 1}' })
    expect(res.status).toBe(400)
    expect(await codeOf(res)).toBe('invalid_request')
  })
})

describe('acl: own and inherited access as rows', () => {
  test('a document without an ACL inherits the defaults of the root', async () => {
    const v = await json<{ own: unknown; inherited: { from: string; rows: { agents: string[]; modes: string[]; inside: boolean }[] } }>(
      await call('GET', '/.admin/api/acl?path=/notes/secret.txt'),
    )
    expect(v.own).toBeNull()
    expect(v.inherited.from).toBe(`${BASE}/`)
    expect(v.inherited.rows).toContainEqual(expect.objectContaining({ agents: [WEBID], modes: expect.arrayContaining(['read', 'write', 'control']) }))
  })
  test('its own ACL, once written, with "this item" and public read', async () => {
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n@prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <${BASE}/notes/secret.txt>; acl:mode acl:Read, acl:Write, acl:Control.
<#p> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${BASE}/notes/secret.txt>; acl:mode acl:Read.`
    expect((await call('PUT', '/notes/secret.txt.acl', { type: 'text/turtle', body: acl })).status).toBe(201)
    const v = await json<{ own: unknown[] }>(await call('GET', '/.admin/api/acl?path=/notes/secret.txt'))
    expect(v.own).toContainEqual({
      agents: [],
      agentClasses: ['http://xmlns.com/foaf/0.1/Agent'],
      groups: [],
      origins: [],
      keys: [],
      conditions: [],
      modes: ['read'],
      thisItem: true,
      inside: false,
    })
    expect((await pod.request('/notes/secret.txt')).status).toBe(200) // the public reads it now
    expect((v as unknown as { notEditable: unknown }).notEditable).toEqual({ count: 0, statements: [] })
  })
  test('what the editor cannot show (notes, other targets, unknown modes, foreign rules) is listed: Save would drop it', async () => {
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
# a Turtle comment is never stored: the pod keeps the statements
<#o> a acl:Authorization; rdfs:comment "the owner, always"; acl:agent <${WEBID}>; acl:accessTo <${BASE}/notes/secret.txt>, <${BASE}/elsewhere>;
  acl:mode acl:Read, acl:Write, acl:Control, <http://example.org/Fly>;
  acl:agent [ <http://www.w3.org/ns/auth/cert#key> <${BASE}/keys/k#key> ].
<#other> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <${BASE}/other.txt>; acl:mode acl:Read.`
    expect((await call('PUT', '/notes/secret.txt.acl', { type: 'text/turtle', body: acl })).status).toBe(204)
    const v = await json<{ notEditable: { count: number; statements: string[] } }>(await call('GET', '/.admin/api/acl?path=/notes/secret.txt'))
    expect(v.notEditable.statements.sort()).toEqual(
      [
        `<#o> acl:accessTo <${BASE}/elsewhere>.`,
        '<#o> acl:mode <http://example.org/Fly>.',
        '<#o> rdfs:comment "the owner, always".',
        `<#other> acl:accessTo <${BASE}/other.txt>.`,
        '<#other> acl:agentClass foaf:Agent.',
        '<#other> acl:mode acl:Read.',
        '<#other> rdf:type acl:Authorization.',
      ].sort(),
    )
    expect(v.notEditable.count).toBe(7)
  })
  test('a missing resource → 404 not_found', async () => {
    const res = await call('GET', '/.admin/api/acl?path=/nope')
    expect(res.status).toBe(404)
    expect(await codeOf(res)).toBe('not_found')
  })
})

describe('profile: fields of the WebID document, saved by N3 Patch through the RS', () => {
  test('reads, patches, reads back', async () => {
    const before = await json<{ webid: string; fields: Record<string, { value: string | null }> }>(await call('GET', '/.admin/api/profile'))
    expect(before.webid).toBe(WEBID)
    expect(before.fields.name!.value).toBeNull()
    const patch = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.\n_:p a solid:InsertDeletePatch; solid:inserts { <${WEBID}> <http://xmlns.com/foaf/0.1/name> "Ada". }.`
    expect((await call('PATCH', '/profile/card', { type: 'text/n3', body: patch })).status).toBe(204)
    const after = await json<{ fields: Record<string, { value: string | null }> }>(await call('GET', '/.admin/api/profile'))
    expect(after.fields.name!.value).toBe('Ada')
  })
})
