// Sharing and editing without JavaScript: the forms of /.admin/share and /.admin/files/edit. Owner only,
// CSRF-checked, every refusal with its exact status and code, and nothing changed by a refusal; the
// ACL they write is what the resource server then enforces.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, CookieJar, WEBID, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, testFormGuards, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  const ldp = (method: string, path: string, body: string) => pod.request(path, { method, headers: { ...asOwner(), 'content-type': 'text/turtle' }, body })
  expect((await ldp('PUT', '/notes/a.ttl', '<#it> <http://purl.org/dc/terms/title> "A".')).status).toBe(201)
})
afterAll(() => pod.close())

const post = (path: string, fields: Record<string, string>) => ctx.post(path, fields)
const page = async (path: string) => (await pod.request(path, { headers: { cookie: owner.header() } })).text()
/** The ETag the page's forms carry (HTML-escaped in the page). */
const version = (html: string) => /name="version" value="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"')
const versionOf = async (path: string) => version(await page(`/.admin/share?path=${encodeURIComponent(path)}`))
const editVersion = async (path: string) => version(await page(`/.admin/files/edit?path=${encodeURIComponent(path)}`))
const publicStatus = async (path: string) => (await pod.request(path)).status
/** What the owner reads through the resource server (the dashboard's way: cookie plus X-CSRF-Token). */
const asOwner = () => ({ cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf })
const text = async (path: string) => (await pod.request(path, { headers: { ...asOwner(), accept: 'text/turtle' } })).text()

