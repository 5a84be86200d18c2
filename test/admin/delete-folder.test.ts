// A folder deleted with everything in it: GET /.admin/api/tree/count, DELETE /.admin/api/tree, and the delete page without JavaScript.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { CookieJar, FORM, form } from '../op/op-fixture.ts'

const BASE = 'http://localhost:3994'
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (const p of ['/trip/a.ttl', '/trip/days/one.ttl', '/trip/days/two.ttl', '/old/x.ttl', '/old/y/z.ttl']) await pod.seed(p, '')
  // An ACL of its own that keeps the owner's Write: the delete needs what a DELETE of each item would (resources/)
  await pod.seed(
    '/trip/days/.acl',
    `<#owner> a <http://www.w3.org/ns/auth/acl#Authorization>; <http://www.w3.org/ns/auth/acl#agent> <${BASE}/profile/card#me>;
  <http://www.w3.org/ns/auth/acl#accessTo> <./>; <http://www.w3.org/ns/auth/acl#default> <./>;
  <http://www.w3.org/ns/auth/acl#mode> <http://www.w3.org/ns/auth/acl#Read>, <http://www.w3.org/ns/auth/acl#Write>.`,
  )
})
afterAll(() => pod.close())

const count = (path: string) => pod.api('GET', `/.admin/api/tree/count?path=${encodeURIComponent(path)}`)
const remove = (path: string, n?: string, jar?: CookieJar) =>
  pod.api('DELETE', `/.admin/api/tree?path=${encodeURIComponent(path)}${n === undefined ? '' : `&count=${n}`}`, jar ? { jar } : {})

describe('the owner API', () => {
  test('count: the items at any depth, ACLs not counted', async () => {
    const res = await count('/trip/')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ path: '/trip/', count: 4 })
  })

  test('delete with the confirmed count: the folder and all in it are gone for the resource server too', async () => {
    const res = await remove('/trip/', '4')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ deleted: 4 })
    for (const p of ['/trip/', '/trip/days/', '/trip/days/two.ttl', '/trip/days/.acl']) expect(await getMeta(pod.store, p)).toBeUndefined()
    expect((await pod.api('GET', '/trip/days/one.ttl')).status).toBe(404)
  })

  test.each([
    ['/old/', '2', 409, 'confirmation_required'],
    ['/old/', undefined, 400, 'invalid_query'],
    ['/old/', 'two', 400, 'invalid_query'],
    ['/old/x.ttl', '0', 400, 'not_a_container'],
    ['/nope/', '0', 404, 'not_found'],
    ['/keys/', '0', 409, 'protected_resource'],
    ['/profile/', '1', 409, 'protected_resource'],
  ] as const)('%s count=%s → %i %s, nothing deleted', async (path, n, status, code) => {
    const res = await remove(path, n)
    expect(res.status).toBe(status)
    expect((await res.json()).error).toBe(code)
    expect(await getMeta(pod.store, '/old/y/z.ttl')).toBeDefined()
    expect(await getMeta(pod.store, '/profile/card')).toBeDefined()
  })

  test('without the owner → 401 login_required', async () => {
    const res = await remove('/old/', '3', new CookieJar())
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
    expect(await getMeta(pod.store, '/old/')).toBeDefined()
  })
})

describe('the delete page without JavaScript', () => {
  test('says how many items go with the folder, and deletes exactly those', async () => {
    const page = await (await pod.request('/.admin/delete?path=%2Fold%2F', { headers: { cookie: pod.owner.header() } })).text()
    expect(page).toContain('and the 3 items in it?')
    expect(page).toContain('name="count" value="3"')
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    const res = await pod.request('/.admin/delete', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
      body: form({ csrf, path: '/old/', count: '3' }),
    })
    expect(res.status).toBe(303)
    expect(await getMeta(pod.store, '/old/y/z.ttl')).toBeUndefined()
    expect(await getMeta(pod.store, '/old/')).toBeUndefined()
  })
})
