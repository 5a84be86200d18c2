// A document with named graphs of its own (JSON-LD @graph under an @id, TriG, N-Quads) over real HTTP:
// stored whole, served whole in the syntaxes that carry graphs, refused where Turtle would drop them.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import jsonld from 'jsonld'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { expectRsError, withBody } from '../rs/rs-helpers.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append']) })
})
afterAll(() => pod?.dispose())

const url = (path: string) => pod.baseUrl + path
const http = (path: string, init?: RequestInit) => fetch(url(path), init)
const get = (path: string, accept: string) => http(path, { headers: { accept } })

/** The dataset of a JSON-LD or N-Quads text as canonical N-Quads (RDF Dataset Canonicalization), blank nodes relabelled. */
async function canonical(text: string, type: string, base: string): Promise<string> {
  const input = type === 'application/ld+json' ? JSON.parse(text) : text
  const options = {
    algorithm: 'URDNA2015',
    format: 'application/n-quads',
    base,
    ...(type === 'application/ld+json' ? {} : { inputFormat: 'application/n-quads' }),
  }
  return (jsonld as unknown as { canonize(i: unknown, o: object): Promise<string> }).canonize(input, options)
}

const DOC = JSON.stringify({
  '@context': { ex: 'http://example.org/ns#' },
  '@id': '#claims',
  'ex:about': { '@id': '#me' },
  '@graph': [{ '@id': '#me', 'ex:name': 'Alice', 'ex:knows': { '@id': '_:b', 'ex:name': 'Bob' } }],
})
// The default graph holds `<#claims> ex:about <#me>`; the graph <#claims> holds three triples, one of a blank node.
const DOC_WITH_DEFAULT = JSON.stringify([JSON.parse(DOC), { '@id': '#top', 'http://example.org/ns#p': 'in the default graph' }])

