import { describe, expect, spyOn, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import jsonld from 'jsonld'
import { Writer } from 'n3'
import { HttpError } from '../../src/http/errors.ts'
import { isRdfType, mediaTypeOf } from '../../src/rdf/media-types.ts'
import { parseRdf, parseRdfDocument } from '../../src/rdf/parse-rdf.ts'

const BASE = 'http://localhost:3000/keys/k1'

/** RDFC-1.0 canonical N-Quads: equal strings ⇔ isomorphic graphs, blank nodes included. */
async function canonical(quads: readonly Quad[]): Promise<string> {
  const nquads = new Writer({ format: 'N-Quads' }).quadsToString(quads as Quad[])
  return jsonld.canonize(nquads, { inputFormat: 'application/n-quads', format: 'application/n-quads' })
}

async function parseError(body: string, type: string): Promise<HttpError> {
  const err = await parseRdf(body, type, BASE).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

const nt = (quads: readonly Quad[]) => new Writer({ format: 'N-Triples' }).quadsToString(quads as Quad[])

describe('media types', () => {
  test.each([
    ['text/turtle', 'text/turtle'],
    ['Text/Turtle; charset=UTF-8', 'text/turtle'],
    [' application/ld+json ;profile="x"', 'application/ld+json'],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('mediaTypeOf(%p) is %p', (header, expected) => {
    expect(mediaTypeOf(header)).toBe(expected)
  })

  test.each([
    ['text/turtle', true],
    ['application/ld+json', true],
    ['application/n-triples', true],
    ['text/n3', false],
    ['application/n-quads', true],
    ['application/trig', true],
    ['application/json', false],
    ['image/png', false],
  ])('isRdfType(%p) is %p', (type, expected) => {
    expect(isRdfType(type)).toBe(expected)
  })
})

describe('Turtle and N-Triples', () => {
  test('resolves relative IRIs against the base IRI', async () => {
    const quads = await parseRdf('<#me> <../vocab#knows> </people/bob#i> .', 'text/turtle', BASE)
    expect(nt(quads)).toBe('<http://localhost:3000/keys/k1#me> <http://localhost:3000/vocab#knows> <http://localhost:3000/people/bob#i> .\n')
  })

  test('puts every triple in the default graph', async () => {
    const quads = await parseRdf('@prefix f: <http://xmlns.com/foaf/0.1/>. <#a> f:knows [ f:name "B" ].', 'text/turtle', BASE)
    expect(quads).toHaveLength(2)
    expect(quads.every(q => q.graph.termType === 'DefaultGraph')).toBe(true)
  })

  test('accepts a Content-Type with parameters', async () => {
    expect(await parseRdf('<a> <b> <c> .', 'text/turtle; charset=utf-8', BASE)).toHaveLength(1)
  })

  test('reads N-Triples', async () => {
    const quads = await parseRdf('<http://a/s> <http://a/p> "o"@en .\n', 'application/n-triples', BASE)
    expect(nt(quads)).toBe('<http://a/s> <http://a/p> "o"@en .\n')
  })

  test('stores rdf:JSON in JCS form (HttpSig draft key documents) so Turtle and JSON-LD agree', async () => {
    const ttl = `<#> <https://w3id.org/security#publicKeyJwk> """{ "y": "b", "kty": "EC",\n "x": "a" }"""^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .`
    const [q] = await parseRdf(ttl, 'text/turtle', BASE)
    expect(q?.object.value).toBe('{"kty":"EC","x":"a","y":"b"}')
  })

  test.each([
    ['a missing object', '@prefix ex: <http://e/>.\nex:a ex:b ex:c.\n  ex:a ex:b ;; .', 3, 13],
    ['an undefined prefix', '<a> <b> <c> .\n<a> <b> foo:c .', 2, 9],
    ['an unterminated string', '<a> <b> <c> .\n<a> <b> "x\n', 2, 9],
    ['a missing final dot', '<a> <b> <c>', 1, 12],
    ['a graph block', '<g> { <a> <b> <c> . }', 1, 5],
  ])('rejects %s with 400 invalid_rdf naming line and column', async (_what, body, line, column) => {
    const err = await parseError(body, 'text/turtle')
    expect(err.status).toBe(400)
    expect(err.code).toBe('invalid_rdf')
    expect(err.description).toStartWith(`Turtle syntax error at line ${line}, column ${column}: `)
  })

  test('rejects relative IRIs in N-Triples with the position of the IRI', async () => {
    const err = await parseError('<http://a/s> <http://a/p> <http://a/o> .\n<http://a/s> <http://a/p> <o> .\n', 'application/n-triples')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
    expect(err.description).toBe('N-Triples syntax error at line 2, column 27: Invalid IRI')
  })

  test('rejects an rdf:JSON literal that is not JSON', async () => {
    const err = await parseError('<a> <b> "{bad"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .', 'text/turtle')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
  })

  test('rejects RDF 1.2 triple terms, which JSON-LD cannot carry', async () => {
    const err = await parseError('<a> <b> <<( <a> <b> <c> )>> .', 'text/turtle')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
  })
})

describe('JSON-LD', () => {
  const keyJsonLd = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: '#',
    controller: '/people/alice#i',
    type: 'JsonWebKey2020',
    publicKeyJwk: { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' },
  }
  const keyTurtle = `@prefix sec: <https://w3id.org/security#>.
<#> a sec:JsonWebKey2020; sec:controller </people/alice#i>;
  sec:publicKeyJwk """{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"""^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .`

  test('a key document (HttpSig draft key documents) in JSON-LD is the same graph as its Turtle', async () => {
    const fromJsonLd = await parseRdf(JSON.stringify(keyJsonLd), 'application/ld+json', BASE)
    const fromTurtle = await parseRdf(keyTurtle, 'text/turtle', BASE)
    expect(fromJsonLd).toHaveLength(3)
    expect(await canonical(fromJsonLd)).toBe(await canonical(fromTurtle))
  })

  test('uses only the bundled contexts, never the network', async () => {
    const fetchSpy = spyOn(globalThis, 'fetch')
    try {
      await parseRdf(JSON.stringify(keyJsonLd), 'application/ld+json', BASE)
      await parseError(JSON.stringify({ '@context': 'https://example.org/ctx', name: 'x' }), 'application/ld+json')
      expect(fetchSpy).not.toHaveBeenCalled()
    } finally {
      fetchSpy.mockRestore()
    }
  })

  test('reads a Client ID Document with the Solid-OIDC context (Solid-OIDC §5, RFC 7591)', async () => {
    const doc = {
      '@context': 'https://www.w3.org/ns/solid/oidc-context.jsonld',
      client_id: 'https://app.example/id',
      client_name: 'App',
      redirect_uris: ['https://app.example/cb'],
      scope: 'openid webid offline_access',
      grant_types: ['authorization_code', 'refresh_token'],
      require_auth_time: true,
    }
    const text = nt(await parseRdf(JSON.stringify(doc), 'application/ld+json', BASE))
    const OIDC = 'http://www.w3.org/ns/solid/oidc#'
    expect(text).toContain(`<https://app.example/id> <${OIDC}redirect_uris> <https://app.example/cb> .`)
    expect(text).toContain(`<https://app.example/id> <${OIDC}client_name> "App" .`)
    expect(text).toContain(`<${OIDC}require_auth_time> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`)
    expect(text).toContain(`<${OIDC}grant_types> "refresh_token" .`)
  })

  test('resolves relative @id against the base IRI', async () => {
    const quads = await parseRdf('{"@id": "#me", "http://xmlns.com/foaf/0.1/name": "A"}', 'application/ld+json', BASE)
    expect(quads[0]?.subject.value).toBe(`${BASE}#me`)
  })

  test('an empty object is an empty graph', async () => {
    expect(await parseRdf('{}', 'application/ld+json', BASE)).toEqual([])
  })

  test('gives each parse its own blank nodes', async () => {
    const body = '{"http://e/p": {"http://e/q": 1}}'
    const [a] = await parseRdf(body, 'application/ld+json', BASE)
    const [b] = await parseRdf(body, 'application/ld+json', BASE)
    expect(a?.subject.termType).toBe('BlankNode')
    expect(a?.subject.value).not.toBe(b?.subject.value)
  })

  test.each([
    ['a single remote context', { '@context': 'https://example.org/ctx', name: 'x' }],
    ['a remote context beside a bundled one', { '@context': ['https://www.w3.org/ns/did/v1', 'https://example.org/ctx'], id: '#' }],
    ['a remote context scoped to a term', { '@context': { p: { '@id': 'http://e/p', '@context': 'https://example.org/ctx' } }, p: { a: 1 } }],
    ['a remote context by http', { '@context': 'http://www.w3.org/ns/did/v1', id: '#' }],
  ])('refuses %s with 400 jsonld_context_not_allowed naming the URL', async (_what, doc) => {
    const err = await parseError(JSON.stringify(doc), 'application/ld+json')
    expect(err.status).toBe(400)
    expect(err.code).toBe('jsonld_context_not_allowed')
    expect(err.description).toMatch(/^remote JSON-LD context http:\/\/www\.w3\.org\/ns\/did\/v1 |^remote JSON-LD context https:\/\/example\.org\/ctx /)
  })

  test.each([
    ['a trailing comma', '{"a": 1,}'],
    ['a truncated body', '{"@id": "#a", '],
    ['an empty body', ''],
  ])('rejects malformed JSON (%s) with 400 invalid_rdf', async (_what, body) => {
    const err = await parseError(body, 'application/ld+json')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
    expect(err.description).toMatch(/^JSON syntax error at line \d+, column \d+: /)
  })

  test.each([
    ['a bare string, which jsonld.js would load as a URL', '"https://example.org/doc"', 'invalid JSON-LD: a document is a JSON object or array'],
    ['a term with no IRI mapping, which would be dropped', '{"@id": "#a", "name": "x"}', 'invalid JSON-LD (invalid property): '],
    ['a relative @id with no base', '{"@context": {"@base": null}, "@id": "a", "http://e/p": 1}', 'invalid JSON-LD (relative @id reference): '],
    ['a context that is not an object', '{"@context": 5}', 'invalid JSON-LD (invalid local context): '],
    ['an invalid @id', '{"@id": 5}', 'invalid JSON-LD (invalid @id value): '],
    [
      'a text direction, which RDF 1.1 cannot hold',
      '{"@id": "#a", "http://e/p": {"@value": "x", "@direction": "rtl"}}',
      'invalid JSON-LD (rdfDirection not set): ',
    ],
  ])('rejects %s with 400 invalid_rdf', async (_what, body, description) => {
    const err = await parseError(body, 'application/ld+json')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
    expect(err.description).toStartWith(description)
  })

  test('rejects triples in a named graph unless named graphs are asked for (a remote profile is one graph)', async () => {
    const body = '{"@id": "#g", "@graph": [{"@id": "#a", "http://e/p": 1}]}'
    const err = await parseError(body, 'application/ld+json')
    expect([err.status, err.code]).toEqual([400, 'invalid_rdf'])
    expect(err.description).toContain(`<${BASE}#g>`)
    const doc = await parseRdfDocument(body, 'application/ld+json', BASE, { namedGraphs: true })
    expect(doc.triples).toEqual([])
    expect(doc.namedGraphs.map(q => [q.subject.value, q.graph.value])).toEqual([[`${BASE}#a`, `${BASE}#g`]])
  })

  test('TriG and N-Quads are read, their graphs kept when asked for', async () => {
    const doc = await parseRdfDocument('<#a> <http://e/p> 1. <#g> { <#a> <http://e/p> 2 }', 'application/trig', BASE, { namedGraphs: true })
    expect(doc.triples.map(q => q.object.value)).toEqual(['1'])
    expect(doc.namedGraphs.map(q => [q.object.value, q.graph.value])).toEqual([['2', `${BASE}#g`]])
    const nq = await parseError('<http://e/a> <http://e/p> <http://e/o> <http://e/g> .', 'application/n-quads')
    expect([nq.status, nq.code]).toEqual([400, 'invalid_rdf'])
    const bad = await parseError('<#a> <http://e/p> { oops', 'application/trig')
    expect([bad.status, bad.code]).toEqual([400, 'invalid_rdf'])
    expect(bad.description).toStartWith('TriG syntax error at line 1')
  })

  test('a top-level @graph without @id is the default graph', async () => {
    const quads = await parseRdf('{"@graph": [{"@id": "#a", "http://e/p": 1}]}', 'application/ld+json', BASE)
    expect(quads.map(q => q.graph.termType)).toEqual(['DefaultGraph'])
  })
})

describe('unsupported media types', () => {
  test.each(['image/png', 'text/n3', 'application/json', ''])('%p gives 415 unsupported_media_type listing what is accepted', async type => {
    const err = await parseError('<a> <b> <c> .', type)
    expect(err.status).toBe(415)
    expect(err.code).toBe('unsupported_media_type')
    expect(err.description).toStartWith('expected one of text/turtle, application/ld+json, application/n-triples, application/trig, application/n-quads')
  })
})
