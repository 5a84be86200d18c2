// The owner's forms that work without JavaScript (files, delete, profile) and POST /.admin/api/profile:
// owner only, CSRF-checked, every refusal with its exact status and code, nothing changed by a refusal.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, type CookieJar, type TestPod } from '../op/op-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { openFormPod, pageError, testFormGuards, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
})
afterAll(() => pod.close())

const post = (path: string, fields: Record<string, string>) => ctx.post(path, fields)
const upload = (fields: Record<string, string>, files: File[]) => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  for (const f of files) body.append('file', f)
  return pod.request('/.admin/files/upload', { method: 'POST', headers: { cookie: owner.header(), origin: BASE }, body })
}

describe('pages without a session lead to the login page, coming back', () => {
  test.each(['/.admin/files', '/.admin/profile', '/.admin/backup'])('GET %s → 303 to the login page', async path => {
    const res = await pod.request(path)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=${path}`)
  })
})

describe('every form needs the owner, the CSRF token and our origin', () => {
  const forms: [string, Record<string, string>][] = [
    ['/.admin/files/folder', { path: '/', name: 'x' }],
    ['/.admin/delete', { path: '/profile/card' }],
    ['/.admin/profile', { name: 'Mallory' }],
  ]
  testFormGuards(() => ctx, forms)
  test('an upload without the CSRF token → 403 csrf_failed, nothing stored', async () => {
    const res = await upload({ path: '/' }, [new File(['x'], 'sneaky.txt', { type: 'text/plain' })])
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
    expect(await getMeta(pod.store, '/sneaky.txt')).toBeUndefined()
  })
  test('the profile is unchanged by the refused posts', async () => {
    expect(await (await pod.request('/profile/card', { headers: { accept: 'text/turtle' } })).text()).not.toContain('Mallory')
  })
})

describe('bad input: a clear 4xx and nothing changed', () => {
  test('GET /.admin/files?path=notes (no leading slash) → 400 invalid_path', async () => {
    const res = await pod.request('/.admin/files?path=notes', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_path')
  })
  test('a folder name with "/" → 400 invalid_name', async () => {
    const res = await post('/.admin/files/folder', { csrf, path: '/', name: 'a/b' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_name')
  })
  test('a folder in a document → 400 not_a_container', async () => {
    const res = await post('/.admin/files/folder', { csrf, path: '/profile/card', name: 'x' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('not_a_container')
  })
  test('a folder that exists → 412 already_exists; a new one → 303 to it', async () => {
    expect((await post('/.admin/files/folder', { csrf, path: '/', name: 'notes' })).headers.get('location')).toBe(
      '/.admin/files?path=%2Fnotes%2F&done=folder&name=notes',
    )
    const again = await post('/.admin/files/folder', { csrf, path: '/', name: 'notes' })
    expect(again.status).toBe(412)
    expect(await pageError(again)).toBe('already_exists')
  })
  test('an upload without a file → 400 no_file', async () => {
    const res = await upload({ csrf, path: '/notes/' }, [])
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('no_file')
  })
  test('an upload of a name that exists → 303, the new file named a (2).txt, the old file kept', async () => {
    expect((await upload({ csrf, path: '/notes/' }, [new File(['one'], 'a.txt', { type: 'text/plain' })])).status).toBe(303)
    const res = await upload({ csrf, path: '/notes/' }, [new File(['two!'], 'a.txt', { type: 'text/plain' })])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/files?path=%2Fnotes%2F&done=upload&name=a+%282%29.txt&count=1&bytes=4&renamed=1')
    expect((await getMeta(pod.store, '/notes/a.txt'))?.size).toBe(3)
    expect((await getMeta(pod.store, '/notes/a%20(2).txt'))?.size).toBe(4)
    expect(
      (
        await pod.request('/.admin/delete', {
          method: 'POST',
          headers: { cookie: owner.header(), origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf, path: '/notes/a%20(2).txt' }),
        })
      ).status,
    ).toBe(303)
  })
  test("an upload of bad Turtle → the resource server's 400 with its code", async () => {
    const res = await upload({ csrf, path: '/notes/' }, [new File(['<#a> <#b> "unterminated'], 'bad.ttl', { type: 'text/turtle' })])
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_rdf')
    expect(await getMeta(pod.store, '/notes/bad.ttl')).toBeUndefined()
  })
  test('deleting a folder without the count the page named → 400 invalid_query, nothing deleted', async () => {
    const res = await post('/.admin/delete', { csrf, path: '/notes/' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_query')
    expect(await getMeta(pod.store, '/notes/a.txt')).toBeDefined()
  })
  test('deleting a folder that holds another number of items than the page named → 409 confirmation_required, nothing deleted', async () => {
    const res = await post('/.admin/delete', { csrf, path: '/notes/', count: '0' })
    expect(res.status).toBe(409)
    expect(await pageError(res)).toBe('confirmation_required')
    expect(await getMeta(pod.store, '/notes/a.txt')).toBeDefined()
  })
  test('download: a file as an attachment; a folder → 400 not_a_document; nothing there → 404 not_found', async () => {
    const get = (path: string) => pod.request(`/.admin/files/download?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header() } })
    const ok = await get('/notes/a.txt')
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-disposition')).toBe(`attachment; filename="a.txt"; filename*=UTF-8''a.txt`)
    expect(await ok.text()).toBe('one')
    const folder = await get('/notes/')
    expect(folder.status).toBe(400)
    expect(await pageError(folder)).toBe('not_a_document')
    const missing = await get('/notes/nope.txt')
    expect(missing.status).toBe(404)
    expect(await pageError(missing)).toBe('not_found')
  })
  test('the delete page of something missing → 404 not_found', async () => {
    const res = await pod.request('/.admin/delete?path=%2Fnope', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(404)
    expect(await pageError(res)).toBe('not_found')
  })
  test.each([
    [{ picture: 'javascript:alert(1)' }, 400, 'invalid_field'],
    [{ homepage: 'not a url' }, 400, 'invalid_field'],
    [{ shoeSize: '42' }, 400, 'invalid_field'],
  ])('profile %o → %i %s', async (fields, status, code) => {
    const res = await post('/.admin/profile', { csrf, ...fields })
    expect(res.status).toBe(status)
    expect(await pageError(res)).toBe(code)
  })
})

