// Large RDF bodies of PUT and POST are parsed off the event loop (rdf/parse-off-thread.ts): other requests
// keep being answered meanwhile, and what is stored is exactly what an inline parse would have stored.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { EX, expectRsError, expectStatus, hasTriple, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path

/** `n` triples of Turtle, well over the inline limit (64 KiB) from a few thousand on. */
const bigTurtle = (n: number) =>
  `@prefix ex: <http://example.org/ns#>.\n${Array.from({ length: n }, (_, i) => `<#s${i}> ex:p "value ${i}", _:b${i}.`).join('\n')}\n`
const bigJsonLd = (n: number) =>
  JSON.stringify({
    '@context': { ex: 'http://example.org/ns#' },
    '@graph': Array.from({ length: n }, (_, i) => ({ '@id': `#s${i}`, 'ex:p': `value ${i}` })),
  })

/**
 * Sequential GETs of a small public document until `until` settles; how many were answered (200) before it.
 * Each waits for the next turn of the event loop, as requests from a socket do (a GET answered from
 * memory would otherwise never let the worker's answer in).
 */
async function getsDuring(until: Promise<unknown>): Promise<number> {
  let settled = false
  void until.finally(() => {
    settled = true
  })
  let answered = 0
  while (!settled) {
    await new Promise(resolve => setImmediate(resolve))
    const res = await pod.request('/pub/small', { headers: { accept: 'text/turtle' } })
    await res.arrayBuffer()
    if (settled) break
    if (res.status === 200) answered++
  }
  return answered
}

describe('Issue 9: a large RDF body does not hold the event loop while it is parsed', () => {
  beforeAll(async () => {
    await expectStatus(pod.request('/pub/small', withTurtle('PUT', `<#it> <${EX('p')}> "small".`)), 201)
  })

  test('GETs keep being answered while a large Turtle PUT is parsed (its syntax error is at the very end)', async () => {
    // ~6 MB: tens of ms of parsing even on a fast machine. The error at the end makes the PUT answer
    // right after its parse, with nothing written: parsed inline, no GET issued after it could finish first.
    const body = `${bigTurtle(60_000)}<#broken> ex:p .\n`
    const put = pod.request('/pub/big-broken', withTurtle('PUT', body))
    const answered = await getsDuring(put)
    const res = await put
    const description = await expectRsError(res, 400, 'invalid_rdf')
    expect(description).toContain(`line ${body.split('\n').length - 1}`)
    expect(answered).toBeGreaterThanOrEqual(10)
    await expectStatus(pod.request('/pub/big-broken'), 404)
  })

  test('GETs keep being answered while a large JSON-LD POST is parsed (its error comes after the parse)', async () => {
    // jsonld.js reads the whole document before it meets the undefined term of the last node.
    const doc = JSON.parse(bigJsonLd(3000)) as { '@graph': Record<string, unknown>[] }
    doc['@graph'].push({ '@id': '#last', undefinedTerm: 'x' })
    const post = pod.request('/pub/', withBody('POST', 'application/ld+json', JSON.stringify(doc)))
    const answered = await getsDuring(post)
    await expectRsError(await post, 400, 'invalid_rdf')
    expect(answered).toBeGreaterThanOrEqual(10)
  })
})

describe('Issue 9: a body parsed on the worker is stored exactly as an inline parse stores it', () => {
  test('a large Turtle document: every triple, its blank nodes kept apart, its prefixes kept', async () => {
    const n = 5000
    await expectStatus(pod.request('/pub/big.ttl', withTurtle('PUT', bigTurtle(n))), 201)
    const res = await pod.request('/pub/big.ttl', { headers: { accept: 'text/turtle' } })
    const text = await res.clone().text()
    expect(text).toContain('\n@prefix ex: <http://example.org/ns#>.\n')
    const triples = await triplesOf(res, url('/pub/big.ttl'))
    expect(triples.length).toBe(2 * n)
    expect(hasTriple(triples, url('/pub/big.ttl#s4999'), EX('p'), 'value 4999')).toBe(true)
    // each _:bN of the document is its own node
    expect(new Set(triples.filter(q => q.object.termType === 'BlankNode').map(q => q.object.value)).size).toBe(n)
  })

  test('a large JSON-LD document POSTed: every triple', async () => {
    const n = 500
    const res = await expectStatus(pod.request('/pub/', withBody('POST', 'application/ld+json', bigJsonLd(n), { slug: 'big-json' })), 201)
    const location = res.headers.get('location')!
    const triples = await triplesOf(await pod.request(new URL(location).pathname, { headers: { accept: 'text/turtle' } }), location)
    expect(triples.length).toBe(n)
    expect(hasTriple(triples, `${location}#s${n - 1}`, EX('p'), `value ${n - 1}`)).toBe(true)
  })

  test('two large documents written at once each keep their own blank nodes', async () => {
    const [a, b] = await Promise.all([
      pod.request('/pub/blank-a', withTurtle('PUT', bigTurtle(4000))),
      pod.request('/pub/blank-b', withTurtle('PUT', bigTurtle(4000))),
    ])
    expect([a.status, b.status]).toEqual([201, 201])
    const blanks = async (path: string) =>
      new Set((await triplesOf(await pod.request(path), url(path))).filter(q => q.object.termType === 'BlankNode').map(q => q.object.value))
    const [inA, inB] = [await blanks('/pub/blank-a'), await blanks('/pub/blank-b')]
    expect([...inA].some(label => inB.has(label))).toBe(false)
  })
})
