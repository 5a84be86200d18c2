// The Files page without JavaScript: the selection (Delete selected into the trash after one confirmation
// naming how many items go; Move selected to a folder), the Trash page with Restore, and the "Public" /
// "Shared" markers of each row. Every refusal with its exact status and code, nothing changed by it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { FORM } from '../op/op-fixture.ts'
import { ownerWebIdOf } from '../../src/config.ts'

const BASE = 'http://localhost:3993'
const OTHER = 'https://friend.example/profile#me'
let pod: OwnerPod
let csrf: string
const TTL = '<#x> <http://purl.org/dc/terms/title> "x".'
const acl = (target: string, rules: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#owner> a acl:Authorization; acl:agent <${ownerWebIdOf(BASE)}>; acl:accessTo <${BASE}${target}>; acl:default <${BASE}${target}>; acl:mode acl:Read, acl:Write, acl:Control.
${rules}`

beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (const p of [
    '/sel/a.ttl',
    '/sel/b/c.ttl',
    '/sel/b/d.ttl',
    '/sel/%C3%89t%C3%A9%20&%20co%3F.ttl',
    '/dest/keep.ttl',
    '/marks/mine.ttl',
    '/marks/own.ttl',
    '/marks/open.ttl',
    '/marks/team/inside.ttl',
  ])
    await pod.seed(p, TTL)
  await pod.seed(
    '/marks/own.ttl.acl',
    acl('/marks/own.ttl', `<#f> a acl:Authorization; acl:agent <${OTHER}>; acl:accessTo <${BASE}/marks/own.ttl>; acl:mode acl:Read.`),
  )
  await pod.seed(
    '/marks/open.ttl.acl',
    acl('/marks/open.ttl', `<#p> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${BASE}/marks/open.ttl>; acl:mode acl:Read.`),
  )
  await pod.seed(
    '/marks/team/.acl',
    acl('/marks/team/', `<#f> a acl:Authorization; acl:agent <${OTHER}>; acl:default <${BASE}/marks/team/>; acl:mode acl:Read.`),
  )
  const page = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
  csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
})
afterAll(() => pod.close())

const get = (path: string) => pod.request(path, { headers: { cookie: pod.owner.header() } })
const post = (path: string, fields: [string, string][], withCsrf = true) =>
  pod.request(path, {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
    body: new URLSearchParams([...(withCsrf ? [['csrf', csrf] as [string, string]] : []), ...fields]).toString(),
  })
const items = (...paths: string[]) => paths.map((p): [string, string] => ['item', p])
const query = (...paths: string[]) => new URLSearchParams([['path', '/sel/'], ...items(...paths)]).toString()
const errorOf = async (res: Response) => /id="error">([a-z_]+)</.exec(await res.text())?.[1]
const exists = async (path: string) => (await getMeta(pod.store, path)) !== undefined

describe('the listing: a box per row in one form, the buttons, the trash link', () => {
  test('each row has a labelled box; the form asks first (GET), with "Move selected to…" as its other button', async () => {
    const page = await (await get('/.admin/files?path=%2Fsel%2F')).text()
    expect(page).toContain('<input type="checkbox" name="item" value="/sel/a.ttl" aria-label="Select a.ttl">')
    expect(page).toContain('aria-label="Select b/"'.replace('b/', 'b'))
    expect(page).toContain('aria-label="Select Été &amp; co?.ttl"')
    expect(page).toContain('<form id="selection" method="get" action="/.admin/files/delete-selected"')
    expect(page).toContain('formaction="/.admin/files/move-selected"')
    expect(page).toContain('href="/.admin/trash"')
  })
})

