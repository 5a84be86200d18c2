// A container of 100,000 members over real HTTP: the whole listing streamed in three syntaxes, pages walked while it grows.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { memberName, seedMembers, seedPublicContainer } from './seed-store.ts'
import { startPod, type RunningPod } from './start-server.ts'

const MEMBERS = 100_000
const SINCE = Date.parse('2030-01-01T00:00:00.000Z')
const LDP_CONTAINS = 'http://www.w3.org/ns/ldp#contains'
const STAT_SIZE = 'http://www.w3.org/ns/posix/stat#size'
const STAT_MTIME = 'http://www.w3.org/ns/posix/stat#mtime'
const MODIFIED = 'http://purl.org/dc/terms/modified'
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'

let pod: RunningPod
const big = () => `${pod.baseUrl}/big/`

beforeAll(async () => {
  pod = await startPod({
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, '/big/', ['Read', 'Write'], store => seedMembers(store, baseUrl, '/big/', MEMBERS, SINCE)),
  })
}, 180_000)
afterAll(() => pod?.dispose())

/** Everything said of each subject, for the member checks. */
function bySubject(quads: readonly Quad[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>()
  for (const q of quads) {
    const about = out.get(q.subject.value) ?? out.set(q.subject.value, new Map()).get(q.subject.value)!
    const values = about.get(q.predicate.value)
    if (values) values.push(q.object.value)
    else about.set(q.predicate.value, [q.object.value])
  }
  return out
}

function expectEveryMember(quads: readonly Quad[]) {
  const subjects = bySubject(quads)
  const contained = subjects.get(big())!.get(LDP_CONTAINS)!
  expect(contained.length).toBe(MEMBERS)
  for (let i = 0; i < MEMBERS; i++) {
    const url = big() + memberName(i)
    if (contained[i] !== url) throw new Error(`member ${i} is ${contained[i]}, expected ${url}`)
    const about = subjects.get(url)!
    const seen = { size: about.get(STAT_SIZE), mtime: about.get(STAT_MTIME), modified: about.get(MODIFIED), types: about.get(RDF_TYPE)?.length }
    const expected = { size: [String(i)], mtime: [String(SINCE / 1000 + i)], modified: [new Date(SINCE + i * 1000).toISOString()], types: 2 }
    if (JSON.stringify(seen) !== JSON.stringify(expected)) throw new Error(`member ${i}: ${JSON.stringify(seen)} ≠ ${JSON.stringify(expected)}`)
  }
}

describe('Solid Protocol §5.1: a listing of 100,000 members, streamed', () => {
  test('Turtle: every member in order, with its types, stat:size, stat:mtime and dcterms:modified; chunked, no Content-Length', async () => {
    const res = await fetch(big(), { headers: { accept: 'text/turtle' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBeNull()
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-t"$/)
    expectEveryMember(new Parser({ baseIRI: big() }).parse(await res.text()) as Quad[])
  })

  test('N-Triples: the same members and metadata', async () => {
    const res = await fetch(big(), { headers: { accept: 'application/n-triples' } })
    expect(res.headers.get('content-type')).toStartWith('application/n-triples')
    expectEveryMember(new Parser({ format: 'N-Triples' }).parse(await res.text()) as Quad[])
  })

  test('JSON-LD: one JSON array of node objects naming every member', async () => {
    const res = await fetch(big(), { headers: { accept: 'application/ld+json' } })
    const nodes = (await res.json()) as { '@id': string; [p: string]: unknown }[]
    const contained = nodes.filter(n => n['@id'] === big()).flatMap(n => (n[LDP_CONTAINS] as { '@id': string }[] | undefined) ?? [])
    expect(contained.length).toBe(MEMBERS)
    expect(contained[MEMBERS - 1]).toEqual({ '@id': big() + memberName(MEMBERS - 1) })
    expect(nodes.filter(n => n['@id'] !== big()).length).toBe(MEMBERS)
  })

  test('a client that stops reading midway leaves the pod serving', async () => {
    const abort = new AbortController()
    const res = await fetch(big(), { signal: abort.signal })
    const reader = res.body!.getReader()
    await reader.read()
    abort.abort()
    await reader.cancel().catch(() => undefined)
    expect((await fetch(`${big()}?page=first&limit=1`)).status).toBe(200)
  })
})

describe('W3C LWS Protocol, Pagination over HTTP', () => {
  test('pages of 10,000 walk all 100,000 members while members are added: none missed, none twice', async () => {
    const seen: string[] = []
    let next: string | undefined = `${big()}?page=first&limit=10000`
    let added = 0
    while (next) {
      const res: Response = await fetch(next)
      expect(res.status).toBe(200)
      const quads = new Parser({ baseIRI: big() }).parse(await res.text()) as Quad[]
      seen.push(...quads.filter(q => q.predicate.value === LDP_CONTAINS).map(q => q.object.value))
      // members land before, inside and after the pages still to come
      for (const name of [`a${added}.txt`, `m050000x${added}.txt`, `z${added}.txt`]) {
        expect((await fetch(big() + name, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: name })).status).toBe(201)
      }
      added++
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
    expect(new Set(seen).size).toBe(seen.length)
    const original = new Set(Array.from({ length: MEMBERS }, (_, i) => big() + memberName(i)))
    expect(seen.filter(u => original.has(u)).length).toBe(MEMBERS)
  })

  test('a bad page token → 400 invalid_page, as plain text and as problem details', async () => {
    const text = await fetch(`${big()}?page=after.***`)
    expect(text.status).toBe(400)
    expect(await text.text()).toStartWith('invalid_page:')
    const problem = await fetch(`${big()}?page=first&limit=0`, { headers: { accept: 'text/turtle, application/problem+json' } })
    expect(problem.status).toBe(400)
    expect(((await problem.json()) as { error: string }).error).toBe('invalid_page')
  })
})
