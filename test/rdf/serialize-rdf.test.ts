import { describe, expect, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import jsonld from 'jsonld'
import { DataFactory, Parser, Writer } from 'n3'
import { HttpError } from '../../src/http/errors.ts'
import { parseRdf, parseRdfDocument } from '../../src/rdf/parse-rdf.ts'
import { serializeRdf, turtleByteLength } from '../../src/rdf/serialize-rdf.ts'
import { RDF, SEC } from '../../src/rdf/namespaces.ts'

const { quad, namedNode, literal, blankNode } = DataFactory
const BASE = 'http://localhost:3000/profile/card'

/** RDFC-1.0 canonical N-Quads: equal strings ⇔ isomorphic datasets, blank nodes included. */
async function canonical(quads: readonly Quad[]): Promise<string> {
  const nquads = new Writer({ format: 'N-Quads' }).quadsToString(quads as Quad[])
  return jsonld.canonize(nquads, { inputFormat: 'application/n-quads', format: 'application/n-quads' })
}

const PROFILE = `@prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix solid: <http://www.w3.org/ns/solid/terms#>.
@prefix pim: <http://www.w3.org/ns/pim/space#>.
@prefix xsd: <http://www.w3.org/2001/XMLSchema#>.
<> a foaf:PersonalProfileDocument; foaf:primaryTopic <#me>; foaf:maker <#me>.
<#me> a foaf:Person; solid:oidcIssuer <http://localhost:3000>; pim:storage </>;
  foaf:name "Alice"@en, "Ålice \\"quoted\\"\\n"; foaf:age 42; foaf:height "1.7"^^xsd:decimal;
  foaf:knows [ foaf:name "Bob"; foaf:knows [ foaf:name "Carol" ] ];
  foaf:nick ( "a" "b" [ foaf:name "c" ] ).`

async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

describe('round trips (the same graph in every document syntax)', () => {
  test.each(['text/turtle', 'application/ld+json', 'application/n-triples'])(
    'Turtle → quads → %s → quads is isomorphic, blank nodes and lists included',
    async type => {
      const quads = await parseRdf(PROFILE, 'text/turtle', BASE)
      const text = await serializeRdf(quads, type, BASE)
      const again = await parseRdf(text, type, BASE)
      expect(again).toHaveLength(quads.length)
      expect(await canonical(again)).toBe(await canonical(quads))
    },
  )

  test('rdf:JSON survives Turtle → JSON-LD → Turtle byte for byte', async () => {
    const ttl = `<#k> <${SEC('publicKeyJwk')}> "{\\"crv\\":\\"P-256\\",\\"kty\\":\\"EC\\",\\"x\\":\\"a\\",\\"y\\":\\"b\\"}"^^<${RDF('JSON')}> .`
    const quads = await parseRdf(ttl, 'text/turtle', BASE)
    const viaJsonLd = await parseRdf(await serializeRdf(quads, 'application/ld+json', BASE), 'application/ld+json', BASE)
    expect(viaJsonLd[0]?.object.value).toBe(quads[0]?.object.value)
    expect(viaJsonLd[0]?.object.termType === 'Literal' && viaJsonLd[0].object.datatype.value).toBe(RDF('JSON'))
  })
})

describe('Turtle', () => {
  test('writes IRIs relative to @base and declares only the prefixes it uses', async () => {
    const text = await serializeRdf(await parseRdf(PROFILE, 'text/turtle', BASE), 'text/turtle', BASE)
    expect(text).toStartWith(`@base <${BASE}>.\n`)
    expect(text).toContain('@prefix foaf: <http://xmlns.com/foaf/0.1/>.')
    expect(text).toContain('<#me> a foaf:Person')
    expect(text).toContain('pim:storage <../>')
    expect(text).not.toContain('@prefix acl:')
    expect(text).not.toContain('@prefix ldp:')
  })

  test('adds the caller’s prefixes to the standard ones', async () => {
    const q = quad(namedNode(`${BASE}#k`), namedNode(RDF('type')), namedNode(SEC('JsonWebKey2020')))
    const text = await serializeRdf([q], 'text/turtle', BASE, { sec: SEC('') })
    expect(text).toContain('<#k> a sec:JsonWebKey2020')
  })

  test('drops graph names: a stored resource’s named graph becomes a plain document', async () => {
    const g = namedNode(BASE)
    const q = quad(namedNode(`${BASE}#me`), namedNode('http://xmlns.com/foaf/0.1/name'), literal('A'), g)
    const text = await serializeRdf([q], 'text/turtle', BASE)
    expect(text).not.toContain('{')
    const again = new Parser({ format: 'text/turtle', baseIRI: BASE }).parse(text)
    expect(again.map(x => [x.subject.value, x.object.value, x.graph.termType])).toEqual([[`${BASE}#me`, 'A', 'DefaultGraph']])
  })

  test('an IRI that comes out relative to this base declares no prefix, whatever base the last document had', async () => {
    // Prefix matchers and base matchers are kept between calls (serialize-rdf.ts MATCHERS, BASES); one document's base must never write the next one's IRIs.
    const name = quad(namedNode('http://xmlns.com/foaf/0.1/card#me'), namedNode('http://xmlns.com/foaf/0.1/name'), literal('A'))
    const inFoaf = 'http://xmlns.com/foaf/0.1/card'
    expect(await serializeRdf([name], 'text/turtle', inFoaf)).toBe(`@base <${inFoaf}>.\n<#me> <name> "A".\n`)
    expect(await serializeRdf([name], 'text/turtle', BASE)).toBe(
      `@base <${BASE}>.\n@prefix foaf: <http://xmlns.com/foaf/0.1/>.\n\n<http://xmlns.com/foaf/0.1/card#me> foaf:name "A".\n`,
    )
    expect(await serializeRdf([name], 'text/turtle', inFoaf)).toBe(`@base <${inFoaf}>.\n<#me> <name> "A".\n`)
  })

  test('a document’s own prefix names win over the standard ones, in documents written one after the other', async () => {
    const title = quad(namedNode(`${BASE}#it`), namedNode('http://purl.org/dc/terms/title'), literal('T'))
    expect(await serializeRdf([title], 'text/turtle', BASE, { dc: 'http://purl.org/dc/terms/' })).toContain('<#it> dc:title "T"')
    expect(await serializeRdf([title], 'text/turtle', BASE)).toContain('<#it> dcterms:title "T"')
    expect(await serializeRdf([title], 'text/turtle', BASE, { d: 'http://purl.org/dc/terms/' })).toContain('<#it> d:title "T"')
  })

  test('writes absolute IRIs when there is no base', async () => {
    const q = quad(namedNode('http://e/s'), namedNode('http://e/p'), namedNode('http://e/o'))
    expect(await serializeRdf([q], 'text/turtle', '')).toBe('<http://e/s> <http://e/p> <http://e/o>.\n')
  })
})

describe('Turtle: the prefixes declared, the text written once', () => {
  /** The prefixes a text declares, as n3 reads them back. */
  const declared = (text: string) => {
    const prefixes: Record<string, string> = {}
    new Parser({ format: 'text/turtle' }).parse(text.replace(/^@base <[^>]*>\.\n/, ''), null, (name, ns) => {
      prefixes[name] = ns.value
    })
    return prefixes
  }
  /** What n3's writer, given exactly those prefixes, writes of the same statements in the same order. */
  const writtenWith = (quads: readonly Quad[], prefixes: Record<string, string>) => {
    let out = ''
    const w = new Writer({ format: 'Turtle', baseIRI: BASE, writeBase: true, prefixes })
    w.addQuads(quads as Quad[])
    w.end((_, text: string) => {
      out = text
    })
    return out
  }
  const ex = (local: string) => namedNode(`http://ex.org/${local}`)
  const documents: [string, Quad[], Record<string, string>?][] = [
    [
      'nested namespaces: the longer one where the shorter leaves a slash',
      [quad(ex('s'), ex('sub/p'), ex('o'))],
      { a: 'http://ex.org/', b: 'http://ex.org/sub/' },
    ],
    ['a prefix used only by a datatype', [quad(ex('s'), ex('p'), literal('2026-01-01', namedNode('http://www.w3.org/2001/XMLSchema#date')))]],
    [
      'numbers and strings need no xsd:',
      [quad(ex('s'), ex('p'), literal('5', namedNode('http://www.w3.org/2001/XMLSchema#integer'))), quad(ex('s'), ex('q'), literal('x'))],
    ],
    ['no prefix at all', [quad(namedNode(`${BASE}#a`), namedNode('http://nowhere.example/p'), literal('x'))]],
  ]
  test.each(documents)('%s: the same text as a writer given only the prefixes declared', async (_, quads, own) => {
    const text = await serializeRdf(quads, 'text/turtle', BASE, own)
    expect(text).toBe(writtenWith(quads, declared(text)))
    expect(await canonical(await parseRdf(text, 'text/turtle', BASE))).toBe(await canonical(quads))
  })

  test('declares what the statements use and nothing else, the document’s own first', async () => {
    const quads = [
      quad(ex('s'), ex('sub/p'), literal('1', namedNode('http://www.w3.org/2001/XMLSchema#date'))),
      quad(ex('s'), namedNode(RDF('type')), ex('sub/T')),
    ]
    const text = await serializeRdf(quads, 'text/turtle', BASE, { c: 'http://unused.example/', b: 'http://ex.org/sub/', a: 'http://ex.org/' })
    expect(Object.keys(declared(text))).toEqual(['b', 'a', 'xsd'])
    expect(text).toEndWith('\n\na:s a b:T;\n    b:p "1"^^xsd:date.\n')
  })

  test.each([
    ['text/turtle', 'text/turtle'],
    ['application/trig', 'application/trig'],
  ])('an IRI that merely looks like a prefixed name (`<acl:Read>`) is written whole: %s reads back as stored', async (type, format) => {
    const quads = [
      quad(ex('s'), namedNode('acl:mode'), namedNode('acl:Read')),
      quad(ex('s'), namedNode(RDF('type')), namedNode('http://www.w3.org/ns/auth/acl#Authorization')),
    ]
    const text = await serializeRdf(quads, type, BASE)
    expect(text).toContain('<acl:mode> <acl:Read>')
    expect(text).toContain('a acl:Authorization')
    const again = new Parser({ format, baseIRI: BASE }).parse(text)
    expect(await canonical(again)).toBe(await canonical(quads))
  })

  test('the text does not depend on the order the statements come in', async () => {
    const { triples, prefixes } = await parseRdfDocument(PROFILE, 'text/turtle', BASE)
    const served = await serializeRdf(triples, 'text/turtle', BASE, prefixes)
    expect(await serializeRdf([...triples].reverse(), 'text/turtle', BASE, prefixes)).toBe(served)
    expect(turtleByteLength([...triples].reverse(), BASE, prefixes)).toBe(new TextEncoder().encode(served).byteLength)
  })
})

describe('stat:size (turtleByteLength)', () => {
  test('is the UTF-8 byte length of the Turtle served, with the document’s prefixes and non-ASCII literals', async () => {
    const doc = `@prefix f: <http://xmlns.com/foaf/0.1/>.\n@prefix ex: <http://example.org/ns#>.\n<#me> a f:Person; f:name "Zoë Ærø 𝄞 日本"@fr; ex:n 5; ex:d "2026-01-01"^^<http://www.w3.org/2001/XMLSchema#date>; f:knows <../bob#me>.`
    const { triples, prefixes } = await parseRdfDocument(doc, 'text/turtle', BASE)
    const served = await serializeRdf(triples, 'text/turtle', BASE, prefixes)
    expect(served).toContain('f:name "Zoë Ærø \\U0001d11e 日本"@fr')
    expect(served).toContain('^^xsd:date')
    expect(turtleByteLength(triples, BASE, prefixes)).toBe(new TextEncoder().encode(served).byteLength)
    expect(turtleByteLength(triples, BASE, prefixes)).toBeGreaterThan(served.length)
  })
})

describe('N-Triples', () => {
  test('writes one absolute triple per line in the default graph', async () => {
    const q = quad(namedNode(`${BASE}#me`), namedNode('http://e/p'), literal('x', 'en'), namedNode(BASE))
    expect(await serializeRdf([q], 'application/n-triples', BASE)).toBe(`<${BASE}#me> <http://e/p> "x"@en .\n`)
  })
})

describe('JSON-LD', () => {
  test('is a JSON array of expanded node objects with absolute IRIs and no context', async () => {
    const quads = await parseRdf('<#me> a <http://xmlns.com/foaf/0.1/Person>; <http://xmlns.com/foaf/0.1/age> 42 .', 'text/turtle', BASE)
    const doc = JSON.parse(await serializeRdf(quads, 'application/ld+json', BASE))
    expect(doc).toEqual([
      {
        '@id': `${BASE}#me`,
        '@type': ['http://xmlns.com/foaf/0.1/Person'],
        'http://xmlns.com/foaf/0.1/age': [{ '@value': '42', '@type': 'http://www.w3.org/2001/XMLSchema#integer' }],
      },
    ])
  })

  test('writes rdf:JSON literals as @json values (JSON-LD 1.1)', async () => {
    const q = quad(namedNode(`${BASE}#k`), namedNode(SEC('publicKeyJwk')), literal('{"kty":"EC","x":"a"}', namedNode(RDF('JSON'))))
    const [node] = JSON.parse(await serializeRdf([q], 'application/ld+json', BASE))
    expect(node[SEC('publicKeyJwk')]).toEqual([{ '@value': { kty: 'EC', x: 'a' }, '@type': '@json' }])
  })

  test('an rdf:JSON literal that is not JSON is written as a typed value and reads back unchanged', async () => {
    const bad = literal('{not json', namedNode(RDF('JSON')))
    const q = quad(namedNode(`${BASE}#k`), namedNode(SEC('publicKeyJwk')), bad)
    const text = await serializeRdf([q], 'application/ld+json', BASE)
    expect(JSON.parse(text)[0][SEC('publicKeyJwk')]).toEqual([{ '@value': '{not json', '@type': RDF('JSON') }])
    const nquads = await jsonld.toRDF(JSON.parse(text), { format: 'application/n-quads' })
    expect(nquads).toBe(`<${BASE}#k> <${SEC('publicKeyJwk')}> "{not json"^^<${RDF('JSON')}> .\n`)
  })

  test('blank nodes keep their identity', async () => {
    const b = blankNode('x')
    const quads = [
      quad(namedNode('http://e/a'), namedNode('http://e/p'), b),
      quad(namedNode('http://e/c'), namedNode('http://e/p'), b),
      quad(b, namedNode('http://e/q'), literal('1')),
    ]
    const again = await parseRdf(await serializeRdf(quads, 'application/ld+json', BASE), 'application/ld+json', BASE)
    expect(await canonical(again)).toBe(await canonical(quads))
  })
})

describe('export (N-Quads, TriG keep graph names)', () => {
  const dataset = [
    quad(namedNode('http://localhost:3000/a#x'), namedNode('http://e/p'), literal('1'), namedNode('http://localhost:3000/a')),
    quad(namedNode('http://localhost:3000/b#y'), namedNode('http://e/p'), blankNode('z'), namedNode('http://localhost:3000/b')),
    quad(blankNode('z'), namedNode('http://e/q'), literal('2'), namedNode('http://localhost:3000/b')),
  ]

  test.each([
    ['application/n-quads', 'application/n-quads'],
    ['application/trig', 'application/trig'],
  ])('%s re-reads as the same dataset', async (type, format) => {
    const text = await serializeRdf(dataset, type, 'http://localhost:3000/')
    const again = new Parser({ format, baseIRI: 'http://localhost:3000/' }).parse(text)
    expect(again.map(q => q.graph.value).sort()).toEqual(dataset.map(q => q.graph.value).sort())
    expect(await canonical(again)).toBe(await canonical(dataset))
  })
})

describe('unsupported output', () => {
  test.each(['text/html', 'application/rdf+xml', 'text/n3', ''])('%p gives 406 not_acceptable', async type => {
    const err = await failure(serializeRdf([], type, BASE))
    expect(err.status).toBe(406)
    expect(err.code).toBe('not_acceptable')
  })
})
