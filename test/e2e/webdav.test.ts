// WebDAV (RFC 4918, issue 37) over real HTTP: a mounted drive signs in with HTTP Basic and a client credential,
// and every method answers with the RFC's statuses; locks taken with LOCK are honoured by the resource server's
// writes; dead properties follow COPY and MOVE and go with DELETE.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { addDavClient, basicAuth, type DavCredential } from './dav-credential.ts'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

let pod: RunningPod
let owner: Credential
let photos: Credential

type Credential = DavCredential
const addClient = (...args: string[]) => addDavClient(pod, ...args)
const basic = basicAuth

/** A request as a file manager sends it: the credential on every request. */
function dav(method: string, path: string, o: { as?: Credential | null; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {}) {
  const who = o.as === undefined ? owner : o.as
  return fetch(pod.baseUrl + path, {
    method,
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: { ...(who ? { authorization: basic(who) } : {}), ...o.headers },
  })
}

/** Every file of the local blob store (`files/<2 hex>/<id>`). */
const blobFilesOf = (dataDir: string) =>
  readdirSync(join(dataDir, 'files'), { withFileTypes: true })
    .filter(d => d.isDirectory() && /^[0-9a-f]{2}$/.test(d.name))
    .flatMap(d => readdirSync(join(dataDir, 'files', d.name)).map(n => join(dataDir, 'files', d.name, n)))

const PROPFIND_ALL = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>'
const propfind = (path: string, depth = '1', o: { as?: Credential | null; body?: string } = {}) =>
  dav('PROPFIND', path, { ...o, headers: { depth, 'content-type': 'application/xml' }, body: o.body ?? PROPFIND_ALL })
const hrefsOf = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map(m => m[1]!.replaceAll('&amp;', '&'))
const lockBody = (scope = 'exclusive') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:me@example.org</D:href></D:owner></D:lockinfo>`

beforeAll(async () => {
  pod = await startPod()
  owner = await addClient('--name', 'Laptop')
  photos = await addClient('--name', 'Phone', '--scope', '/photos/')
  // the credential's folder is made with it (store/ensure-folder.ts)
  expect((await propfind('/photos/', '0')).status).toBe(207)
  expect((await dav('MKCOL', '/private/')).status).toBe(201)
  expect((await dav('PUT', '/private/diary.txt', { body: 'Dear diary', headers: { 'content-type': 'text/plain' } })).status).toBe(201)
})
afterAll(async () => {
  await pod?.dispose()
})

describe('RFC 4918 §10.1, §18: OPTIONS', () => {
  test('announces DAV 1, 2 and the WebDAV methods', async () => {
    const res = await fetch(`${pod.baseUrl}/photos/`, { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('dav')).toBe('1, 2')
    for (const m of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'GET', 'PUT', 'DELETE']) expect(res.headers.get('allow')).toContain(m)
  })
})

describe('RFC 4918 §9.1: PROPFIND', () => {
  test('Depth 1 lists the folder and its members, names with spaces, accents, #, ?, %, + intact, never an ACL', async () => {
    const names = ['a b.txt', 'été.txt', 'x#y.txt', 'q?.txt', '100%.txt', 'a+b.txt']
    for (const n of names)
      expect((await dav('PUT', `/photos/${encodeURIComponent(n)}`, { body: n, headers: { 'content-type': 'text/plain' } })).status).toBe(201)
    const res = await propfind('/photos/')
    expect(res.status).toBe(207)
    const xml = await res.text()
    const hrefs = hrefsOf(xml).map(decodeURIComponent)
    expect(hrefs).toContain('/photos/')
    for (const n of names) expect(hrefs).toContain(`/photos/${n}`)
    expect(hrefs.some(h => h.endsWith('.acl'))).toBe(false)
    expect(xml).toContain('<D:resourcetype><D:collection/></D:resourcetype>')
    expect(xml).toContain('<D:displayname>été.txt</D:displayname>')
    expect(xml).toContain('<D:getcontentlength>8</D:getcontentlength>')
  })

  test('without Read: 401 with a Basic challenge for the public, 403 outside_app_scope for a credential limited elsewhere', async () => {
    const anonymous = await propfind('/private/', '0', { as: null })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toContain('Basic realm="solopod"')
    const limited = await propfind('/private/', '0', { as: photos })
    expect(limited.status).toBe(403)
    expect(await limited.text()).toStartWith('outside_app_scope:')
  })

  test('a public folder is listed to anyone, without credentials', async () => {
    expect((await dav('MKCOL', '/public/')).status).toBe(201)
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`
    expect((await dav('PUT', '/public/.acl', { body: acl, headers: { 'content-type': 'text/turtle' } })).status).toBe(201)
    const res = await propfind('/public/', '1', { as: null })
    expect(res.status).toBe(207)
    expect(hrefsOf(await res.text())).toEqual(['/public/'])
  })

  test.each([['infinity'], ['absent']])('Depth %s: 403 with DAV:propfind-finite-depth', async depth => {
    const res = await dav('PROPFIND', '/photos/', { headers: depth === 'absent' ? {} : { depth }, body: PROPFIND_ALL })
    expect(res.status).toBe(403)
    const xml = await res.text()
    expect(xml).toContain('<D:propfind-finite-depth/>')
    expect(xml).toContain('>propfind_finite_depth: ')
  })

  test('a malformed body: 400 invalid_xml', async () => {
    const res = await propfind('/photos/', '0', { body: '<D:propfind xmlns:D="DAV:"><D:prop>' })
    expect(res.status).toBe(400)
    expect(await res.text()).toStartWith('invalid_xml:')
  })

  test('a body over the limit: 413 payload_too_large', async () => {
    const res = await propfind('/photos/', '0', { body: `<D:propfind xmlns:D="DAV:"><!--${'x'.repeat(1_100_000)}--><D:allprop/></D:propfind>` })
    expect(res.status).toBe(413)
    expect(await res.text()).toStartWith('payload_too_large:')
  })
})

