// Rename and move for the owner: POST /.admin/api/move and the page without JavaScript, seen through the resource server.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { publicAcl } from '../e2e/seed-store.ts'
import { getMeta } from '../../src/store/resources.ts'
import { CookieJar, FORM, form } from '../op/op-fixture.ts'
import { pageError } from './owner-forms.ts'

const BASE = 'http://localhost:3996'
let pod: OwnerPod
let pageCsrf: string
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  await pod.seed('/pub/', '')
  // The owner keeps Control, as the share page's ACLs do: a move needs what a DELETE and a PUT would (resources/)
  await pod.seed(
    '/pub/.acl',
    publicAcl(`${BASE}/pub/`, ['Read']) +
      `\n<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>;
  acl:accessTo <${BASE}/pub/>; acl:default <${BASE}/pub/>; acl:mode acl:Read, acl:Write, acl:Control.`,
  )
  await pod.seed('/pub/a.ttl', '<#it> <http://purl.org/dc/terms/title> "A".')
  await pod.seed('/pub/dir/inner.ttl', '<> <http://purl.org/dc/terms/title> "inner".')
  await pod.seed('/private/', '')
  const page = await pod.owner.take(await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
  pageCsrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
})
afterAll(() => pod.close())

const moveApi = (from: string, to: string, jar?: CookieJar) => pod.api('POST', '/.admin/api/move', { body: { from, to }, ...(jar ? { jar } : {}) })
const get = (path: string) => pod.request(path, { headers: { accept: 'text/turtle' } })

describe('POST /.admin/api/move', () => {
  test('renames a document: the old URL is 404, the new one serves the same content and ETag', async () => {
    const before = await get('/pub/a.ttl')
    const etag = before.headers.get('etag')
    const res = await moveApi('/pub/a.ttl', '/pub/b c.ttl')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ path: '/pub/b%20c.ttl' })
    expect((await get('/pub/a.ttl')).status).toBe(404)
    const after = await get('/pub/b%20c.ttl')
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).toBe(etag)
    expect(await after.text()).toContain('"A"')
  })

  test('moves a folder with what is in it; the ACL goes with it, so access stays as it was', async () => {
    expect((await moveApi('/pub/', '/private/pub/')).status).toBe(200)
    expect(await getMeta(pod.store, '/pub/dir/inner.ttl')).toBeUndefined()
    expect((await get('/pub/dir/inner.ttl')).status).toBe(401) // gone, and the public no longer reads there
    const inner = await get('/private/pub/dir/inner.ttl')
    expect(inner.status).toBe(200) // public Read, by the folder's own ACL that moved with it
    expect(await inner.text()).toContain('"inner"')
    expect((await moveApi('/private/pub/', '/pub/')).status).toBe(200)
  })

  test.each([
    [{ from: '/pub/', to: '/pub/dir/x/' }, 400, 'move_into_itself'],
    [{ from: '/pub/nope.ttl', to: '/pub/n.ttl' }, 404, 'not_found'],
    [{ from: '/pub/b%20c.ttl', to: '/pub/dir' }, 409, 'name_conflict'],
    [{ from: '/pub/b%20c.ttl', to: '/pub/dir/inner.ttl' }, 409, 'already_exists'],
    [{ from: '/pub/b%20c.ttl', to: '/pub/../x.ttl' }, 400, 'invalid_path'],
    [{ from: '/pub/b%20c.ttl', to: 'x.ttl' }, 400, 'invalid_path'],
    [{ from: '/profile/card', to: '/profile/card2' }, 409, 'protected_resource'],
    [{ from: '/', to: '/x/' }, 405, 'root_protected'],
    [{ from: '/pub/b%20c.ttl' }, 400, 'invalid_request'],
  ])('%j → %i %s, nothing moved', async (body, status, code) => {
    const res = await pod.api('POST', '/.admin/api/move', { body })
    expect(res.status).toBe(status)
    expect((await res.json()).error).toBe(code)
    expect(await getMeta(pod.store, '/pub/b%20c.ttl')).toBeDefined()
    expect(await getMeta(pod.store, '/profile/card')).toBeDefined()
  })

  test('without the owner → 401 login_required', async () => {
    const res = await moveApi('/pub/b%20c.ttl', '/pub/z.ttl', new CookieJar())
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
    expect(await getMeta(pod.store, '/pub/z.ttl')).toBeUndefined()
  })

  test('a name as typed: "#" and "?" are part of it', async () => {
    const res = await moveApi('/pub/b c.ttl', '/pub/q?#1.ttl')
    expect(await res.json()).toEqual({ path: '/pub/q%3F%231.ttl' })
    expect((await get('/pub/q%3F%231.ttl')).status).toBe(200)
    expect((await moveApi('/pub/q%3F%231.ttl', '/pub/b%20c.ttl')).status).toBe(200)
  })
})

describe('the page without JavaScript', () => {
  const post = (fields: Record<string, string>) =>
    pod.request('/.admin/files/move', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
      body: form({ csrf: pageCsrf, ...fields }),
    })

  test('GET asks for the new name and folder, shown as typed', async () => {
    const res = await pod.request('/.admin/files/move?path=%2Fpub%2Fb%2520c.ttl', { headers: { cookie: pod.owner.header() } })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('name="name" value="b c.ttl"')
    expect(page).toContain('name="folder" value="/pub/"')
  })

  test('POST renames into another folder and goes to it', async () => {
    const res = await post({ path: '/pub/b%20c.ttl', name: 'Ünïcode & co.ttl', folder: '/pub/dir' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('path=%2Fpub%2Fdir%2F&done=move')
    expect((await get(`/pub/dir/${encodeURIComponent('Ünïcode & co.ttl').replace('%26', '&')}`)).status).toBe(200)
  })

  test('a name with "/" → 400 invalid_name', async () => {
    const res = await post({ path: '/pub/a.ttl', name: 'a/b', folder: '/pub/' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_name')
  })

  test('without the CSRF token → 403 csrf_failed, nothing moved', async () => {
    const res = await pod.request('/.admin/files/move', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
      body: form({ path: '/pub/dir/', name: 'd2', folder: '/pub/' }),
    })
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
    expect(await getMeta(pod.store, '/pub/dir/')).toBeDefined()
  })
})