describe('pages without a session lead to the login page', () => {
  test.each(['/.admin/share', '/.admin/files/edit'])('GET %s → 303 to the login page', async path => {
    const res = await pod.request(path)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=${path}`)
  })
})

describe('every form needs the owner, the CSRF token and our origin; a refusal changes nothing', () => {
  const forms: [string, Record<string, string>][] = [
    ['/.admin/share/add', { path: '/notes/a.ttl', kind: 'public', read: 'yes' }],
    ['/.admin/share/remove', { path: '/', entry: '0' }],
    ['/.admin/share/inherit', { path: '/notes/' }],
    ['/.admin/files/edit', { path: '/notes/a.ttl', text: '<#it> <http://purl.org/dc/terms/title> "Mallory".' }],
  ]
  testFormGuards(() => ctx, forms)
  test('after the refused posts: still private, unchanged, the root ACL kept', async () => {
    expect(await publicStatus('/notes/a.ttl')).toBe(401)
    expect(await text('/notes/a.ttl')).not.toContain('Mallory')
    expect((await pod.request('/.acl', { headers: asOwner() })).status).toBe(200)
  })
})

describe('share: add and remove entries through the resource server', () => {
  test('the page shows the inherited access, the owner named, and the add form', async () => {
    const html = await page('/.admin/share?path=%2Fnotes%2Fa.ttl')
    expect(html).toContain('Inherited from /')
    expect(html).toContain('This item has no settings of its own: this access applies.')
    expect(html).toContain('You (owner)')
    expect(html).toContain('action="/.admin/share/add"')
  })
  test('public Read added → 303, the public reads it; the ACL keeps the inherited owner entry', async () => {
    const res = await post('/.admin/share/add', { csrf, path: '/notes/a.ttl', version: '', kind: 'public', read: 'yes', scope: 'this' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/share?path=%2Fnotes%2Fa.ttl&done=added')
    expect(await publicStatus('/notes/a.ttl')).toBe(200)
    const acl = await text('/notes/a.ttl.acl')
    expect(acl).toContain('acl:agent <../profile/card#me>')
    expect(acl).toContain('acl:agentClass foaf:Agent')
  })
  test('a form built from an older version → 412 changed_meanwhile, nothing written', async () => {
    const res = await post('/.admin/share/add', { csrf, path: '/notes/a.ttl', version: '', kind: 'authenticated', read: 'yes' })
    expect(res.status).toBe(412)
    expect(await pageError(res)).toBe('changed_meanwhile')
    expect(await text('/notes/a.ttl.acl')).not.toContain('AuthenticatedAgent')
  })
  test('remove the public entry → 303, the public is refused again', async () => {
    const html = await page('/.admin/share?path=%2Fnotes%2Fa.ttl')
    const rows = [...html.matchAll(/aria-label="Remove access of ([^"]+)"/g)].map(m => m[1])
    const i = rows.indexOf('Everyone (public)')
    expect(i).toBeGreaterThanOrEqual(0)
    const res = await post('/.admin/share/remove', { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl'), entry: String(i) })
    expect(res.status).toBe(303)
    expect(await publicStatus('/notes/a.ttl')).toBe(401)
  })
  test("removing the owner's only Control of an item asks first: without the tick → 409 confirmation_required, nothing written", async () => {
    const html = await page('/.admin/share?path=%2Fnotes%2Fa.ttl')
    expect(html).toContain('name="giveUpControl"')
    // in the words the page uses for Control everywhere else ("May: Decide who has access"), not the spec's name for it
    expect(html).toContain('Give up deciding who has access here</label>')
    const before = await text('/notes/a.ttl.acl')
    const res = await post('/.admin/share/remove', { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl'), entry: '0' })
    expect(res.status).toBe(409)
    expect(await pageError(res)).toBe('confirmation_required')
    expect(await text('/notes/a.ttl.acl')).toBe(before)
  })
  test.each([
    [{ kind: 'agent', value: 'not a url', read: 'yes' }, 'invalid_field'],
    [{ kind: 'agent', value: 'https://bob.example/card#me' }, 'invalid_field'],
    [{ kind: 'wizard', read: 'yes' }, 'invalid_field'],
    [{ kind: 'public', read: 'yes', scope: 'inside' }, 'invalid_field'],
    [{ kind: 'public', read: 'yes', origin: 'javascript:alert(1)' }, 'invalid_field'],
  ])('add %o → 400 %s, nothing written', async (fields, code) => {
    const before = await text('/notes/a.ttl.acl')
    const res = await post('/.admin/share/add', { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl'), ...fields })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe(code)
    expect(await text('/notes/a.ttl.acl')).toBe(before)
  })
  test('remove a row that is not there → 400 invalid_field', async () => {
    const res = await post('/.admin/share/remove', { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl'), entry: '99' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_field')
  })
  test('removing the last entry → 409 no_access_left', async () => {
    const res = await post('/.admin/share/remove', { csrf, path: '/', version: await versionOf('/'), entry: '0' })
    expect(res.status).toBe(409)
    expect(await pageError(res)).toBe('no_access_left')
  })
  test("removing the owner's Control of the root → the resource server's 409 owner_lockout, said in words", async () => {
    expect(
      (await post('/.admin/share/add', { csrf, path: '/', version: await versionOf('/'), kind: 'authenticated', read: 'yes', scope: 'this' })).status,
    ).toBe(303)
    const html = await page('/.admin/share?path=%2F')
    const rows = [...html.matchAll(/aria-label="Remove access of ([^"]+)"/g)].map(m => m[1])
    expect(rows).toEqual([WEBID, 'Anyone signed in'])
    const res = await post('/.admin/share/remove', { csrf, path: '/', version: await versionOf('/'), entry: '0' })
    expect(res.status).toBe(409)
    const body = await res.text()
    expect(/id="error">([a-z_]+)</.exec(body)?.[1]).toBe('owner_lockout')
    expect(body).toContain('The root ACL must keep an acl:Authorization giving the owner')
    expect((await pod.request('/', { headers: asOwner() })).status).toBe(200)
    expect((await post('/.admin/share/remove', { csrf, path: '/', version: await versionOf('/'), entry: '1' })).status).toBe(303)
  })
  test('an ACL with statements the page cannot show: a change without "drop" → 400 confirmation_required', async () => {
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <./a.ttl>; acl:mode acl:Read, acl:Write, acl:Control; rdfs:comment "keep me".`
    expect(
      (
        await pod.request('/notes/a.ttl.acl', {
          method: 'PUT',
          headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': 'text/turtle' },
          body: acl,
        })
      ).ok,
    ).toBe(true)
    const shown = await page('/.admin/share?path=%2Fnotes%2Fa.ttl')
    expect(shown).toContain('id="acl-leftovers"')
    // The share form stands above the statements and each row's form below them: the tick names them, not a place
    expect(shown).toContain('aria-describedby="acl-leftovers"> Drop the 1 statement this page cannot show</label>')
    expect(shown).not.toContain('listed above')
    const fields = { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl'), kind: 'public', read: 'yes' }
    const res = await post('/.admin/share/add', fields)
    expect(res.status).toBe(400)
    const refusal = await res.text()
    expect(/id="error">([a-z_]+)</.exec(refusal)?.[1]).toBe('confirmation_required')
    // The refusal names the tick by its label, in the singular for one statement
    expect(refusal).toContain('holds 1 statement this page cannot show; tick &quot;Drop the 1 statement this page cannot show&quot; to')
    expect(await publicStatus('/notes/a.ttl')).toBe(401)
    expect((await post('/.admin/share/add', { ...fields, drop: 'yes' })).status).toBe(303)
    expect(await publicStatus('/notes/a.ttl')).toBe(200)
  })
  test('an item with no settings of its own: the form points to the inherited access where the page shows it, below', async () => {
    expect((await pod.request('/notes/plain.ttl', { method: 'PUT', headers: { ...asOwner(), 'content-type': 'text/turtle' }, body: '' })).status).toBe(201)
    const shown = await page('/.admin/share?path=%2Fnotes%2Fplain.ttl')
    const sentence = shown.indexOf('sharing gives it its own, starting from the inherited access shown below.')
    expect(sentence).toBeGreaterThan(-1)
    expect(shown.indexOf('<h2 id="inherited-h">')).toBeGreaterThan(sentence)
  })
  test('use inherited access asks on a page of its own; with statements the page cannot show, only with "drop" ticked', async () => {
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <./a.ttl>; acl:mode acl:Read, acl:Write, acl:Control; rdfs:comment "keep me".`
    expect((await pod.request('/notes/a.ttl.acl', { method: 'PUT', headers: { ...asOwner(), 'content-type': 'text/turtle' }, body: acl })).ok).toBe(true)
    expect(await page('/.admin/share?path=%2Fnotes%2Fa.ttl')).toContain('href="/.admin/share/inherit?path=%2Fnotes%2Fa.ttl"')
    const confirm = await page('/.admin/share/inherit?path=%2Fnotes%2Fa.ttl')
    expect(confirm).toContain('<h1>Use inherited access for /notes/a.ttl?</h1>')
    expect(confirm).toContain('<code>&lt;#o&gt; rdfs:comment &quot;keep me&quot;.</code>')
    expect(confirm).toContain('name="drop" value="yes" required')
    const fields = { csrf, path: '/notes/a.ttl', version: version(confirm) }
    const res = await post('/.admin/share/inherit', fields)
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('confirmation_required')
    expect(await text('/notes/a.ttl.acl')).toContain('keep me')
    expect((await post('/.admin/share/inherit', { ...fields, drop: 'yes' })).status).toBe(303)
    expect((await pod.request('/notes/a.ttl.acl', { headers: asOwner() })).status).toBe(404)
    expect(await page('/.admin/share/inherit?path=%2F')).toContain('owner_lockout')
  })
  test('use inherited access: the own ACL goes; the root cannot → 409 owner_lockout', async () => {
    expect((await post('/.admin/share/add', { csrf, path: '/notes/a.ttl', kind: 'public', read: 'yes' })).status).toBe(303)

    expect((await post('/.admin/share/inherit', { csrf, path: '/notes/a.ttl', version: await versionOf('/notes/a.ttl') })).status).toBe(303)
    expect(await publicStatus('/notes/a.ttl')).toBe(401)
    const root = await post('/.admin/share/inherit', { csrf, path: '/', version: await versionOf('/') })
    expect(root.status).toBe(409)
    expect(await pageError(root)).toBe('owner_lockout')
  })
  test('a resource that is not there → 404 not_found', async () => {
    const res = await pod.request('/.admin/share?path=%2Fnope', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(404)
    expect(await pageError(res)).toBe('not_found')
  })
})

describe('edit: Turtle in a text box, saved with If-Match', () => {
  test('bad Turtle → 400 with the parser code and line, the text kept, nothing changed', async () => {
    const bad = '<#it> <http://purl.org/dc/terms/title> "B".\n<#it> <#p> "unterminated'
    const res = await post('/.admin/files/edit', { csrf, path: '/notes/a.ttl', version: await editVersion('/notes/a.ttl'), text: bad })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(/id="error">([a-z_]+)</.exec(html)?.[1]).toBe('invalid_rdf')
    expect(html).toContain('Line 2: <code class="bad-line">&lt;#it&gt; &lt;#p&gt; &quot;unterminated</code>')
    expect(html).toContain('&quot;B&quot;.\n&lt;#it&gt;')
    expect(await text('/notes/a.ttl')).toContain('"A"')
  })
  test('good Turtle → 303 to the page saying Saved; the document holds it', async () => {
    const res = await post('/.admin/files/edit', {
      csrf,
      path: '/notes/a.ttl',
      version: await editVersion('/notes/a.ttl'),
      text: '<#it> <http://purl.org/dc/terms/title> "Edited".',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/files/edit?path=%2Fnotes%2Fa.ttl&done=saved')
    expect(await text('/notes/a.ttl')).toContain('"Edited"')
  })
  test('an older version → 412 changed_meanwhile, the text kept, the newer document not lost', async () => {
    const old = await editVersion('/notes/a.ttl')
    expect(
      (await post('/.admin/files/edit', { csrf, path: '/notes/a.ttl', version: old, text: '<#it> <http://purl.org/dc/terms/title> "Tab one".' })).status,
    ).toBe(303)
    const res = await post('/.admin/files/edit', { csrf, path: '/notes/a.ttl', version: old, text: '<#it> <http://purl.org/dc/terms/title> "Tab two".' })
    expect(res.status).toBe(412)
    const html = await res.text()
    expect(/id="error">([a-z_]+)</.exec(html)?.[1]).toBe('changed_meanwhile')
    expect(html).toContain('&quot;Tab two&quot;')
    expect(await text('/notes/a.ttl')).toContain('"Tab one"')
  })
  test.each([
    ['/.admin/files/edit?path=%2Fnotes%2F', 400, 'not_a_document'],
    ['/.admin/files/edit?path=%2Fnotes%2Fnope.ttl', 404, 'not_found'],
    ['/.admin/files/edit?path=notes', 400, 'invalid_path'],
  ])('GET %s → %i %s', async (path, status, code) => {
    const res = await pod.request(path, { headers: { cookie: owner.header() } })
    expect(res.status).toBe(status)
    expect(await pageError(res)).toBe(code)
  })
  test('a file that is not text (a picture) → 400 not_editable', async () => {
    expect(
      (
        await pod.request('/notes/b.png', {
          method: 'PUT',
          headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': 'image/png' },
          body: 'png',
        })
      ).status,
    ).toBe(201)
    const res = await pod.request('/.admin/files/edit?path=%2Fnotes%2Fb.png', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('not_editable')
  })
  test('saving without the text → 400 invalid_field', async () => {
    const res = await post('/.admin/files/edit', { csrf, path: '/notes/a.ttl', version: await editVersion('/notes/a.ttl') })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_field')
  })
})

describe('share: "only through this app" (WAC 1.1 ED §4.4.1 acl:ClientCondition)', () => {
  const BOB = 'https://bob.example/profile/card#me'
  const APP = 'https://app.example/id'
  const PATH = '/notes/c.ttl'
  beforeAll(async () => {
    // the share form reads a person's WebID before it writes (webid-check.ts)
    pod.docs.set('https://bob.example/profile/card', { body: '<#me> a <http://xmlns.com/foaf/0.1/Person>.', type: 'text/turtle' })
    const res = await pod.request(PATH, {
      method: 'PUT',
      headers: { ...asOwner(), 'content-type': 'text/turtle' },
      body: '<#it> <http://purl.org/dc/terms/title> "C".',
    })
    expect(res.status).toBe(201)
  })
  test('a person added with a client identifier → 303; the ACL holds the condition and the page lists it, with nothing it cannot show', async () => {
    const res = await post('/.admin/share/add', { csrf, path: PATH, version: '', kind: 'agent', value: BOB, read: 'yes', scope: 'this', client: APP })
    expect(res.status).toBe(303)
    const acl = await text(`${PATH}.acl`)
    const node = /(_:[\w-]+) a acl:ClientCondition;\s*acl:client <https:\/\/app\.example\/id>\./.exec(acl)?.[1]
    expect(node).toBeDefined()
    expect(acl).toContain(`acl:agent <${BOB}>;\n    acl:condition ${node};`)
    const html = await page(`/.admin/share?path=${encodeURIComponent(PATH)}`)
    expect(html).toContain(`only through app ${APP}`)
    expect(html).toContain('id="share-client"')
    expect(html).not.toContain('id="acl-leftovers"')
  })
  test('another change keeps the condition (a save never drops one: that would widen access)', async () => {
    expect(
      (await post('/.admin/share/add', { csrf, path: PATH, version: await versionOf(PATH), kind: 'authenticated', read: 'yes', scope: 'this' })).status,
    ).toBe(303)
    expect(await text(`${PATH}.acl`)).toContain('acl:client <https://app.example/id>')
  })
  test.each([
    ['not a URL', { kind: 'agent', value: BOB, client: 'app.example' }],
    ['for the public', { kind: 'public', client: APP }],
  ])('a client identifier %s → 400 invalid_field, nothing written', async (_what, fields) => {
    const before = await text(`${PATH}.acl`)
    const res = await post('/.admin/share/add', { csrf, path: PATH, version: await versionOf(PATH), read: 'yes', scope: 'this', ...fields })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_field')
    expect(await text(`${PATH}.acl`)).toBe(before)
  })
})
