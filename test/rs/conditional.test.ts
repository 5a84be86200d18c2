// RFC 9110 §8.8 and §13: strong ETags, Last-Modified, If-Match / If-None-Match / If-Modified-Since.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { expectRsError, expectStatus, randomBytes, snapshotStore, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
let clock = Date.parse('2031-03-04T05:06:07.000Z')
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'], now: () => clock })
})
afterAll(() => pod.close())

let n = 0
async function freshDoc(): Promise<{ path: string; etag: string }> {
  const path = `/pub/cond/doc${++n}`
  await expectStatus(pod.request(path, withTurtle('PUT', '<#a> <http://example.org/ns#p> 1.')), 201)
  return { path, etag: (await pod.request(path)).headers.get('etag')! }
}
const put = (path: string, headers: Record<string, string>) => pod.request(path, withTurtle('PUT', '<#a> <http://example.org/ns#p> 2.', headers))
const etagOf = async (path: string, accept = 'text/turtle') => (await pod.request(path, { headers: { accept } })).headers.get('etag')

describe('RFC 9110 §8.8.3 ETag', () => {
  test.each([
    ['document', 'doc'],
    ['container', 'box/'],
    ['binary', 'bin'],
  ])('a %s has a strong ETag', async (_kind, name) => {
    const path = `/pub/cond/strong/${name}`
    const body =
      name === 'bin' ? withBody('PUT', 'application/octet-stream', randomBytes(32)) : { method: 'PUT', ...(name === 'doc' ? withTurtle('PUT', '') : {}) }
    await expectStatus(pod.request(path, body), 201)
    expect(await etagOf(path)).toMatch(/^"[^"]+"$/)
  })

  test('each RDF syntax of one state has its own ETag', async () => {
    const { path, etag } = await freshDoc()
    expect(await etagOf(path, 'application/ld+json')).not.toBe(etag)
  })

  test('every write changes the ETag', async () => {
    const { path, etag } = await freshDoc()
    await expectStatus(put(path, {}), 204)
    expect(await etagOf(path)).not.toBe(etag)
  })
})

describe('RFC 9110 §8.8.2 Last-Modified', () => {
  test('is the time of the last write', async () => {
    clock = Date.parse('2031-05-06T07:08:09.000Z')
    const { path } = await freshDoc()
    expect((await pod.request(path)).headers.get('last-modified')).toBe('Tue, 06 May 2031 07:08:09 GMT')
  })

  test("a container's Last-Modified follows a new member", async () => {
    await expectStatus(pod.request('/pub/cond/lm/', { method: 'PUT' }), 201)
    clock += 60_000
    await expectStatus(pod.request('/pub/cond/lm/a/b', withTurtle('PUT', '')), 201)
    const res = await pod.request('/pub/cond/lm/')
    expect(res.headers.get('last-modified')).toBe(new Date(clock).toUTCString())
  })
})

describe("RFC 9110 §8.8.3: a container's strong ETag changes with its listing", () => {
  const containerEtag = () => etagOf('/pub/cond/list/')
  beforeAll(async () => {
    await expectStatus(pod.request('/pub/cond/list/', { method: 'PUT' }), 201)
  })

  test('when a member is created', async () => {
    const before = await containerEtag()
    await expectStatus(pod.request('/pub/cond/list/m1', withTurtle('PUT', '')), 201)
    expect(await containerEtag()).not.toBe(before)
  })

  test('when a member container is created on the way to a deeper document', async () => {
    const before = await containerEtag()
    await expectStatus(pod.request('/pub/cond/list/sub/deeper/doc', withTurtle('PUT', '')), 201)
    expect(await containerEtag()).not.toBe(before)
  })

  test('when a member is replaced (its dcterms:modified and stat:size are listed)', async () => {
    await expectStatus(pod.request('/pub/cond/list/m2', withTurtle('PUT', '')), 201)
    const before = await containerEtag()
    clock += 1000
    await expectStatus(pod.request('/pub/cond/list/m2', withTurtle('PUT', '<#a> <http://example.org/ns#p> "longer".')), 204)
    expect(await containerEtag()).not.toBe(before)
  })

  test('when a member is deleted', async () => {
    await expectStatus(pod.request('/pub/cond/list/m3', withTurtle('PUT', '')), 201)
    const before = await containerEtag()
    await expectStatus(pod.request('/pub/cond/list/m3', { method: 'DELETE' }), 204)
    expect(await containerEtag()).not.toBe(before)
  })

  test('when a member container gains a member (its listed dcterms:modified changes)', async () => {
    const before = await containerEtag()
    clock += 1000
    await expectStatus(pod.request('/pub/cond/list/sub/other', withTurtle('PUT', '')), 201)
    expect(await containerEtag()).not.toBe(before)
  })
})

