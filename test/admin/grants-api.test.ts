import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { grantDataJsonSchema, type GrantData } from '../../src/policy/grant-schema.ts'
import { quadsToGrant } from '../../src/policy/grant-rdf.ts'
import { parseRdf } from '../../src/rdf/parse-rdf.ts'
import { ACL, BOB, INTEROP, POD, TREES, grant, inheriting } from '../policy/grant-fixture.ts'

let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(POD)
})
afterAll(() => pod.close())

const create = (g: unknown) => pod.api('POST', '/.admin/api/grants', { body: g })
const listAll = async (q = '') => (await (await pod.api('GET', `/.admin/api/grants${q}`)).json()).grants as { iri: string; grant: GrantData }[]
const pathOf = (iri: string) => new URL(iri).pathname

describe('GET /.admin/schemas/grant-data.json', () => {
  test('is public JSON Schema (application/schema+json) with CORS', async () => {
    const res = await pod.request('/.admin/schemas/grant-data.json', { headers: { origin: 'https://app.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/schema+json')
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(await res.json()).toEqual(grantDataJsonSchema())
  })
})

describe('the grants API is for the owner only', () => {
  const routes: [string, string][] = [
    ['POST', '/.admin/api/grants'],
    ['GET', '/.admin/api/grants'],
    ['GET', '/.admin/api/grants/x'],
    ['DELETE', '/.admin/api/grants/x'],
    ['GET', `/.admin/api/access?agent=public&resource=${POD}/`],
  ]
  test.each(routes)('%s %s without a session → 401 login_required', async (method, path) => {
    const res = await pod.api(method, path, { jar: new CookieJar(), ...(method === 'POST' ? { body: grant() } : {}) })
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
  })
  test.each(routes)('%s %s from another origin → 403 csrf_failed', async (method, path) => {
    const res = await pod.api(method, path, { origin: 'https://evil.example', ...(method === 'POST' ? { body: grant() } : {}) })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
  })
  test('a create without X-CSRF-Token → 403 csrf_failed, nothing stored', async () => {
    const before = (await listAll()).length
    const res = await pod.api('POST', '/.admin/api/grants', { body: grant(), csrf: false })
    expect(res.status).toBe(403)
    expect((await listAll()).length).toBe(before)
  })
})

describe('create, read, list, revoke', () => {
  const full = grant({
    scopeOfGrant: INTEROP('SelectedFromRegistry'),
    hasDataInstance: [`${POD}/projects/b`, `${POD}/projects/a`],
    accessMode: [ACL('Update'), ACL('Read')],
    hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting({ hasDataRegistration: `${POD}/notes/` })] })],
  })
  let iri = ''
  test('POST → 201 with Location on the pod and the stored GrantData', async () => {
    const res = await create(full)
    expect(res.status).toBe(201)
    iri = res.headers.get('location')!
    expect(iri).toMatch(new RegExp(`^${POD}/\\.admin/api/grants/[0-9a-f-]{36}$`))
    const body = await res.json()
    // RDF holds sets: modes come back in ACL order, instances sorted
    expect(body).toEqual({ ...full, accessMode: [ACL('Read'), ACL('Update')], hasDataInstance: [`${POD}/projects/a`, `${POD}/projects/b`] })
  })
  test('GET as JSON answers the same GrantData', async () => {
    const res = await pod.api('GET', pathOf(iri))
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual((await listAll()).find(g => g.iri === iri)!.grant)
  })
  test.each(['text/turtle', 'application/ld+json', 'application/n-triples'])(
    'GET as %s is the interop RDF, and reads back to the same GrantData',
    async type => {
      const json = await (await pod.api('GET', pathOf(iri))).json()
      const res = await pod.api('GET', pathOf(iri), { accept: type })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith(type)
      const text = await res.text()
      const quads = await parseRdf(text, type, iri)
      expect(quads.some(q => q.predicate.value === 'http://www.w3.org/ns/solid/interop#inheritsFromGrant' && q.object.value === iri)).toBe(true)
      expect(quads.some(q => q.predicate.value === 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type' && q.object.value === INTEROP('DataGrant'))).toBe(true)
      expect(quadsToGrant(quads, iri)).toEqual(json)
    },
  )
  test('Turtle names the inheriting grants as fragments of the grant document', async () => {
    const ttl = await (await pod.api('GET', pathOf(iri), { accept: 'text/turtle' })).text()
    expect(ttl).toContain('interop:inheritsFromGrant')
    expect(ttl).toContain('#inherit-0-0')
  })
  test('an unknown type → 406', async () => {
    expect((await pod.api('GET', pathOf(iri), { accept: 'image/png' })).status).toBe(406)
  })
  test('list filters by grantee and by registration (also of inheriting grants)', async () => {
    const other = await create(grant({ grantee: 'https://carol.example/#me', hasDataRegistration: `${POD}/photos/` }))
    expect(other.status).toBe(201)
    const q = (k: string, v: string) => `?${k}=${encodeURIComponent(v)}`
    expect((await listAll(q('grantee', BOB))).map(g => g.iri)).toContain(iri)
    expect((await listAll(q('grantee', BOB))).every(g => g.grant.grantee === BOB)).toBe(true)
    expect((await listAll(q('registration', `${POD}/photos/`))).map(g => g.grant.grantee)).toEqual(['https://carol.example/#me'])
    expect((await listAll(q('registration', `${POD}/notes/`))).map(g => g.iri)).toEqual([iri])
    expect(await listAll(q('grantee', 'https://nobody.example/#me'))).toEqual([])
  })
  test('DELETE revokes: 204, then 404 on read and on a second revoke', async () => {
    expect((await pod.api('DELETE', pathOf(iri))).status).toBe(204)
    expect((await pod.api('GET', pathOf(iri))).status).toBe(404)
    const again = await pod.api('DELETE', pathOf(iri))
    expect(again.status).toBe(404)
    expect((await again.json()).error).toBe('not_found')
    expect((await listAll()).map(g => g.iri)).not.toContain(iri)
  })
})