describe('RFC 4918 §9.2: PROPPATCH', () => {
  const update = (inner: string) => `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:z">${inner}</D:propertyupdate>`

  test('keeps a dead property, which COPY and MOVE carry along and DELETE removes', async () => {
    await dav('PUT', '/photos/tagged.txt', { body: 'x', headers: { 'content-type': 'text/plain' } })
    const set = await dav('PROPPATCH', '/photos/tagged.txt', { body: update('<D:set><D:prop><Z:colour>red &amp; blue</Z:colour></D:prop></D:set>') })
    expect(set.status).toBe(207)
    expect(await set.text()).toContain('HTTP/1.1 200 OK')
    const ask = '<D:propfind xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:prop><Z:colour/></D:prop></D:propfind>'
    expect(await (await propfind('/photos/tagged.txt', '0', { body: ask })).text()).toContain('>red &amp; blue</Z:colour>')
    expect((await dav('COPY', '/photos/tagged.txt', { headers: { destination: `${pod.baseUrl}/photos/copy.txt` } })).status).toBe(201)
    expect((await dav('MOVE', '/photos/tagged.txt', { headers: { destination: `${pod.baseUrl}/photos/moved.txt` } })).status).toBe(201)
    for (const p of ['/photos/copy.txt', '/photos/moved.txt']) expect(await (await propfind(p, '0', { body: ask })).text()).toContain('red &amp; blue')
    expect((await dav('DELETE', '/photos/moved.txt')).status).toBe(204)
    await dav('PUT', '/photos/moved.txt', { body: 'y', headers: { 'content-type': 'text/plain' } })
    expect(await (await propfind('/photos/moved.txt', '0', { body: ask })).text()).toContain('HTTP/1.1 404 Not Found')
  })

  test('a live property is protected: 403 for it, 424 for the rest, nothing changed', async () => {
    const res = await dav('PROPPATCH', '/photos/copy.txt', { body: update('<D:set><D:prop><D:getetag>"x"</D:getetag><Z:size>big</Z:size></D:prop></D:set>') })
    expect(res.status).toBe(207)
    const xml = await res.text()
    expect(xml).toContain('HTTP/1.1 403 Forbidden')
    expect(xml).toContain('HTTP/1.1 424 Failed Dependency')
  })
})