describe('POST /.admin/api/profile (the dashboard script)', () => {
  const api = (body: unknown, token: string | null = csrf) =>
    pod.request('/.admin/api/profile', {
      method: 'POST',
      headers: { cookie: owner.header(), origin: BASE, 'content-type': 'application/json', ...(token ? { 'x-csrf-token': token } : {}) },
      body: JSON.stringify(body),
    })
  test('without X-CSRF-Token → 403 csrf_failed', async () => {
    const res = await api({ fields: { name: 'X' } }, null)
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
  })
  test('no fields object → 400 invalid_request', async () => {
    const res = await api({ name: 'X' })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_request')
  })
  test('a field that is not text → 400 invalid_field', async () => {
    const res = await api({ fields: { name: 42 } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'invalid_field', error_description: 'Name: expected text' })
  })
  test('a field holding several values → 409 several_values', async () => {
    const patch = `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <${BASE}/profile/card#me> <http://xmlns.com/foaf/0.1/name> "A", "B" }.`
    expect(
      (
        await pod.request('/profile/card', {
          method: 'PATCH',
          headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': 'text/n3' },
          body: patch,
        })
      ).status,
    ).toBe(204)
    const res = await api({ fields: { name: 'C' } })
    expect(res.status).toBe(409)
    expect((await res.json()).error).toBe('several_values')
  })
  test('saves: the WebID document holds the new value, quotes escaped', async () => {
    const res = await api({ fields: { note: 'Says "hi"\nand more' } })
    expect(res.status).toBe(200)
    expect((await res.json()).changed).toBe(true)
    const card = await (await pod.request('/profile/card', { headers: { accept: 'text/turtle' } })).text()
    expect(card).toContain('Says \\"hi\\"\\nand more')
  })
})

describe('uploads without JavaScript stream part by part', () => {
  const blobCount = async () => (await Array.fromAsync(pod.store.blobRefs.keys())).length

  test('a file sent before the CSRF token → 403 csrf_failed before a byte of it is stored', async () => {
    const body = new FormData()
    body.append('file', new File(['early'], 'early.txt', { type: 'text/plain' }))
    body.append('csrf', csrf)
    body.append('path', '/')
    const before = await blobCount()
    const res = await pod.request('/.admin/files/upload', { method: 'POST', headers: { cookie: owner.header(), origin: BASE }, body })
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
    expect(await getMeta(pod.store, '/early.txt')).toBeUndefined()
    expect(await blobCount()).toBe(before)
  })

  test('a body that is not multipart/form-data → 400 invalid_request', async () => {
    const res = await pod.request('/.admin/files/upload', {
      method: 'POST',
      headers: { cookie: owner.header(), origin: BASE, 'content-type': 'text/plain' },
      body: 'x',
    })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_request')
  })

  test('several files, names with spaces, accents, #, ?, % and +, each stored under its encoded name', async () => {
    const names = ['Ünïcode photo #1 ?%+.txt', 'café – résumé.txt']
    const res = await upload(
      { csrf, path: '/notes/' },
      names.map((n, i) => new File([`file ${i}`], n, { type: 'text/plain' })),
    )
    expect(res.status).toBe(303)
    for (const [i, n] of names.entries()) {
      const got = await pod.request(`/.admin/files/download?path=${encodeURIComponent(`/notes/${encodeURIComponent(n)}`)}`, {
        headers: { cookie: owner.header() },
      })
      expect(got.status).toBe(200)
      expect(await got.text()).toBe(`file ${i}`)
    }
  })
})