describe('refusals: a JSON body listing each offending field; nothing stored', () => {
  async function refused(body: unknown, status: number, pointers: string[], raw?: string) {
    const before = await listAll()
    const res = raw === undefined ? await create(body) : await pod.api('POST', '/.admin/api/grants', { raw })
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toBe('application/json')
    const json = await res.json()
    expect(json.error).toBe('invalid_grant_data')
    expect(json.violations.map((v: { pointer: string }) => v.pointer).sort()).toEqual([...pointers].sort())
    for (const v of json.violations) expect(v.expected.length).toBeGreaterThan(5)
    expect(json.error_description).not.toContain('https base URL')
    expect(await listAll()).toEqual(before)
  }
  test('schema violations → 400, every field listed', () =>
    refused({ ...grant({ grantee: 'http://bob.example/#me', accessMode: [] }), extra: 1 }, 400, ['/grantee', '/accessMode', '/extra']))
  test('a missing field in a grandchild → 400 at its pointer', () =>
    refused(grant({ hasInheritingGrant: [inheriting({ hasInheritingGrant: [(({ grantee: _, ...r }) => r)(inheriting())] })] }), 400, [
      '/hasInheritingGrant/0/hasInheritingGrant/0/grantee',
    ]))
  test('not JSON → 400 at the root pointer', () => refused(undefined, 400, [''], '{"grantee": '))
  test('semantic violations → 422, every field listed', () =>
    refused(grant({ accessMode: [ACL('Control')], hasStorage: 'https://other.example/', scopeOfGrant: INTEROP('SelectedFromRegistry') }), 422, [
      '/accessMode/0',
      '/hasStorage',
      '/hasDataInstance',
    ]))
  test('a body over 1 MiB → 413, nothing stored', async () => {
    const before = await listAll()
    const res = await pod.api('POST', '/.admin/api/grants', { raw: JSON.stringify({ ...grant(), pad: 'x'.repeat(1024 * 1024) }) })
    expect(res.status).toBe(413)
    expect((await res.json()).error).toBe('payload_too_large')
    expect(await listAll()).toEqual(before)
  })
  test('a body that is not application/json → 415', async () => {
    const res = await pod.api('POST', '/.admin/api/grants', { raw: JSON.stringify(grant()), type: 'text/plain' })
    expect(res.status).toBe(415)
    expect((await res.json()).error).toBe('unsupported_media_type')
  })
})

describe('a pod with an http base URL', () => {
  let plain: OwnerPod
  beforeAll(async () => {
    plain = await openOwnerPod('http://localhost:3997')
  })
  afterAll(() => plain.close())
  test.each([
    [
      'its own (http) URLs',
      grant({
        dataOwner: 'http://localhost:3997/profile/card#me',
        hasStorage: 'http://localhost:3997/',
        hasDataRegistration: 'http://localhost:3997/projects/',
      }),
      400,
    ],
    ['https URLs that are not its own', grant(), 422],
  ])('a grant with %s is refused, saying grants need an https base URL', async (_, g, status) => {
    const res = await plain.api('POST', '/.admin/api/grants', { body: g })
    expect(res.status).toBe(status)
    const json = await res.json()
    expect(json.error_description).toContain('Grants need an https base URL')
    expect(json.error_description).toContain('--tls-cert/--tls-key')
    expect(json.violations.map((v: { pointer: string }) => v.pointer)).toContain('/dataOwner')
  })
})

describe('registered shape trees are kept as given', () => {
  test('a grant for another shape tree is stored with it', async () => {
    const res = await create(grant({ registeredShapeTree: `${TREES}#Photo`, hasDataRegistration: `${POD}/photos/` }))
    expect((await res.json()).registeredShapeTree).toBe(`${TREES}#Photo`)
  })
})
