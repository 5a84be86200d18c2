// WebDAV's locks and dead properties belong to the operations layer, not to the dav role: a file a laptop LOCKed is
// refused to the owner's dashboard too (423 locked), and the properties a client PROPPATCHed follow the dashboard's
// move and go with its trash (issue 37).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, type CookieJar, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
const asOwner = () => ({ cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf })
const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  pod.request(path, { method, headers: { ...asOwner(), ...headers }, ...(body !== undefined ? { body } : {}) })
const api = (path: string, body: unknown) =>
  pod.request(path, { method: 'POST', headers: { ...asOwner(), 'content-type': 'application/json' }, body: JSON.stringify(body) })
const versionOf = async (path: string) =>
  /name="version" value="([^"]*)"/
    .exec(await (await pod.request(`/.admin/files/edit?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header() } })).text())![1]!
    .replaceAll('&quot;', '"')
const text = async (path: string) => (await pod.request(path, { headers: asOwner() })).text()

const LOCK = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>'
const PROPPATCH =
  '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:tags"><D:set><D:prop><Z:colour>green</Z:colour></D:prop></D:set></D:propertyupdate>'
const PROPFIND = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:example:tags"><D:prop><Z:colour/></D:prop></D:propfind>'
const colourOf = async (path: string) => {
  const res = await dav('PROPFIND', path, { depth: '0', 'content-type': 'application/xml' }, PROPFIND)
  expect(res.status).toBe(207)
  return /<Z:colour[^>]*>([^<]*)</.exec(await res.text())?.[1]
}

beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  for (const p of ['/notes/locked.txt', '/notes/tagged.txt', '/notes/in/deep.txt']) {
    expect((await dav('PUT', p, { 'content-type': 'text/plain' }, 'hello')).status).toBe(201)
  }
})
afterAll(() => pod.close())

describe('a WebDAV lock is honoured by every face (RFC 4918 §7)', () => {
  let token: string
  beforeAll(async () => {
    const res = await dav('LOCK', '/notes/locked.txt', { 'content-type': 'application/xml', timeout: 'Second-600' }, LOCK)
    expect(res.status).toBe(200)
    token = res.headers.get('lock-token')!.slice(1, -1)
  })

  test("the dashboard's edit save: 423 locked, the file unchanged", async () => {
    const res = await ctx.post('/.admin/files/edit', {
      csrf,
      path: '/notes/locked.txt',
      type: 'text/plain',
      version: await versionOf('/notes/locked.txt'),
      text: 'overwritten',
    })
    expect(res.status).toBe(423)
    expect(await pageError(res)).toBe('locked')
    expect(await text('/notes/locked.txt')).toBe('hello')
  })

  test("the dashboard's trash, move and delete of its folder: 423 locked, the file still there", async () => {
    for (const [path, body] of [
      ['/.admin/api/trash', { path: '/notes/locked.txt' }],
      ['/.admin/api/move', { from: '/notes/locked.txt', to: '/notes/elsewhere.txt' }],
      ['/.admin/api/trash', { path: '/notes/', count: 4 }],
    ] as const) {
      const res = await api(path, body)
      expect(res.status).toBe(423)
      expect((await res.json()).error).toBe('locked')
    }
    expect(await text('/notes/locked.txt')).toBe('hello')
  })

  test('the resource server as before: 423 locked without the token, 204 with it', async () => {
    const without = await dav('PUT', '/notes/locked.txt', { 'content-type': 'text/plain' }, 'by RS')
    expect(without.status).toBe(423)
    expect(await without.text()).toStartWith('locked:')
    expect((await dav('PUT', '/notes/locked.txt', { 'content-type': 'text/plain', if: `(<${token}>)` }, 'by RS')).status).toBe(204)
    expect(await text('/notes/locked.txt')).toBe('by RS')
  })

  test('unlocked, the dashboard saves again', async () => {
    expect((await dav('UNLOCK', '/notes/locked.txt', { 'lock-token': `<${token}>` })).status).toBe(204)
    const res = await ctx.post('/.admin/files/edit', {
      csrf,
      path: '/notes/locked.txt',
      type: 'text/plain',
      version: await versionOf('/notes/locked.txt'),
      text: 'mine',
    })
    expect(res.status).toBe(303)
    expect(await text('/notes/locked.txt')).toBe('mine')
  })
})

describe('dead properties follow the resource whichever face moves it (RFC 4918 §4.2)', () => {
  test("the dashboard's move carries them; its trash takes them away; a new file of the name has none", async () => {
    expect((await dav('PROPPATCH', '/notes/tagged.txt', { 'content-type': 'application/xml' }, PROPPATCH)).status).toBe(207)
    expect(await colourOf('/notes/tagged.txt')).toBe('green')
    expect((await api('/.admin/api/move', { from: '/notes/tagged.txt', to: '/notes/renamed.txt' })).status).toBe(200)
    expect(await colourOf('/notes/renamed.txt')).toBe('green')
    expect((await dav('PUT', '/notes/tagged.txt', { 'content-type': 'text/plain' }, 'new')).status).toBe(201)
    expect(await colourOf('/notes/tagged.txt')).toBeUndefined()
    expect((await api('/.admin/api/trash', { path: '/notes/renamed.txt' })).status).toBe(200)
    expect((await dav('PUT', '/notes/renamed.txt', { 'content-type': 'text/plain' }, 'new')).status).toBe(201)
    expect(await colourOf('/notes/renamed.txt')).toBeUndefined()
  })

  test("a folder's move carries the properties of everything in it", async () => {
    expect((await dav('PROPPATCH', '/notes/in/deep.txt', { 'content-type': 'application/xml' }, PROPPATCH)).status).toBe(207)
    expect((await api('/.admin/api/move', { from: '/notes/in/', to: '/notes/out/' })).status).toBe(200)
    expect(await colourOf('/notes/out/deep.txt')).toBe('green')
  })
})
