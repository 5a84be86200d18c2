// The trash through the owner API: the dashboard's Delete keeps the item, the listing shows it, Restore puts it back.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { TRASH_KEEP_MS } from '../../src/store/trash.ts'

const BASE = 'http://localhost:3992'
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (const p of ['/notes/a.ttl', '/notes/b/c.ttl']) await pod.seed(p, '<#x> <http://purl.org/dc/terms/title> "x".')
})
afterAll(() => pod.close())

const trash = (body: unknown, jar?: CookieJar) => pod.api('POST', '/.admin/api/trash', { body, ...(jar ? { jar } : {}) })

describe('POST /.admin/api/trash, GET, restore', () => {
  test('a document goes to the trash: the resource server no longer has it, the listing says when it goes for good', async () => {
    const res = await trash({ path: '/notes/a.ttl' })
    expect(res.status).toBe(200)
    const item = await res.json()
    expect(item).toMatchObject({ path: '/notes/a.ttl', kind: 'rdf', count: 0 })
    expect(item.purgeAt - item.deletedAt).toBe(TRASH_KEEP_MS)
    expect((await pod.api('GET', '/notes/a.ttl')).status).toBe(404)
    const listed = await (await pod.api('GET', '/.admin/api/trash')).json()
    expect(listed.map((i: { id: string }) => i.id)).toEqual([item.id])
  })

  test('restore puts it back where it was', async () => {
    const [item] = await (await pod.api('GET', '/.admin/api/trash')).json()
    const res = await pod.api('POST', `/.admin/api/trash/${item.id}/restore`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ path: '/notes/a.ttl' })
    expect(await (await pod.api('GET', '/notes/a.ttl', { accept: 'text/turtle' })).text()).toContain('"x"')
    expect(await (await pod.api('GET', '/.admin/api/trash')).json()).toEqual([])
  })

  test('a folder needs the count the owner was told; then it goes with all in it', async () => {
    const res = await trash({ path: '/notes/b/' })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_request')
    expect((await trash({ path: '/notes/b/', count: 1 })).status).toBe(200)
    expect(await getMeta(pod.store, '/notes/b/c.ttl')).toBeUndefined()
  })

  test.each([
    [{ path: '/profile/card' }, 409, 'protected_resource'],
    [{ path: '/notes/nope.ttl' }, 404, 'not_found'],
    [{ path: 'notes' }, 400, 'invalid_path'],
    [{ path: '/.acl' }, 400, 'invalid_path'],
    [{}, 400, 'invalid_request'],
  ])('%j → %i %s', async (body, status, code) => {
    const res = await trash(body)
    expect(res.status).toBe(status)
    expect((await res.json()).error).toBe(code)
    expect(await getMeta(pod.store, '/profile/card')).toBeDefined()
    expect(await getMeta(pod.store, '/.acl')).toBeDefined()
  })

  test('restoring an id the trash does not hold → 404 not_found', async () => {
    const res = await pod.api('POST', '/.admin/api/trash/nope/restore')
    expect(res.status).toBe(404)
    expect((await res.json()).error).toBe('not_found')
  })

  test('without the owner → 401 login_required, nothing deleted', async () => {
    const res = await trash({ path: '/notes/a.ttl' }, new CookieJar())
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
    expect(await getMeta(pod.store, '/notes/a.ttl')).toBeDefined()
  })
})
