// Container listings in pages (LWS pagination: Link first/last/next/prev, opaque cursors) and in every syntax.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { writeResource } from '../../src/store/resources.ts'
import { openPod, type Pod } from './pod-fixture.ts'
import { DCTERMS, LDP, RDF_TYPE, STAT, expectRsError, expectStatus, linksOf, objectsOf, parseTurtle, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
const url = (path: string) => pod.base + path
const MEMBERS = 25
/** Names a person gives files: a space, accents, `#`, `?`, `%`, `+`, a colon (which must not read as a scheme), a folder. */
const ODD_NAMES = ['a%20b.txt', '%C3%A9t%C3%A9.txt', 'h%23sh.txt', 'q%3Fx.txt', 'p%25c.txt', 'plus+one.txt', 'x:y.txt', 'sub%20dir/']

const seedDocument = (path: string, size: number) =>
  writeResource(pod.store, pod.base, path, { kind: 'rdf', contentType: 'text/turtle', triples: [], size }, Date.parse('2031-01-02T03:04:05.678Z'))

beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  await expectStatus(pod.request('/pub/paged/', withTurtle('PUT', '<> <http://purl.org/dc/terms/title> "Paged".')), 201)
  await Promise.all(Array.from({ length: MEMBERS }, (_, i) => seedDocument(`/pub/paged/m${String(i).padStart(2, '0')}.ttl`, i)))
  await expectStatus(pod.request('/pub/odd/', { method: 'PUT' }), 201)
  for (const name of ODD_NAMES) {
    await expectStatus(pod.request(`/pub/odd/${name}`, name.endsWith('/') ? { method: 'PUT' } : withBody('PUT', 'text/plain', name)), 201)
  }
})
afterAll(() => pod.close())

const members = (quads: readonly Quad[], container: string) => objectsOf(quads, url(container), LDP('contains'))
const linkTo = (res: Response, rel: string) => linksOf(res).find(l => l.rel === rel)?.target
/** A page link as a path the fixture can request. */
const pathOf = (link: string) => link.slice(pod.base.length)

async function page(path: string): Promise<{ res: Response; items: string[] }> {
  const res = await expectStatus(pod.request(path), 200)
  return { res, items: members(parseTurtle(await res.text(), url(path)), '/pub/paged/') }
}

describe('W3C LWS Protocol, Pagination: pages through Link relations', () => {
  test('page=first answers the first `limit` members, with first, last and next links and no prev', async () => {
    const { res, items } = await page('/pub/paged/?page=first&limit=4')
    expect(items).toEqual([0, 1, 2, 3].map(i => url(`/pub/paged/m0${i}.ttl`)))
    expect(linksOf(res).map(l => l.rel)).toEqual(expect.arrayContaining(['first', 'last', 'next']))
    expect(linkTo(res, 'prev')).toBeUndefined()
  })

  test('limit alone asks for the first page', async () => {
    const { items } = await page('/pub/paged/?limit=2')
    expect(items).toEqual([url('/pub/paged/m00.ttl'), url('/pub/paged/m01.ttl')])
  })

  test('following next walks every member once, in order, and the last page has no next', async () => {
    const seen: string[] = []
    let next: string | undefined = '/pub/paged/?page=first&limit=4'
    let last: Response | undefined
    while (next) {
      const { res, items } = await page(next)
      seen.push(...items)
      last = res
      next = linkTo(res, 'next') && pathOf(linkTo(res, 'next')!)
    }
    expect(seen).toEqual(Array.from({ length: MEMBERS }, (_, i) => url(`/pub/paged/m${String(i).padStart(2, '0')}.ttl`)))
    expect(linkTo(last!, 'prev')).toBeDefined()
  })

  test('following prev from the last page walks every member backwards', async () => {
    const seen: string[] = []
    let prev: string | undefined = '/pub/paged/?page=last&limit=6'
    while (prev) {
      const { res, items } = await page(prev)
      seen.unshift(...items)
      prev = linkTo(res, 'prev') && pathOf(linkTo(res, 'prev')!)
    }
    expect(seen.length).toBe(MEMBERS)
    expect(new Set(seen).size).toBe(MEMBERS)
    expect(seen).toEqual([...seen].sort())
  })

  test('links keep the limit the client asked for and are opaque tokens, not offsets', async () => {
    const { res } = await page('/pub/paged/?page=first&limit=4')
    const next = new URL(linkTo(res, 'next')!)
    expect(next.searchParams.get('limit')).toBe('4')
    expect(next.searchParams.get('page')).toMatch(/^after\.[A-Za-z0-9_-]+$/)
  })

  test("a page holds the container's own triples and types, and each member's metadata", async () => {
    const res = await expectStatus(pod.request('/pub/paged/?page=first&limit=2'), 200)
    const quads = parseTurtle(await res.text(), url('/pub/paged/'))
    expect(objectsOf(quads, url('/pub/paged/'), DCTERMS('title'))).toEqual(['Paged'])
    expect(objectsOf(quads, url('/pub/paged/'), RDF_TYPE)).toContain(LDP('BasicContainer'))
    expect(objectsOf(quads, url('/pub/paged/m01.ttl'), STAT('size'))).toEqual(['1'])
    expect(objectsOf(quads, url('/pub/paged/m01.ttl'), DCTERMS('modified'))).toEqual(['2031-01-02T03:04:05.678Z'])
  })

  test('a plain GET still lists every member', async () => {
    const res = await expectStatus(pod.request('/pub/paged/'), 200)
    expect(members(parseTurtle(await res.text(), url('/pub/paged/')), '/pub/paged/').length).toBe(MEMBERS)
    expect(linkTo(res, 'next')).toBeUndefined()
  })
})