describe('RFC 9110 §13.1.1 If-Match on writes', () => {
  test('the current ETag lets a PUT through', async () => {
    const { path, etag } = await freshDoc()
    expect((await put(path, { 'if-match': etag })).status).toBe(204)
  })

  test('the ETag of another syntax of the same state lets it through too', async () => {
    const { path } = await freshDoc()
    expect((await put(path, { 'if-match': (await etagOf(path, 'application/ld+json'))! })).status).toBe(204)
  })

  test.each(['PUT', 'PATCH', 'DELETE'])('a stale ETag on %s is 412 precondition_failed and nothing changes', async method => {
    const { path, etag } = await freshDoc()
    await expectStatus(put(path, {}), 204)
    const before = await snapshotStore(pod.store)
    const body =
      method === 'PATCH'
        ? withBody('PATCH', 'application/sparql-update', 'INSERT DATA { <#b> <http://example.org/ns#p> 3 . }', { 'if-match': etag })
        : method === 'PUT'
          ? withTurtle('PUT', '', { 'if-match': etag })
          : { method, headers: { 'if-match': etag } }
    await expectRsError(await pod.request(path, body), 412, 'precondition_failed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a weak tag never matches (strong comparison): 412', async () => {
    const { path, etag } = await freshDoc()
    await expectRsError(await put(path, { 'if-match': `W/${etag}` }), 412, 'precondition_failed')
  })

  test('If-Match on a resource that does not exist is 412 and creates nothing', async () => {
    const before = await snapshotStore(pod.store)
    await expectRsError(await put('/pub/cond/absent', { 'if-match': '"abc"' }), 412, 'precondition_failed')
    await expectRsError(await put('/pub/cond/absent', { 'if-match': '*' }), 412, 'precondition_failed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('If-Match: * lets a write to an existing resource through', async () => {
    const { path } = await freshDoc()
    expect((await put(path, { 'if-match': '*' })).status).toBe(204)
  })
})

describe('RFC 9110 §13.1.2 If-None-Match on writes', () => {
  test('If-None-Match: * creates a missing resource', async () => {
    expect((await put('/pub/cond/safe-create', { 'if-none-match': '*' })).status).toBe(201)
  })

  test('If-None-Match: * on an existing resource is 412 and it is unchanged', async () => {
    const { path } = await freshDoc()
    const before = await snapshotStore(pod.store)
    await expectRsError(await put(path, { 'if-none-match': '*' }), 412, 'precondition_failed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('If-None-Match with the current ETag on a write is 412', async () => {
    const { path, etag } = await freshDoc()
    await expectRsError(await put(path, { 'if-none-match': etag }), 412, 'precondition_failed')
  })
})

describe('RFC 9110 §13.1.2–3 conditional GET', () => {
  test('If-None-Match with the current ETag is 304 with the ETag and no body', async () => {
    const { path, etag } = await freshDoc()
    const res = await pod.request(path, { headers: { 'if-none-match': etag } })
    expect(res.status).toBe(304)
    expect(res.headers.get('etag')).toBe(etag)
    expect(await res.text()).toBe('')
  })

  test('If-None-Match uses the weak comparison (W/ tag still 304)', async () => {
    const { path, etag } = await freshDoc()
    expect((await pod.request(path, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304)
  })

  test('If-None-Match with a stale ETag is 200', async () => {
    const { path, etag } = await freshDoc()
    await expectStatus(put(path, {}), 204)
    expect((await pod.request(path, { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  test('If-Modified-Since at or after Last-Modified is 304, before it 200', async () => {
    const { path } = await freshDoc()
    const lastModified = (await pod.request(path)).headers.get('last-modified')!
    expect((await pod.request(path, { headers: { 'if-modified-since': lastModified } })).status).toBe(304)
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString()
    expect((await pod.request(path, { headers: { 'if-modified-since': earlier } })).status).toBe(200)
  })

  test('If-None-Match takes precedence over If-Modified-Since', async () => {
    const { path } = await freshDoc()
    const lastModified = (await pod.request(path)).headers.get('last-modified')!
    const res = await pod.request(path, { headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified } })
    expect(res.status).toBe(200)
  })
})