describe("Delete selected: one confirmation naming every item, folders' contents counted, then the trash", () => {
  test('the confirmation counts a document and a folder with two documents as 4 items; nothing is deleted yet', async () => {
    const res = await get(`/.admin/files/delete-selected?${query('/sel/a.ttl', '/sel/b/')}`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('Delete 4 items (with what the folders hold)?')
    expect(page).toContain('<input type="hidden" name="count" value="4">')
    expect(await exists('/sel/a.ttl')).toBe(true)
  })
  test('nothing ticked → 400 nothing_selected (the page and the form)', async () => {
    const res = await get('/.admin/files/delete-selected?path=%2Fsel%2F')
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe('nothing_selected')
    const posted = await post('/.admin/files/delete-selected', [['count', '0']])
    expect(posted.status).toBe(400)
    expect(await errorOf(posted)).toBe('nothing_selected')
  })
  test('a count that is no longer true → 409 confirmation_required, nothing deleted', async () => {
    const res = await post('/.admin/files/delete-selected', [...items('/sel/a.ttl', '/sel/b/'), ['count', '3']])
    expect(res.status).toBe(409)
    expect(await errorOf(res)).toBe('confirmation_required')
    expect(await exists('/sel/a.ttl')).toBe(true)
    expect(await exists('/sel/b/c.ttl')).toBe(true)
  })
  test('without the CSRF token → 403 csrf_failed, nothing deleted', async () => {
    const res = await post('/.admin/files/delete-selected', [...items('/sel/a.ttl'), ['count', '1']], false)
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
    expect(await exists('/sel/a.ttl')).toBe(true)
  })
  test('a count that is no number → 400 invalid_query', async () => {
    const res = await post('/.admin/files/delete-selected', [...items('/sel/a.ttl'), ['count', 'all']])
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe('invalid_query')
  })
  test('confirmed: both go to the trash, and the folder is back on the Files page with the notice', async () => {
    const res = await post('/.admin/files/delete-selected', [...items('/sel/a.ttl', '/sel/b/'), ['count', '4']])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/files?path=%2Fsel%2F&done=delete&name=2%20items')
    expect(await exists('/sel/a.ttl')).toBe(false)
    expect(await exists('/sel/b/c.ttl')).toBe(false)
    const trash = await (await get('/.admin/trash')).text()
    expect(trash).toContain('<td data-label="Name">a.ttl</td>')
    expect(trash).toContain('<td data-label="Name">b/</td>')
    expect(trash).toContain('<td data-label="Items">3</td>')
    expect(trash).toContain('<td data-label="Days left">30</td>')
    expect(trash).toContain('Recently deleted')
  })
})

describe('the Trash page: Restore puts an item back where it was', () => {
  const idOf = async (name: string) => new RegExp(`${name}</td>[\\s\\S]*?name="id" value="([^"]+)"`).exec(await (await get('/.admin/trash')).text())?.[1]
  test('Restore → the folder with everything in it is back, the Files page says so', async () => {
    const res = await post('/.admin/trash/restore', [['id', (await idOf('b/'))!]])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/files?path=%2Fsel%2F&done=restore&name=b')
    expect(await exists('/sel/b/d.ttl')).toBe(true)
  })
  test('an id the trash does not hold → 404 not_found', async () => {
    const res = await post('/.admin/trash/restore', [['id', 'nope']])
    expect(res.status).toBe(404)
    expect(await errorOf(res)).toBe('not_found')
  })
  test('its name taken again meanwhile → 409 already_exists, the item stays in the trash', async () => {
    await pod.seed('/sel/a.ttl', TTL)
    const id = (await idOf('a.ttl'))!
    const res = await post('/.admin/trash/restore', [['id', id]])
    expect(res.status).toBe(409)
    expect(await errorOf(res)).toBe('already_exists')
    expect(await idOf('a.ttl')).toBe(id)
  })
  test('the single Delete goes to the trash too', async () => {
    const res = await post('/.admin/delete', [['path', '/sel/a.ttl']])
    expect(res.status).toBe(303)
    expect(await exists('/sel/a.ttl')).toBe(false)
    expect((await (await get('/.admin/trash')).text()).match(/<td data-label="Name">a\.ttl<\/td>/g)?.length).toBe(2)
  })
})

describe('Move selected to…: one move per item, into a folder that exists', () => {
  test('the page asks for the folder, naming the items', async () => {
    const page = await (await get(`/.admin/files/move-selected?${query('/sel/%C3%89t%C3%A9%20&%20co%3F.ttl')}`)).text()
    expect(page).toContain('<li>Été &amp; co?.ttl</li>')
    expect(page).toContain('name="folder" value="/sel/"')
  })
  test('nothing ticked → 400 nothing_selected', async () => {
    const res = await post('/.admin/files/move-selected', [['folder', '/dest/']])
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe('nothing_selected')
  })
  test('a folder that does not exist → 404 not_found, nothing moved', async () => {
    const res = await post('/.admin/files/move-selected', [...items('/sel/b/'), ['folder', '/nowhere/']])
    expect(res.status).toBe(404)
    expect(await errorOf(res)).toBe('not_found')
    expect(await exists('/sel/b/c.ttl')).toBe(true)
  })
  test('a folder and an awkward name move to /dest/, ACL and contents along', async () => {
    const res = await post('/.admin/files/move-selected', [...items('/sel/b/', '/sel/%C3%89t%C3%A9%20&%20co%3F.ttl'), ['folder', '/dest']])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/files?path=%2Fdest%2F&done=move&name=2%20items')
    expect(await exists('/dest/b/c.ttl')).toBe(true)
    expect(await exists('/dest/%C3%89t%C3%A9%20&%20co%3F.ttl')).toBe(true)
    expect(await exists('/sel/b/')).toBe(false)
  })
})

describe('markers: "Public" when anyone may read, "Shared" when someone other than the owner has access', () => {
  let page: string
  const rowOf = (name: string) =>
    new RegExp(`aria-label="Select ${name}"[\\s\\S]*?</td>\\s*<td data-label="Name" class="name">([\\s\\S]*?)</td>`).exec(page)?.[1] ?? ''
  beforeAll(async () => {
    page = await (await get('/.admin/files?path=%2Fmarks%2F')).text()
  })
  test('owner only → no marker', () => {
    expect(rowOf('mine.ttl')).toContain('mine.ttl')
    expect(rowOf('mine.ttl')).not.toContain('badge')
  })
  test('its own ACL naming another WebID → Shared, linking to its sharing page', () => {
    expect(rowOf('own.ttl')).toContain('<a class="badge shared" href="/.admin/share?path=%2Fmarks%2Fown.ttl"')
    expect(rowOf('own.ttl')).not.toContain('Public')
  })
  test('foaf:Agent may read → Public (not Shared)', () => {
    expect(rowOf('open.ttl')).toContain('<a class="badge public" href="/.admin/share?path=%2Fmarks%2Fopen.ttl"')
    expect(rowOf('open.ttl')).not.toContain('Shared')
  })
  test('a folder whose ACL names another WebID → Shared; what is inside inherits it', async () => {
    expect(rowOf('team')).toContain('badge shared')
    const inside = await (await get('/.admin/files?path=%2Fmarks%2Fteam%2F')).text()
    expect(inside).toMatch(/inside\.ttl<\/a> <a class="badge shared"/)
  })
})