describe('W3C LWS Protocol, Pagination: cursors under concurrent writes', () => {
  test('members added before and after the cursor while walking: each member there throughout is seen exactly once', async () => {
    await expectStatus(pod.request('/pub/moving/', { method: 'PUT' }), 201)
    const put = (name: string) => expectStatus(pod.request(`/pub/moving/${name}`, withBody('PUT', 'text/plain', name)), 201)
    const original = Array.from({ length: 30 }, (_, i) => `k${String(i * 2).padStart(3, '0')}`)
    for (const name of original) await put(name)
    const seen: string[] = []
    let next: string | undefined = '/pub/moving/?page=first&limit=4'
    let round = 0
    while (next) {
      const res = await expectStatus(pod.request(next), 200)
      seen.push(...members(parseTurtle(await res.text(), url(next)), '/pub/moving/').map(u => u.slice(url('/pub/moving/').length)))
      // between pages: a member before every cursor, one right after it, one at the end
      round++
      await put(`a${round}`)
      await put(`${seen[seen.length - 1]}x`)
      await put(`z${round}`)
      next = linkTo(res, 'next') && pathOf(linkTo(res, 'next')!)
    }
    for (const name of original) expect(seen.filter(s => s === name)).toEqual([name])
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.some(s => s.startsWith('a'))).toBe(false) // inserted behind the cursor: never reached
  })
})

