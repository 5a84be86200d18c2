// POST to containers: names minted from Slug, containers on request, never an overwrite.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { EX, LDP, expectRsError, expectStatus, hasTriple, randomBytes, snapshotStore, triplesOf, typeLinks, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  await expectStatus(pod.request('/pub/post/', { method: 'PUT' }), 201)
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const CONTAINER_LINK = '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"'
const post = (headers: Record<string, string>, body: string | Uint8Array = '<#a> <http://example.org/ns#p> 1.', type = 'text/turtle') =>
  pod.request('/pub/post/', withBody('POST', type, body, headers))

async function created(res: Response): Promise<string> {
  expect(res.status).toBe(201)
  const location = res.headers.get('location')!
  expect(location.startsWith(url('/pub/post/'))).toBe(true)
  return location
}

describe('Solid Protocol §5.3 POST mints a member of the container', () => {
  test('answers 201 with a Location directly under the container, named from the Slug', async () => {
    const location = await created(await post({ slug: 'note' }))
    expect(location).toBe(url('/pub/post/note'))
    const triples = await triplesOf(await pod.request('/pub/post/note'), location)
    expect(hasTriple(triples, `${location}#a`, EX('p'), '1')).toBe(true)
  })

  test('the new member is listed in the container', async () => {
    const location = await created(await post({ slug: 'listed' }))
    const triples = await triplesOf(await pod.request('/pub/post/'), url('/pub/post/'))
    expect(hasTriple(triples, url('/pub/post/'), LDP('contains'), location)).toBe(true)
  })

  test('the same Slug twice gives two different names, and the first is not overwritten', async () => {
    const first = await created(await post({ slug: 'twice' }, '<#a> <http://example.org/ns#p> "first".'))
    const second = await created(await post({ slug: 'twice' }, '<#a> <http://example.org/ns#p> "second".'))
    expect(second).not.toBe(first)
    const triples = await triplesOf(await pod.request(new URL(first).pathname), first)
    expect(hasTriple(triples, `${first}#a`, EX('p'), 'first')).toBe(true)
  })

  test('a Slug naming an existing container does not take the document twin of it', async () => {
    await expectStatus(pod.request('/pub/post/taken/', { method: 'PUT' }), 201)
    const location = await created(await post({ slug: 'taken' }))
    expect(location).not.toBe(url('/pub/post/taken'))
  })

  test('without a Slug the server picks a name', async () => {
    const location = await created(await post({}))
    expect(new URL(location).pathname).toMatch(/^\/pub\/post\/[^/]+$/)
  })

  test('stores a binary body byte for byte with its Content-Type', async () => {
    const bytes = randomBytes(1000)
    const location = await created(await post({ slug: 'bin' }, bytes, 'application/octet-stream'))
    const res = await pod.request(new URL(location).pathname)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  test('a non-ASCII Slug gives a member that GET of its Location finds', async () => {
    const location = await created(await post({ slug: encodeURIComponent('café') }))
    expect(location).toBe(url('/pub/post/caf%C3%A9'))
    expect((await pod.request(new URL(location).pathname)).status).toBe(200)
  })
})

describe('Solid Protocol §5.3 POST: the Slug is only a hint', () => {
  test.each([['../escape'], ['a/b'], ['..'], ['.'], ['%2e%2e'], ['%2F%2Fx'], ['x.acl'], ['.acl'], ['a%00b'], ['a\\b'], ['   '], ['%']])(
    'an unsafe Slug %p gives one safe segment directly under the container',
    async slug => {
      const location = await created(await post({ slug }))
      const name = location.slice(url('/pub/post/').length)
      expect(name).toMatch(/^[^/\\]+$/)
      expect(name).not.toMatch(/^\.+$|\.acl$|%00|%2F/i)
      expect((await pod.request(new URL(location).pathname)).status).toBe(200)
    },
  )
})

describe('Solid Protocol §5.3 POST with Link rel=type ldp:BasicContainer creates a container', () => {
  test('the Location ends in / and the new resource is a container', async () => {
    const res = await pod.request('/pub/post/', { method: 'POST', headers: { slug: 'box', link: CONTAINER_LINK } })
    const location = await created(res)
    expect(location).toBe(url('/pub/post/box/'))
    const got = await pod.request('/pub/post/box/')
    expect(typeLinks(got)).toContain(LDP('BasicContainer'))
  })

  test('a container is not created without the Link header (a document is)', async () => {
    const location = await created(await pod.request('/pub/post/', withTurtle('POST', '', { slug: 'plain' })))
    expect(location.endsWith('/')).toBe(false)
  })
})

describe('Solid Protocol §5.3 POST targets', () => {
  test('POST to a document is 405 method_not_allowed and changes nothing', async () => {
    await expectStatus(pod.request('/pub/post/doc', withTurtle('PUT', '')), 201)
    const before = await snapshotStore(pod.store)
    await expectRsError(await pod.request('/pub/post/doc', withTurtle('POST', '')), 405, 'method_not_allowed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('POST to a container that does not exist is 404 not_found and creates nothing', async () => {
    const before = await snapshotStore(pod.store)
    await expectRsError(await pod.request('/pub/post/nope/', withTurtle('POST', '')), 404, 'not_found')
    expect(await snapshotStore(pod.store)).toBe(before)
  })
})

describe('reserved URL space: POST never mints a reserved path', () => {
  test('a Slug of .well-known posted to the root gets another name', async () => {
    const open = await openPod({ publicWrite: ['/'] })
    try {
      for (const slug of ['.well-known', '.oidc', '.admin', '.uma']) {
        const res = await open.request('/', withTurtle('POST', '', { slug }))
        expect(res.status).toBe(201)
        expect(new URL(res.headers.get('location')!).pathname.startsWith(`/${slug}`)).toBe(false)
      }
    } finally {
      await open.close()
    }
  })
})

describe('Solid Protocol §5.3: concurrent POSTs never overwrite each other', () => {
  test('ten POSTs with the same Slug at once create ten resources, each with its own body', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        pod.request('/pub/', {
          method: 'POST',
          headers: { slug: 'race', 'content-type': 'text/turtle' },
          body: `<#it> <http://example.org/n> ${i}.`,
        }),
      ),
    )
    expect(results.map(r => r.status)).toEqual(Array(10).fill(201))
    const locations = results.map(r => r.headers.get('location')!)
    expect(new Set(locations).size).toBe(10)
    const bodies = await Promise.all(locations.map(async l => (await pod.request(new URL(l).pathname)).text()))
    for (const [i, body] of bodies.entries()) expect(body).toContain(`<http://example.org/n> ${i}`)
  })
})
