// GET and HEAD of documents, containers and binaries: content negotiation and exact bytes.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import { openPod, type Pod } from './pod-fixture.ts'
import { parseRdf } from '../../src/rdf/parse-rdf.ts'
import { EX, LDP, expectRsError, expectStatus, hasTriple, randomBytes, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
const DOC = '/pub/get/doc'
const BIN = '/pub/get/blob.bin'
const bytes = randomBytes(8192)

beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  await expectStatus(pod.request(DOC, withTurtle('PUT', '<#it> <http://example.org/ns#name> "Ada"; a <http://example.org/ns#Person>.')), 201)
  await expectStatus(pod.request(BIN, withBody('PUT', 'application/x-solopod-test', bytes)), 201)
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const get = (path: string, accept?: string) => pod.request(path, accept ? { headers: { accept } } : {})

describe('Solid Protocol §5.3 GET: RDF documents in every syntax the pod offers', () => {
  test('serves Turtle by default, with the stored triples', async () => {
    const res = await get(DOC)
    expect(res.status).toBe(200)
    const triples = await triplesOf(res, url(DOC))
    expect(hasTriple(triples, `${url(DOC)}#it`, EX('name'), 'Ada')).toBe(true)
  })

  test('serves text/turtle when asked', async () => {
    const res = await get(DOC, 'text/turtle')
    expect(res.headers.get('content-type')).toBe('text/turtle; charset=utf-8')
  })

  test('serves JSON-LD when asked, the same graph as the Turtle', async () => {
    const res = await get(DOC, 'application/ld+json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    const quads = await parseRdf(await res.text(), 'application/ld+json', url(DOC))
    expect(hasTriple(quads, `${url(DOC)}#it`, EX('name'), 'Ada')).toBe(true)
    expect(quads).toHaveLength(2)
  })

  test('serves N-Triples when asked (absolute IRIs, no prefixes)', async () => {
    const res = await get(DOC, 'application/n-triples')
    expect(res.headers.get('content-type')).toBe('application/n-triples; charset=utf-8')
    const quads = new Parser({ format: 'N-Triples' }).parse(await res.text())
    expect(hasTriple(quads, `${url(DOC)}#it`, EX('name'), 'Ada')).toBe(true)
  })

  test('follows q-values: JSON-LD preferred over Turtle', async () => {
    const res = await get(DOC, 'text/turtle;q=0.5, application/ld+json')
    expect(res.headers.get('content-type')).toStartWith('application/ld+json')
  })

  test('answers a browser asking only for text/html with Turtle instead of 406', async () => {
    const res = await get(DOC, 'text/html')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/turtle')
  })

  test('answers 406 not_acceptable when no offered type is acceptable', async () => {
    await expectRsError(await get(DOC, 'image/png'), 406, 'not_acceptable')
  })

  test('serves containers as RDF too (JSON-LD with ldp:contains)', async () => {
    const res = await get('/pub/get/', 'application/ld+json')
    expect(res.status).toBe(200)
    const quads = await parseRdf(await res.text(), 'application/ld+json', url('/pub/get/'))
    expect(hasTriple(quads, url('/pub/get/'), LDP('contains'), url(DOC))).toBe(true)
  })

  test('answers 404 not_found for a resource that does not exist', async () => {
    await expectRsError(await get('/pub/get/missing'), 404, 'not_found')
  })

  test('answers 404 for the container twin of a document (/doc/ when /doc exists)', async () => {
    await expectRsError(await get(`${DOC}/`), 404, 'not_found')
  })
})

describe('Solid Protocol §5.3 GET: binary resources byte for byte', () => {
  test('returns the exact bytes with the Content-Type they were stored with', async () => {
    const res = await get(BIN)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-solopod-test')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  test('keeps Content-Type parameters of a binary (charset)', async () => {
    const path = '/pub/get/latin1.txt'
    await expectStatus(pod.request(path, withBody('PUT', 'text/plain; charset=iso-8859-1', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))), 201)
    expect((await get(path)).headers.get('content-type')).toBe('text/plain; charset=iso-8859-1')
  })

  test('Content-Length is the byte length of the body', async () => {
    expect((await get(BIN)).headers.get('content-length')).toBe(String(bytes.byteLength))
  })
})

describe('RFC 9110 §9.3.2 HEAD', () => {
  test.each([DOC, BIN, '/pub/get/'])('HEAD %s has the headers of GET and no body', async path => {
    const [g, h] = [await get(path), await pod.request(path, { method: 'HEAD' })]
    expect(h.status).toBe(200)
    for (const name of ['content-type', 'etag', 'last-modified', 'link', 'allow', 'wac-allow', 'content-length']) {
      expect(h.headers.get(name)).toBe(g.headers.get(name))
    }
    expect((await h.arrayBuffer()).byteLength).toBe(0)
  })

  test('HEAD of a missing resource is 404', async () => {
    expect((await pod.request('/pub/get/none', { method: 'HEAD' })).status).toBe(404)
  })
})

describe('Solid Protocol §5.3 OPTIONS', () => {
  test('answers 204 with Allow and the resource Link headers, without authentication', async () => {
    const res = await pod.request('/', { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toContain('GET')
    expect(res.headers.get('link')).toContain('rel="acl"')
  })
})