describe('RFC 4918 §9.3: MKCOL', () => {
  test('on an existing path: 405 method_not_allowed', async () => {
    const res = await dav('MKCOL', '/photos/')
    expect(res.status).toBe(405)
    expect(await res.text()).toStartWith('method_not_allowed:')
  })
  test('without its parent: 409 missing_parent', async () => {
    const res = await dav('MKCOL', '/nowhere/new/')
    expect(res.status).toBe(409)
    expect(await res.text()).toStartWith('missing_parent:')
  })
  test('with a body: 415 unsupported_media_type', async () => {
    const res = await dav('MKCOL', '/photos/bodied/', { body: '<x/>', headers: { 'content-type': 'application/xml' } })
    expect(res.status).toBe(415)
    expect(await res.text()).toStartWith('unsupported_media_type:')
  })
  test("a mounted drive's PUT into a missing folder: 409 missing_parent (RFC 4918 §9.7.1)", async () => {
    const res = await dav('PUT', '/nowhere/file.txt', { body: 'x', headers: { 'content-type': 'text/plain' } })
    expect(res.status).toBe(409)
    expect(await res.text()).toStartWith('missing_parent:')
  })
})

describe('RFC 4918 §9.8, §9.9: COPY and MOVE', () => {
  test('to another host: 502 destination_elsewhere', async () => {
    const res = await dav('MOVE', '/photos/copy.txt', { headers: { destination: 'https://elsewhere.example/photos/copy.txt' } })
    expect(res.status).toBe(502)
    expect(await res.text()).toStartWith('destination_elsewhere:')
  })
  test('onto itself: 403 same_destination', async () => {
    const res = await dav('COPY', '/photos/copy.txt', { headers: { destination: '/photos/copy.txt' } })
    expect(res.status).toBe(403)
    expect(await res.text()).toStartWith('same_destination:')
  })
  test('Overwrite F onto an existing resource: 412 precondition_failed; T: 204', async () => {
    const f = await dav('COPY', '/photos/copy.txt', { headers: { destination: '/photos/a b.txt', overwrite: 'F' } })
    expect(f.status).toBe(412)
    expect(await f.text()).toStartWith('precondition_failed:')
    expect((await dav('COPY', '/photos/copy.txt', { headers: { destination: '/photos/a%20b.txt', overwrite: 'T' } })).status).toBe(204)
    expect(await (await dav('GET', '/photos/a%20b.txt')).text()).toBe('x')
  })
  test('into a folder without Append: 403 outside_app_scope for a credential limited elsewhere', async () => {
    const res = await dav('COPY', '/photos/copy.txt', { as: photos, headers: { destination: '/private/copy.txt' } })
    expect(res.status).toBe(403)
    expect(await res.text()).toStartWith('outside_app_scope:')
  })
  test('a folder with a member that cannot be copied: 207 Multi-Status naming it, the others copied (§9.8.8)', async () => {
    expect((await dav('MKCOL', '/mixed/')).status).toBe(201)
    expect((await dav('MKCOL', '/mixed/sealed/')).status).toBe(201)
    for (const p of ['/mixed/open.txt', '/mixed/sealed/inside.txt', '/mixed/closed.txt'])
      expect((await dav('PUT', p, { body: p, headers: { 'content-type': 'text/plain' } })).status).toBe(201)
    // Nobody may read these two any more (only Control stays, on the ACL itself)
    const sealed = (target: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <${target}>; acl:mode acl:Control.`
    expect((await dav('PUT', '/mixed/closed.txt.acl', { body: sealed('./closed.txt'), headers: { 'content-type': 'text/turtle' } })).status).toBe(201)
    expect((await dav('PUT', '/mixed/sealed/.acl', { body: sealed('./'), headers: { 'content-type': 'text/turtle' } })).status).toBe(201)
    const res = await dav('COPY', '/mixed/', { headers: { destination: '/mixed-copy/' } })
    expect(res.status).toBe(207)
    const xml = await res.text()
    expect(hrefsOf(xml).sort()).toEqual(['/mixed/closed.txt', '/mixed/sealed/'])
    expect(xml.match(/<D:status>HTTP\/1.1 403 Forbidden<\/D:status>/g)).toHaveLength(2)
    expect(xml).toContain('<D:responsedescription>forbidden: ')
    expect(await (await dav('GET', '/mixed-copy/open.txt')).text()).toBe('/mixed/open.txt')
    expect((await dav('GET', '/mixed-copy/closed.txt')).status).toBe(404)
    expect((await dav('GET', '/mixed-copy/sealed/')).status).toBe(404)
  })
  test('a file copied gets a second name of its bytes (no time, no room), and each name goes its own way after', async () => {
    const film = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 251)
    expect((await dav('PUT', '/photos/%C3%A9t%C3%A9%20%231%20100%25+.bin', { body: film, headers: { 'content-type': 'video/mp4' } })).status).toBe(201)
    const res = await dav('COPY', '/photos/%C3%A9t%C3%A9%20%231%20100%25+.bin', { headers: { destination: '/photos/copie%20d%27%C3%A9t%C3%A9.bin' } })
    expect(res.status).toBe(201)
    const [source, copy] = await Promise.all(['/photos/%C3%A9t%C3%A9%20%231%20100%25+.bin', '/photos/copie%20d%27%C3%A9t%C3%A9.bin'].map(p => dav('GET', p)))
    expect(copy!.headers.get('content-type')).toBe('video/mp4')
    expect(copy!.headers.get('repr-digest')).toBe(source!.headers.get('repr-digest'))
    expect(copy!.headers.get('etag')).not.toBe(source!.headers.get('etag'))
    expect(new Uint8Array(await copy!.arrayBuffer())).toEqual(film)
    await source!.arrayBuffer()
    // One file on the disk with two names: the blob store's files/ holds it once
    const names = blobFilesOf(pod.dataDir).filter(f => statSync(f).size === film.length)
    expect(names).toHaveLength(2)
    expect(statSync(names[0]!).ino).toBe(statSync(names[1]!).ino)
    // A new version of the source is new bytes: the copy keeps what was copied; the source gone, the copy stays
    expect((await dav('PUT', '/photos/%C3%A9t%C3%A9%20%231%20100%25+.bin', { body: 'changed', headers: { 'content-type': 'video/mp4' } })).status).toBe(204)
    expect((await dav('DELETE', '/photos/%C3%A9t%C3%A9%20%231%20100%25+.bin')).status).toBe(204)
    expect(new Uint8Array(await (await dav('GET', '/photos/copie%20d%27%C3%A9t%C3%A9.bin')).arrayBuffer())).toEqual(film)
  })
  test('a folder with everything in it, Depth infinity', async () => {
    expect((await dav('COPY', '/photos/', { headers: { destination: '/photos-copy/' } })).status).toBe(201)
    expect(await (await dav('GET', '/photos-copy/%C3%A9t%C3%A9.txt')).text()).toBe('été.txt')
  })
})

describe('RFC 4918 §9.10, §9.11: LOCK and UNLOCK, honoured by the resource server', () => {
  let token = ''
  test('LOCK: 200 with the token; a second exclusive lock: 423 lock_conflict', async () => {
    const res = await dav('LOCK', '/photos/copy.txt', { headers: { timeout: 'Second-600' }, body: lockBody() })
    expect(res.status).toBe(200)
    token = /<([^>]+)>/.exec(res.headers.get('lock-token')!)![1]!
    expect(await res.text()).toContain('<D:timeout>Second-600</D:timeout>')
    const again = await dav('LOCK', '/photos/copy.txt', { body: lockBody('shared') })
    expect(again.status).toBe(423)
    const xml = await again.text()
    expect(xml).toContain('<D:no-conflicting-lock/>')
    expect(xml).toContain('>lock_conflict: ')
  })
  test('PUT, DELETE, MOVE without the token: 423 locked', async () => {
    for (const [method, headers] of [
      ['PUT', { 'content-type': 'text/plain' }],
      ['DELETE', {}],
      ['MOVE', { destination: '/photos/elsewhere.txt' }],
    ] as const) {
      const res = await dav(method, '/photos/copy.txt', { headers, ...(method === 'PUT' ? { body: 'changed' } : {}) })
      expect(res.status).toBe(423)
      // the resource server's text for PUT and DELETE, the dav role's XML for MOVE
      expect(await res.text()).toMatch(method === 'MOVE' ? /<D:lock-token-submitted\/><S:refusal [^>]*>locked: / : /^locked: /)
    }
  })
  test('PUT with the token in If: 204; with an unknown token: 412', async () => {
    expect((await dav('PUT', '/photos/copy.txt', { body: 'changed', headers: { 'content-type': 'text/plain', if: `(<${token}>)` } })).status).toBe(204)
    expect(
      (
        await dav('PUT', '/photos/copy.txt', {
          body: 'changed',
          headers: { 'content-type': 'text/plain', if: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' },
        })
      ).status,
    ).toBe(412)
  })
  test('PROPFIND shows the lock; UNLOCK with another token: 409 lock_token_mismatch; with its own: 204, then writes pass', async () => {
    expect(await (await propfind('/photos/copy.txt', '0')).text()).toContain(token)
    const wrong = await dav('UNLOCK', '/photos/copy.txt', { headers: { 'lock-token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' } })
    expect(wrong.status).toBe(409)
    const xml = await wrong.text()
    expect(xml).toContain('<D:lock-token-matches-request-uri/>')
    expect(xml).toContain('>lock_token_mismatch: ')
    expect((await dav('UNLOCK', '/photos/copy.txt', { headers: { 'lock-token': `<${token}>` } })).status).toBe(204)
    expect((await dav('PUT', '/photos/copy.txt', { body: 'free', headers: { 'content-type': 'text/plain' } })).status).toBe(204)
  })
  test('LOCK of an unmapped name makes an empty resource: 201', async () => {
    const res = await dav('LOCK', '/photos/new.txt', { body: lockBody() })
    expect(res.status).toBe(201)
    expect((await dav('GET', '/photos/new.txt')).status).toBe(200)
  })
})

/** A refusal's code: the resource server's plain text starts with it, the dav role's XML names it in its refusal. */
async function refusalOf(res: Response) {
  const text = await res.text()
  return { status: res.status, code: (/^(\w+): /.exec(text) ?? />(\w+): /.exec(text))?.[1] }
}

describe('access before locks: a lock tells nothing to whoever may not write', () => {
  const writes = [
    ['PUT', { 'content-type': 'text/plain' }, 'overwritten'],
    ['DELETE', {}, undefined],
    ['MOVE', { destination: '/private/moved.txt' }, undefined],
  ] as const
  const TARGETS = ['/private/locked.txt', '/private/diary.txt', '/private/never-was.txt']
  let token = ''
  beforeAll(async () => {
    const res = await dav('LOCK', '/private/locked.txt', { body: lockBody() })
    expect(res.status).toBe(201)
    token = /<([^>]+)>/.exec(res.headers.get('lock-token')!)![1]!
  })

  test('anonymous PUT, DELETE, MOVE: 401 unauthenticated with a Basic challenge, locked, unlocked or missing alike', async () => {
    for (const [method, headers, body] of writes) {
      for (const path of TARGETS) {
        const res = await dav(method, path, { as: null, headers, ...(body !== undefined ? { body } : {}) })
        expect(res.headers.get('www-authenticate')).toContain('Basic realm="solopod"')
        expect({ method, path, ...(await refusalOf(res)) }).toEqual({ method, path, status: 401, code: 'unauthenticated' })
      }
    }
  })

  test('a credential limited to another folder: 403 outside_app_scope, locked, unlocked or missing alike', async () => {
    for (const [method, headers, body] of writes) {
      for (const path of TARGETS) {
        const res = await dav(method, path, { as: photos, headers, ...(body !== undefined ? { body } : {}) })
        expect({ method, path, ...(await refusalOf(res)) }).toEqual({ method, path, status: 403, code: 'outside_app_scope' })
      }
    }
  })

  test('the owner without the token: 423 locked; with it the write passes', async () => {
    for (const [method, headers, body] of writes) {
      const res = await dav(method, '/private/locked.txt', { headers, ...(body !== undefined ? { body } : {}) })
      expect({ method, ...(await refusalOf(res)) }).toEqual({ method, status: 423, code: 'locked' })
    }
    const put = await dav('PUT', '/private/locked.txt', { body: 'mine', headers: { 'content-type': 'text/plain', if: `(<${token}>)` } })
    expect(put.status).toBe(204)
    expect((await dav('UNLOCK', '/private/locked.txt', { headers: { 'lock-token': `<${token}>` } })).status).toBe(204)
  })

  test('COPY and MOVE into a folder they may not write: 403 outside_app_scope, whatever is there (never 412, 409 or 423)', async () => {
    expect((await dav('PUT', '/photos/source.txt', { as: photos, body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(201)
    expect((await dav('MKCOL', '/private/locked folder/')).status).toBe(201)
    const lock = await dav('LOCK', '/private/locked%20folder/', { body: lockBody(), headers: { depth: 'infinity' } })
    expect(lock.status).toBe(200)
    const destinations = ['/private/diary.txt', '/private/fresh.txt', '/private/no%20such/x.txt', '/private/locked%20folder/new.txt']
    for (const method of ['COPY', 'MOVE']) {
      for (const destination of destinations) {
        const res = await dav(method, '/photos/source.txt', { as: photos, headers: { destination, overwrite: 'F' } })
        expect({ method, destination, ...(await refusalOf(res)) }).toEqual({ method, destination, status: 403, code: 'outside_app_scope' })
      }
    }
    expect(await (await dav('GET', '/private/diary.txt')).text()).toBe('Dear diary')
    expect((await dav('GET', '/photos/source.txt', { as: photos })).status).toBe(200)
    const token = /<([^>]+)>/.exec(lock.headers.get('lock-token')!)![1]!
    expect((await dav('UNLOCK', '/private/locked%20folder/', { headers: { 'lock-token': `<${token}>` } })).status).toBe(204)
  })

  test('PROPPATCH and UNLOCK by a stranger: 401, never 423 or 409', async () => {
    const proppatch = await dav('PROPPATCH', '/private/diary.txt', {
      as: null,
      body: '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>',
    })
    expect(await refusalOf(proppatch)).toEqual({ status: 401, code: 'unauthenticated' })
    const unlock = await dav('UNLOCK', '/private/diary.txt', { as: null, headers: { 'lock-token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' } })
    expect(await refusalOf(unlock)).toEqual({ status: 401, code: 'unauthenticated' })
  })
})

describe('locks live in memory: a restart forgets them (RFC 4918 §6.6)', () => {
  test('the old token: 412 precondition_failed naming the restart on a write, 409 on UNLOCK, 412 on a refresh; the file is unlocked', async () => {
    expect((await dav('PUT', '/photos/kept.txt', { body: 'before', headers: { 'content-type': 'text/plain' } })).status).toBe(201)
    const lock = await dav('LOCK', '/photos/kept.txt', { body: lockBody() })
    expect(lock.status).toBe(200)
    const token = /<([^>]+)>/.exec(lock.headers.get('lock-token')!)![1]!
    await pod.restart()
    const put = await dav('PUT', '/photos/kept.txt', { body: 'after', headers: { 'content-type': 'text/plain', if: `(<${token}>)` } })
    expect(put.status).toBe(412)
    const why = await put.text()
    expect(why).toStartWith('precondition_failed:')
    expect(why).toContain('forgotten when the pod restarts')
    const unlock = await dav('UNLOCK', '/photos/kept.txt', { headers: { 'lock-token': `<${token}>` } })
    expect(unlock.status).toBe(409)
    expect(await unlock.text()).toContain('>lock_token_mismatch: ')
    const refresh = await dav('LOCK', '/photos/kept.txt', { headers: { if: `(<${token}>)` } })
    expect(refresh.status).toBe(412)
    expect(await refresh.text()).toStartWith('precondition_failed:')
    // nothing stays locked by a client that went away with the restart
    expect((await dav('PUT', '/photos/kept.txt', { body: 'after', headers: { 'content-type': 'text/plain' } })).status).toBe(204)
    expect(await (await dav('GET', '/photos/kept.txt')).text()).toBe('after')
  }, 60_000)
})

describe('HTTP Basic with a client credential', () => {
  test('a removed credential is refused on its next request: 401 invalid_credentials', async () => {
    const gone = await addClient('--name', 'Old phone')
    expect((await propfind('/photos/', '0', { as: gone })).status).toBe(207)
    expect((await runSolopod('clients', 'remove', gone.id, '--data', pod.dataDir)).code).toBe(0)
    const res = await propfind('/photos/', '0', { as: gone })
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('invalid_credentials:')
    expect(res.headers.get('www-authenticate')).toContain('Basic realm="solopod"')
  })

  // Last: it uses up this address's window of wrong passwords
  test('wrong passwords from one address: 401, then 429 too_many_attempts with Retry-After', async () => {
    const wrong = { id: photos.id, secret: 'A'.repeat(43) }
    // 10 wrong passwords per address in 15 minutes (the removed credential's above was one of them)
    for (let i = 0; i < 9; i++) expect((await propfind('/photos/', '0', { as: wrong })).status).toBe(401)
    const res = await propfind('/photos/', '0', { as: wrong })
    expect(res.status).toBe(429)
    expect(await res.text()).toStartWith('too_many_attempts:')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(pod.output()).not.toContain(photos.secret)
  })
})
