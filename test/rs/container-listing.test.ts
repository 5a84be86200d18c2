// Container representations: ldp:contains and each member's type, stat:size, dcterms:modified, stat:mtime.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import { getMeta } from '../../src/store/resources.ts'
import { openPod, publicWriteAcl, type Pod } from './pod-fixture.ts'
import { DCTERMS, LDP, RDF_TYPE, STAT, expectStatus, objectsOf, randomBytes, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
let clock = Date.parse('2032-07-08T09:10:11.123Z')
const bytes = randomBytes(777)

beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'], now: () => clock })
  await expectStatus(pod.request('/pub/list/doc', withTurtle('PUT', '<#a> <http://example.org/ns#p> "x".')), 201)
  await expectStatus(pod.request('/pub/list/bin', withBody('PUT', 'text/plain; charset=utf-8', bytes)), 201)
  await expectStatus(pod.request('/pub/list/sub/', { method: 'PUT' }), 201)
  await expectStatus(pod.request('/pub/list/doc.acl', withTurtle('PUT', publicWriteAcl(url('/pub/list/doc')))), 201)
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const listing = async (): Promise<Quad[]> => triplesOf(await pod.request('/pub/list/'), url('/pub/list/'))
const IANA = (type: string) => `http://www.w3.org/ns/iana/media-types/${type}#Resource`

describe('Solid Protocol §5.1 containment', () => {
  test('ldp:contains lists exactly the members: documents, binaries and containers', async () => {
    const members = objectsOf(await listing(), url('/pub/list/'), LDP('contains')).sort()
    expect(members).toEqual([url('/pub/list/bin'), url('/pub/list/doc'), url('/pub/list/sub/')])
  })

  test('ACL documents are not members', async () => {
    expect(objectsOf(await listing(), url('/pub/list/'), LDP('contains'))).not.toContain(url('/pub/list/doc.acl'))
  })

  test('the container describes itself as ldp:BasicContainer', async () => {
    expect(objectsOf(await listing(), url('/pub/list/'), RDF_TYPE)).toContain(LDP('BasicContainer'))
  })
})

describe('Solid Protocol §5.1 member metadata in a listing', () => {
  test('a document member is typed with its media type class', async () => {
    expect(objectsOf(await listing(), url('/pub/list/doc'), RDF_TYPE)).toContain(IANA('text/turtle'))
  })

  test('a binary member is typed with its media type without parameters', async () => {
    expect(objectsOf(await listing(), url('/pub/list/bin'), RDF_TYPE)).toContain(IANA('text/plain'))
  })

  test('a container member is typed ldp:Container and ldp:BasicContainer', async () => {
    const types = objectsOf(await listing(), url('/pub/list/sub/'), RDF_TYPE)
    expect(types).toEqual(expect.arrayContaining([LDP('Container'), LDP('BasicContainer')]))
  })

  test('stat:size of a binary is its byte length', async () => {
    expect(objectsOf(await listing(), url('/pub/list/bin'), STAT('size'))).toEqual(['777'])
  })

  test('stat:size of an RDF document is the byte length of the Turtle a GET serves', async () => {
    const length = (await pod.request('/pub/list/doc')).headers.get('content-length')
    expect(objectsOf(await listing(), url('/pub/list/doc'), STAT('size'))).toEqual([length!])
  })

  test('stat:size follows a PATCH', async () => {
    const patch =
      '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#a> <http://example.org/ns#q> "a much longer value". }.'
    await expectStatus(pod.request('/pub/list/doc', withBody('PATCH', 'text/n3', patch)), 204)
    const length = (await pod.request('/pub/list/doc')).headers.get('content-length')
    expect(objectsOf(await listing(), url('/pub/list/doc'), STAT('size'))).toEqual([length!])
  })

  test('dcterms:modified is the time of the last write, the same instant as Last-Modified', async () => {
    clock = Date.parse('2032-09-10T11:12:13.000Z')
    await expectStatus(pod.request('/pub/list/doc', withTurtle('PUT', '<#a> <http://example.org/ns#p> "y".')), 204)
    const [modified] = objectsOf(await listing(), url('/pub/list/doc'), DCTERMS('modified'))
    expect(modified).toBe('2032-09-10T11:12:13.000Z')
    expect(Date.parse((await pod.request('/pub/list/doc')).headers.get('last-modified')!)).toBe(Date.parse(modified!))
  })

  test('stat:mtime is the Unix time of the last write', async () => {
    expect(objectsOf(await listing(), url('/pub/list/doc'), STAT('mtime'))).toEqual([String(Date.parse('2032-09-10T11:12:13.000Z') / 1000)])
  })
})

describe('stat:size of documents created at first start', () => {
  test('the profile document records the byte length of the Turtle a GET serves', async () => {
    const fresh = await openPod()
    try {
      const body = await (await fresh.request('/profile/card')).arrayBuffer()
      expect((await getMeta(fresh.store, '/profile/card'))?.size).toBe(body.byteLength)
    } finally {
      await fresh.close()
    }
  })
})

describe('stat:size of a written document', () => {
  test('statements of one subject that lie apart: the length of the Turtle a GET serves (statements regrouped)', async () => {
    const doc = '<#a> <http://example.org/ns#p> 1. <#b> <http://example.org/ns#p> 2. <#a> <http://example.org/ns#q> 3.'
    await expectStatus(pod.request('/pub/apart', withTurtle('PUT', doc)), 201)
    const body = await (await pod.request('/pub/apart')).arrayBuffer()
    expect((await getMeta(pod.store, '/pub/apart'))?.size).toBe(body.byteLength)
    expect(new TextDecoder().decode(body)).toContain('<#a> <http://example.org/ns#p> 1;\n')
  })
})

describe('stat:size of a document with its own prefixes and non-ASCII literals', () => {
  test('is the byte length of the Turtle a GET serves, not its length in characters', async () => {
    const doc =
      '@prefix f: <http://xmlns.com/foaf/0.1/>.\n@prefix dc: <http://purl.org/dc/terms/>.\n<#me> a f:Person; f:name "Zoë Ærø 日本"@fr; dc:title "Ünïcödé"; f:age 7.'
    await expectStatus(pod.request('/pub/unicode', withTurtle('PUT', doc)), 201)
    const res = await pod.request('/pub/unicode', { headers: { accept: 'text/turtle' } })
    const body = await res.arrayBuffer()
    const text = new TextDecoder().decode(body)
    expect(text).toContain('@prefix f: <http://xmlns.com/foaf/0.1/>.')
    expect(text).toContain('"Zoë Ærø 日本"@fr')
    expect(body.byteLength).toBeGreaterThan(text.length)
    expect((await getMeta(pod.store, '/pub/unicode'))?.size).toBe(body.byteLength)
  })
})

describe('members written side by side (issue 9: locks per resource, not per container)', () => {
  test('40 concurrent creates and 10 concurrent deletes in one container: the listing holds exactly what exists, its ETag changed', async () => {
    for (let i = 0; i < 10; i++) await expectStatus(pod.request(`/pub/busy/old-${i}`, withTurtle('PUT', `<#it> <http://example.org/ns#n> ${i}.`)), 201)
    const before = (await pod.request('/pub/busy/')).headers.get('etag')
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => expectStatus(pod.request(`/pub/busy/new-${i}`, withTurtle('PUT', `<#it> <http://example.org/ns#n> ${i}.`)), 201)),
      ...Array.from({ length: 10 }, (_, i) => expectStatus(pod.request(`/pub/busy/old-${i}`, { method: 'DELETE' }), 204)),
    ])
    const res = await pod.request('/pub/busy/')
    expect(res.headers.get('etag')).not.toBe(before)
    const members = objectsOf(await triplesOf(res, url('/pub/busy/')), url('/pub/busy/'), LDP('contains')).sort()
    expect(members).toEqual(Array.from({ length: 40 }, (_, i) => url(`/pub/busy/new-${i}`)).sort())
  })
})