describe('RFC 9110 §8.8.3 validators of pages', () => {
  test('a page has an ETag of its own, unlike the whole listing and the other pages', async () => {
    const whole = (await pod.request('/pub/paged/')).headers.get('etag')
    const first = (await pod.request('/pub/paged/?page=first&limit=4')).headers.get('etag')
    const other = (await pod.request('/pub/paged/?page=first&limit=5')).headers.get('etag')
    expect(new Set([whole, first, other]).size).toBe(3)
  })

  test("If-None-Match with a page's ETag is 304 for that page and 200 for the whole listing", async () => {
    const etag = (await pod.request('/pub/paged/?page=last&limit=3')).headers.get('etag')!
    expect((await pod.request('/pub/paged/?page=last&limit=3', { headers: { 'if-none-match': etag } })).status).toBe(304)
    expect((await pod.request('/pub/paged/', { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  test("the query names no other resource: a page's Link headers are the container's (its ACL)", async () => {
    const res = await pod.request('/pub/paged/?page=first')
    expect(res.headers.get('link')).toContain(`<${url('/pub/paged/.acl')}>; rel="acl"`)
  })
})

describe('W3C LWS Protocol, Pagination: a page parameter the pod did not hand out', () => {
  const token = (name: string) => Buffer.from(name).toString('base64url')
  test.each([
    ['an unknown page word', 'page=second'],
    ['a token of another kind', `page=from.${token('m01.ttl')}`],
    ['a token that is not base64url', 'page=after.%21%21'],
    ['a token naming a path below a member', `page=after.${token('a/b')}`],
    ['a token naming an empty name', 'page=after.'],
    ['page given twice', 'page=first&page=last'],
    ['limit 0', 'page=first&limit=0'],
    ['limit over 10,000', 'page=first&limit=10001'],
    ['limit not a number', 'limit=ten'],
    ['a negative limit', 'limit=-5'],
  ])('%s → 400 invalid_page', async (_, query) => {
    const body = await expectRsError(await pod.request(`/pub/paged/?${query}`), 400, 'invalid_page')
    expect(body).toContain('page=first')
  })
})

describe('Solid Protocol §5.1 listings in Turtle, N-Triples and JSON-LD', () => {
  const oddUrls = () => ODD_NAMES.map(n => url(`/pub/odd/${n}`)).sort()
  const ntriples = (quads: readonly Quad[]) => new Set(quads.map(q => `${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}`))

  test('names with spaces, accents, #, ?, %, + and : are members under their own IRIs in Turtle', async () => {
    const quads = parseTurtle(await (await pod.request('/pub/odd/')).text(), url('/pub/odd/'))
    expect(members(quads, '/pub/odd/').sort()).toEqual(oddUrls())
    expect(objectsOf(quads, url('/pub/odd/x:y.txt'), STAT('size'))).toEqual(['7'])
  })

  test('N-Triples lists the same graph as Turtle', async () => {
    const turtle = parseTurtle(await (await pod.request('/pub/odd/')).text(), url('/pub/odd/'))
    const res = await pod.request('/pub/odd/', { headers: { accept: 'application/n-triples' } })
    expect(res.headers.get('content-type')).toStartWith('application/n-triples')
    const nt = new Parser({ format: 'N-Triples' }).parse(await res.text()) as Quad[]
    expect(ntriples(nt)).toEqual(ntriples(turtle))
  })

  test('JSON-LD parses with jsonld.js to the same graph as Turtle', async () => {
    const jsonld = (await import('jsonld')).default
    const turtle = parseTurtle(await (await pod.request('/pub/odd/')).text(), url('/pub/odd/'))
    const res = await pod.request('/pub/odd/', { headers: { accept: 'application/ld+json' } })
    const quads = (await jsonld.toRDF((await res.json()) as object)) as unknown as Quad[]
    expect(ntriples(quads)).toEqual(ntriples(turtle))
  })

  test('a JSON-LD page parses with jsonld.js too', async () => {
    const jsonld = (await import('jsonld')).default
    const res = await pod.request('/pub/paged/?page=first&limit=3', { headers: { accept: 'application/ld+json' } })
    const quads = (await jsonld.toRDF((await res.json()) as object)) as unknown as Quad[]
    expect(quads.filter(q => q.predicate.value === LDP('contains')).length).toBe(3)
  })

  test("the container's own triples come before its members", async () => {
    const text = await (await pod.request('/pub/paged/')).text()
    expect(text.indexOf('"Paged"')).toBeGreaterThan(0)
    expect(text.indexOf('"Paged"')).toBeLessThan(text.indexOf('m00.ttl'))
  })
})

describe('RFC 9110 §9.3.2 HEAD of a container', () => {
  test('reads no member: no metadata is fetched for the listing', async () => {
    await expectStatus(pod.request('/pub/head-only/', { method: 'PUT' }), 201)
    await expectStatus(pod.request('/pub/head-only/a', withBody('PUT', 'text/plain', 'a')), 201)
    const original = pod.store.meta.getMany
    let reads = 0
    pod.store.meta.getMany = (...args) => {
      reads++
      return original.apply(pod.store.meta, args)
    }
    try {
      const res = await pod.request('/pub/head-only/', { method: 'HEAD' })
      expect(res.status).toBe(200)
      expect(res.headers.get('etag')).toBeTruthy()
      expect(reads).toBe(0)
    } finally {
      pod.store.meta.getMany = original
    }
  })

  test('once a small listing was read, HEAD gives its length from the kept body', async () => {
    const get = await pod.request('/pub/odd/')
    const length = get.headers.get('content-length')
    expect(Number(length)).toBe((await get.arrayBuffer()).byteLength)
    expect((await pod.request('/pub/odd/', { method: 'HEAD' })).headers.get('content-length')).toBe(length)
  })
})

describe('a listing longer than two chunks is streamed', () => {
  test('no Content-Length; every one of 2,500 members, in order, with its metadata', async () => {
    await expectStatus(pod.request('/pub/long/', { method: 'PUT' }), 201)
    const n = 2500
    for (let i = 0; i < n; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, j) => seedDocument(`/pub/long/d${String(i + j).padStart(4, '0')}`, i + j)))
    }
    const res = await expectStatus(pod.request('/pub/long/'), 200)
    expect(res.headers.get('content-length')).toBeNull()
    const quads = parseTurtle(await res.text(), url('/pub/long/'))
    const listed = members(quads, '/pub/long/')
    expect(listed).toEqual(Array.from({ length: n }, (_, i) => url(`/pub/long/d${String(i).padStart(4, '0')}`)))
    expect(objectsOf(quads, url('/pub/long/d2345'), STAT('size'))).toEqual(['2345'])
  })
})