describe('JSON-LD with a named graph', () => {
  test('PUT is stored (201) and GET as JSON-LD gives back the same dataset', async () => {
    const put = await http('/pub/ng/doc', withBody('PUT', 'application/ld+json', DOC_WITH_DEFAULT))
    expect(put.status).toBe(201)
    const res = await get('/pub/ng/doc', 'application/ld+json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    const served = await canonical(await res.text(), 'application/ld+json', url('/pub/ng/doc'))
    const sent = await canonical(DOC_WITH_DEFAULT, 'application/ld+json', url('/pub/ng/doc'))
    expect(served).toBe(sent)
    expect(sent).toContain(`<${url('/pub/ng/doc#me')}> <http://example.org/ns#name> "Alice" <${url('/pub/ng/doc#claims')}> .`)
    expect(sent.split('\n').filter(Boolean)).toHaveLength(5)
  })

  test('a replacing PUT answers 204 and replaces the named graphs too', async () => {
    await http('/pub/ng/replace', withBody('PUT', 'application/ld+json', DOC_WITH_DEFAULT))
    const only = JSON.stringify({ '@id': '#g2', '@graph': [{ '@id': '#x', 'http://example.org/ns#p': 'one' }] })
    const put = await http('/pub/ng/replace', withBody('PUT', 'application/ld+json', only))
    expect(put.status).toBe(204)
    const nq = await (await get('/pub/ng/replace', 'application/n-quads')).text()
    expect(nq).toBe(`<${url('/pub/ng/replace#x')}> <http://example.org/ns#p> "one" <${url('/pub/ng/replace#g2')}> .\n`)
  })

  test('N-Quads and TriG carry the same dataset; a GET accepting anything gets TriG', async () => {
    await http('/pub/ng/formats', withBody('PUT', 'application/ld+json', DOC_WITH_DEFAULT))
    const sent = await canonical(DOC_WITH_DEFAULT, 'application/ld+json', url('/pub/ng/formats'))
    const nq = await get('/pub/ng/formats', 'application/n-quads')
    expect(nq.headers.get('content-type')).toBe('application/n-quads; charset=utf-8')
    expect(await canonical(await nq.text(), 'application/n-quads', url('/pub/ng/formats'))).toBe(sent)
    const any = await get('/pub/ng/formats', '*/*')
    expect(any.status).toBe(200)
    expect(any.headers.get('content-type')).toBe('application/trig; charset=utf-8')
    // TriG read back (n3) and written as N-Quads is the same dataset again (its @base keeps the IRIs of the first).
    const trig = await any.text()
    const again = await http('/pub/ng/from-trig', withBody('PUT', 'application/trig', trig))
    expect(again.status).toBe(201)
    const back = await (await get('/pub/ng/from-trig', 'application/n-quads')).text()
    expect(await canonical(back, 'application/n-quads', url('/pub/ng/from-trig'))).toBe(sent)
  })

  test('GET as Turtle or N-Triples only is 406 not_acceptable naming the syntaxes that carry graphs', async () => {
    await http('/pub/ng/turtle', withBody('PUT', 'application/ld+json', DOC))
    for (const accept of ['text/turtle', 'application/n-triples', 'text/turtle, application/n-triples;q=0.5']) {
      const text = await expectRsError(await get('/pub/ng/turtle', accept), 406, 'not_acceptable')
      expect(text).toContain('accept application/trig, application/ld+json or application/n-quads')
    }
    // A client that takes Turtle first but JSON-LD too gets JSON-LD: nothing is dropped.
    const both = await get('/pub/ng/turtle', 'text/turtle, application/ld+json;q=0.5')
    expect(both.status).toBe(200)
    expect(both.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
  })

  test('a document of one graph is still Turtle first, and can be read as TriG and N-Quads', async () => {
    await http('/pub/ng/plain', withBody('PUT', 'text/turtle', '<#a> <http://example.org/ns#p> "v".'))
    expect((await get('/pub/ng/plain', '*/*')).headers.get('content-type')).toBe('text/turtle; charset=utf-8')
    const nq = await get('/pub/ng/plain', 'application/n-quads')
    expect(await nq.text()).toBe(`<${url('/pub/ng/plain#a')}> <http://example.org/ns#p> "v" .\n`)
  })

  test('a PATCH acts on the default graph and keeps the named graphs as they are', async () => {
    await http('/pub/ng/patched', withBody('PUT', 'application/ld+json', DOC_WITH_DEFAULT))
    const patch =
      '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#top> <http://example.org/ns#q> "added" }.'
    expect((await http('/pub/ng/patched', withBody('PATCH', 'text/n3', patch))).status).toBe(204)
    // The named graph's triples are not the default graph's: a patch deleting one of them finds nothing to delete.
    const missing =
      '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:deletes { <#me> <http://example.org/ns#name> "Alice" }.'
    await expectRsError(await http('/pub/ng/patched', withBody('PATCH', 'text/n3', missing)), 409, 'patch_conflict')
    const nq = await (await get('/pub/ng/patched', 'application/n-quads')).text()
    const sent = await canonical(DOC_WITH_DEFAULT, 'application/ld+json', url('/pub/ng/patched'))
    const expected = [...sent.split('\n').filter(Boolean), `<${url('/pub/ng/patched#top')}> <http://example.org/ns#q> "added" .`].sort().join('\n')
    expect((await canonical(nq, 'application/n-quads', url('/pub/ng/patched'))).split('\n').filter(Boolean).sort().join('\n')).toBe(expected)
  })

  test("the pod's reserved namespace is refused in a document (400 invalid_rdf) and nothing is created", async () => {
    const body = '<#a> <urn:solopod:graph-statement#graph> <#g>.'
    await expectRsError(await http('/pub/ng/reserved', withBody('PUT', 'text/turtle', body)), 400, 'invalid_rdf')
    expect((await http('/pub/ng/reserved')).status).toBe(404)
  })

  test('a container description is one graph: a named graph in it is 400 invalid_rdf', async () => {
    const body = JSON.stringify({ '@id': '#g', '@graph': [{ '@id': '#a', 'http://example.org/ns#p': 1 }] })
    await expectRsError(await http('/pub/ng/folder/', withBody('PUT', 'application/ld+json', body)), 400, 'invalid_rdf')
    expect((await http('/pub/ng/folder/')).status).toBe(404)
  })
})
