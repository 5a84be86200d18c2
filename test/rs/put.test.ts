// PUT: create and replace documents and containers, intermediate containers, the protected root.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { EX, LDP, expectRsError, expectStatus, hasTriple, objectsOf, randomBytes, snapshotStore, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const contains = async (container: string) => objectsOf(await triplesOf(await pod.request(container), url(container)), url(container), LDP('contains'))

describe('Solid Protocol §5.3 PUT creates or replaces', () => {
  test('creating a document answers 201 with Location and a strong ETag', async () => {
    const res = await pod.request('/pub/put/new', withTurtle('PUT', '<#a> <http://example.org/ns#p> 1.'))
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/put/new'))
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/)
  })

  test('replacing a document answers 204 and GET serves the new content only', async () => {
    await expectStatus(pod.request('/pub/put/r', withTurtle('PUT', '<#a> <http://example.org/ns#p> "old".')), 201)
    const res = await pod.request('/pub/put/r', withTurtle('PUT', '<#a> <http://example.org/ns#p> "new".'))
    expect(res.status).toBe(204)
    expect(res.headers.get('location')).toBeNull()
    const triples = await triplesOf(await pod.request('/pub/put/r'), url('/pub/put/r'))
    expect(objectsOf(triples, url('/pub/put/r#a'), EX('p'))).toEqual(['new'])
  })

  test('accepts JSON-LD input and stores it as RDF', async () => {
    const doc = JSON.stringify({ '@id': '#a', 'http://example.org/ns#p': 'json' })
    await expectStatus(pod.request('/pub/put/j', withBody('PUT', 'application/ld+json', doc)), 201)
    const triples = await triplesOf(await pod.request('/pub/put/j'), url('/pub/put/j'))
    expect(hasTriple(triples, url('/pub/put/j#a'), EX('p'), 'json')).toBe(true)
  })

  test('accepts N-Triples input and stores it as RDF', async () => {
    const nt = `<${url('/pub/put/nt#a')}> <${EX('p')}> "nt" .\n`
    await expectStatus(pod.request('/pub/put/nt', withBody('PUT', 'application/n-triples', nt)), 201)
    const triples = await triplesOf(await pod.request('/pub/put/nt'), url('/pub/put/nt'))
    expect(hasTriple(triples, url('/pub/put/nt#a'), EX('p'), 'nt')).toBe(true)
  })

  test('replacing a binary with RDF (and back) changes how it is served', async () => {
    const path = '/pub/put/morph'
    const bytes = randomBytes(64)
    await expectStatus(pod.request(path, withBody('PUT', 'application/octet-stream', bytes)), 201)
    await expectStatus(pod.request(path, withTurtle('PUT', '<#a> <http://example.org/ns#p> 2.')), 204)
    expect((await pod.request(path)).headers.get('content-type')).toStartWith('text/turtle')
    await expectStatus(pod.request(path, withBody('PUT', 'image/png', bytes)), 204)
    const res = await pod.request(path)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })
})

describe('Solid Protocol §5.3 PUT creates every missing intermediate container', () => {
  test('each new container exists and is listed in its parent', async () => {
    await expectStatus(pod.request('/pub/deep/a/b/doc', withTurtle('PUT', '')), 201)
    expect(await contains('/pub/')).toContain(url('/pub/deep/'))
    expect(await contains('/pub/deep/')).toEqual([url('/pub/deep/a/')])
    expect(await contains('/pub/deep/a/')).toEqual([url('/pub/deep/a/b/')])
    expect(await contains('/pub/deep/a/b/')).toEqual([url('/pub/deep/a/b/doc')])
  })

  test('a PUT to a container path with no body creates an empty container', async () => {
    await expectStatus(pod.request('/pub/put/box/', { method: 'PUT' }), 201)
    const res = await pod.request('/pub/put/box/')
    expect(res.status).toBe(200)
    expect(await contains('/pub/put/')).toContain(url('/pub/put/box/'))
  })

  test('a PUT to an existing container replaces its own triples and keeps its members', async () => {
    await expectStatus(pod.request('/pub/put/keep/child', withTurtle('PUT', '')), 201)
    await expectStatus(pod.request('/pub/put/keep/', withTurtle('PUT', '<> <http://example.org/ns#label> "kept".')), 204)
    const triples = await triplesOf(await pod.request('/pub/put/keep/'), url('/pub/put/keep/'))
    expect(hasTriple(triples, url('/pub/put/keep/'), EX('label'), 'kept')).toBe(true)
    expect(hasTriple(triples, url('/pub/put/keep/'), LDP('contains'), url('/pub/put/keep/child'))).toBe(true)
  })

  test('a container body may not state ldp:contains (409 server_managed)', async () => {
    await expectStatus(pod.request('/pub/put/managed/', { method: 'PUT' }), 201)
    const before = await snapshotStore(pod.store)
    const body = '<> <http://www.w3.org/ns/ldp#contains> <ghost>.'
    await expectRsError(await pod.request('/pub/put/managed/', withTurtle('PUT', body)), 409, 'server_managed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a container body must be RDF (415 unsupported_media_type)', async () => {
    const before = await snapshotStore(pod.store)
    await expectRsError(await pod.request('/pub/put/pic/', withBody('PUT', 'image/png', randomBytes(16))), 415, 'unsupported_media_type')
    expect(await snapshotStore(pod.store)).toBe(before)
  })
})

describe('Solid Protocol §5.4 the storage root is protected', () => {
  test('PUT on the root is 405 root_protected and the root is unchanged', async () => {
    // a pod whose root the public may write: the refusal left is the method's
    const open = await openPod({ publicWrite: ['/'] })
    try {
      const before = await snapshotStore(open.store)
      const res = await open.request('/', withTurtle('PUT', ''))
      await expectRsError(res, 405, 'root_protected')
      expect(res.headers.get('allow')).not.toContain('PUT')
      expect(await snapshotStore(open.store)).toBe(before)
    } finally {
      await open.close()
    }
  })

  test('PUT on the root by an agent without Write is 401 first, with no Allow', async () => {
    const before = await snapshotStore(pod.store)
    const res = await pod.request('/', withTurtle('PUT', ''))
    await expectRsError(res, 401, 'unauthenticated')
    expect(res.headers.get('allow')).toBeNull()
    expect(await snapshotStore(pod.store)).toBe(before)
  })
})

describe('WAC: existence is not revealed before authorization', () => {
  test('an anonymous PUT of /profile/card/ is 401, not the 409 its name clash would give', async () => {
    await expectRsError(await pod.request('/profile/card/', { method: 'PUT' }), 401, 'unauthenticated')
  })

  test('an anonymous PATCH of /profile/card/ is 401, not 409', async () => {
    const patch = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#a> <#b> <#c>. }.'
    await expectRsError(await pod.request('/profile/card/', withBody('PATCH', 'text/n3', patch)), 401, 'unauthenticated')
  })
})
