import { describe, expect, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import { Parser } from 'n3'
import { HttpError } from '../../src/http/errors.ts'
import { showTriple } from '../../src/rdf/triple-patterns.ts'
import { parsePatch } from '../../src/rdf/patch.ts'
import { parseSparqlUpdate } from '../../src/rdf/sparql-update.ts'

const BASE = 'https://pod.example/people/alice'
const EX = 'http://www.example.org/terms#'
const INT = 'http://www.w3.org/2001/XMLSchema#integer'

const turtle = (body: string): Quad[] => new Parser({ baseIRI: BASE }).parse(`@prefix ex: <${EX}>.\n${body}`)
const sparql = (body: string) => parseSparqlUpdate(`PREFIX ex: <${EX}>\n${body}`, BASE)
const show = (quads: readonly Quad[]) => quads.map(showTriple).sort()
const t = (s: string, p: string, o: string) => `<${BASE}#${s}> <${EX}${p}> ${o}`

function httpError(run: () => unknown, status: number, code: string): HttpError {
  try {
    run()
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    expect({ status, code }).toEqual({ status: err.status, code: err.code })
    return err
  }
  throw new Error(`expected HttpError ${status} ${code}`)
}

const GARCIA = turtle('<#claudia> ex:familyName "Garcia"; ex:givenName "Claudia".')

describe('SPARQL 1.1 Update §3.1.1 INSERT DATA', () => {
  test('adds the triples to the document', () => {
    expect(show(sparql('INSERT DATA { <#a> ex:p 1 }').apply([]))).toEqual([t('a', 'p', `"1"^^${INT}`)])
  })

  test('adds a triple the document already has only once', () => {
    expect(sparql('INSERT DATA { <#claudia> ex:familyName "Garcia" }').apply(GARCIA)).toHaveLength(2)
  })

  test('makes each blank node a new node', () => {
    const result = sparql('INSERT DATA { <#a> ex:knows _:b. _:b ex:name "B" }').apply(turtle('_:n0 ex:p 1.'))
    const [knows] = result.filter(q => q.predicate.value === `${EX}knows`)
    expect(knows?.object.termType).toBe('BlankNode')
    expect(knows?.object.value).not.toBe(result[0]?.subject.value)
    expect(result.find(q => q.object.value === 'B')?.subject.equals(knows?.object ?? null)).toBe(true)
  })

  test('needs Append only', () => {
    expect(sparql('INSERT DATA { <#a> ex:p 1 }').needs).toEqual({ read: false, append: true, write: false })
  })

  test('rejects a literal subject with 422', () => {
    httpError(() => sparql('INSERT DATA { "a" ex:p 1 }'), 422, 'invalid_patch')
  })
})

describe('SPARQL 1.1 Update §3.1.2 DELETE DATA', () => {
  test('removes the triples from the document', () => {
    expect(show(sparql('DELETE DATA { <#claudia> ex:givenName "Claudia" }').apply(GARCIA))).toEqual([t('claudia', 'familyName', '"Garcia"')])
  })

  test('answers 409 when a triple to delete is absent, as N3 Patch does', () => {
    const err = httpError(() => sparql('DELETE DATA { <#claudia> ex:givenName "Alex" }').apply(GARCIA), 409, 'patch_conflict')
    expect(err.description).toBe(`DELETE DATA: the document does not contain ${t('claudia', 'givenName', '"Alex"')}`)
  })

  test('needs Read and Write', () => {
    expect(sparql('DELETE DATA { <#a> ex:p 1 }').needs).toEqual({ read: true, append: false, write: true })
  })

  test('rejects blank nodes with 400, as the SPARQL grammar does', () => {
    httpError(() => sparql('DELETE DATA { _:b ex:p 1 }'), 400, 'invalid_syntax')
  })
})

describe('SPARQL 1.1 Update §3.1.3 DELETE/INSERT … WHERE', () => {
  test('renames Claudia to Alex where the family name is Garcia', () => {
    const plan = sparql(`DELETE { ?person ex:givenName "Claudia" } INSERT { ?person ex:givenName "Alex" }
      WHERE { ?person ex:familyName "Garcia" }`)
    expect(show(plan.apply(GARCIA))).toEqual([t('claudia', 'familyName', '"Garcia"'), t('claudia', 'givenName', '"Alex"')])
  })

  test('applies the templates for every solution', () => {
    const doc = turtle('<#a> ex:familyName "Garcia". <#b> ex:familyName "Garcia". <#c> ex:familyName "Smith".')
    const result = sparql('INSERT { ?p ex:tag "g" } WHERE { ?p ex:familyName "Garcia" }').apply(doc)
    expect(show(result.filter(q => q.predicate.value === `${EX}tag`))).toEqual([t('a', 'tag', '"g"'), t('b', 'tag', '"g"')])
  })

  test('is a successful no-op when WHERE has no solution (SPARQL 1.1 Update §3.1.3, unlike N3 Patch)', () => {
    const result = sparql('DELETE { ?p ex:givenName ?n } INSERT { ?p ex:q 1 } WHERE { ?p ex:familyName "Smith"; ex:givenName ?n }').apply(GARCIA)
    expect(show(result)).toEqual(show(GARCIA))
  })

  test('skips a DELETE template triple the document lacks', () => {
    const plan = sparql('DELETE { ?p ex:nickname "C" } INSERT { ?p ex:q 1 } WHERE { ?p ex:familyName "Garcia" }')
    expect(plan.apply(GARCIA)).toHaveLength(3)
  })

  test('gives template blank nodes new nodes per solution', () => {
    const doc = turtle('<#a> ex:familyName "Garcia". <#b> ex:familyName "Garcia".')
    const result = sparql('INSERT { ?p ex:badge [ ex:label "g" ] } WHERE { ?p ex:familyName "Garcia" }').apply(doc)
    const badges = result.filter(q => q.predicate.value === `${EX}badge`).map(q => q.object.value)
    expect(new Set(badges).size).toBe(2)
  })

  test('treats WHERE blank nodes as existential, and a bare group as the same join', () => {
    const plan = sparql('INSERT { ?p ex:social true } WHERE { ?p ex:knows _:x . { _:x ex:name ?n } }')
    expect(plan.apply(turtle('<#a> ex:knows [ ex:name "B" ].'))).toHaveLength(3)
  })

  test('answers 409 when a solution puts a literal in subject position', () => {
    httpError(() => sparql('INSERT { ?n ex:p 1 } WHERE { <#claudia> ex:givenName ?n }').apply(GARCIA), 409, 'patch_conflict')
  })

  test.each([
    ['INSERT', 'INSERT { ?x ex:p 1 } WHERE { ?y ex:q 1 }'],
    ['DELETE', 'DELETE { ?x ex:p 1 } WHERE { ?y ex:q 1 }'],
  ])('rejects a variable in %s that does not occur in WHERE', (clause, body) => {
    const err = httpError(() => sparql(body), 422, 'invalid_patch')
    expect(err.description).toBe(`?x in ${clause} does not occur in WHERE`)
  })

  test.each([
    ['DELETE … WHERE needs Read and Write', 'DELETE { ?p ex:a 1 } WHERE { ?p ex:b 1 }', { read: true, append: false, write: true }],
    ['INSERT … WHERE needs Read and Append', 'INSERT { ?p ex:a 1 } WHERE { ?p ex:b 1 }', { read: true, append: true, write: false }],
    ['DELETE … INSERT … WHERE needs all three', 'DELETE { ?p ex:a 1 } INSERT { ?p ex:a 2 } WHERE { ?p ex:a 1 }', { read: true, append: true, write: true }],
    ['INSERT … WHERE {} needs Append only', 'INSERT { <#a> ex:p 1 } WHERE {}', { read: false, append: true, write: false }],
  ])('%s', (_, body, needs) => {
    expect(sparql(body).needs).toEqual(needs)
  })
})

describe('SPARQL 1.1 Update §3.1.3.3 DELETE WHERE', () => {
  test('removes every match', () => {
    const doc = turtle('<#a> ex:tag 1, 2. <#b> ex:other 3.')
    expect(show(sparql('DELETE WHERE { <#a> ex:tag ?v }').apply(doc))).toEqual([t('b', 'other', `"3"^^${INT}`)])
  })

  test('is a successful no-op when nothing matches', () => {
    expect(show(sparql('DELETE WHERE { <#a> ex:tag ?v }').apply(GARCIA))).toEqual(show(GARCIA))
  })

  test('needs Read and Write', () => {
    expect(sparql('DELETE WHERE { <#a> ex:tag ?v }').needs).toEqual({ read: true, append: false, write: true })
  })
})

describe('SPARQL 1.1 Update §3 sequences of operations', () => {
  test('runs operations in order, each on the result of the one before', () => {
    const plan = sparql('INSERT DATA { <#a> ex:p 1 } ; DELETE { <#a> ex:p ?v } INSERT { <#a> ex:q ?v } WHERE { <#a> ex:p ?v }')
    expect(show(plan.apply([]))).toEqual([t('a', 'q', `"1"^^${INT}`)])
  })

  test('leaves the input array unchanged when a later operation fails', () => {
    const doc = Object.freeze([...GARCIA])
    const plan = sparql('INSERT DATA { <#claudia> ex:q 1 } ; DELETE DATA { <#claudia> ex:givenName "Alex" }')
    httpError(() => plan.apply(doc), 409, 'patch_conflict')
    expect(show(doc)).toEqual(show(GARCIA))
    expect(doc).toHaveLength(2)
  })

  test('leaves the input array unchanged when it succeeds', () => {
    const doc = Object.freeze([...GARCIA])
    sparql('DELETE DATA { <#claudia> ex:givenName "Claudia" } ; INSERT DATA { <#claudia> ex:q 1 }').apply(doc)
    expect(show(doc)).toEqual(show(GARCIA))
  })

  test('treats an empty request as a patch that changes nothing and needs nothing', () => {
    const plan = sparql('')
    expect(plan.needs).toEqual({ read: false, append: false, write: false })
    expect(show(plan.apply(GARCIA))).toEqual(show(GARCIA))
  })
})

describe('Solid Protocol §5.3.1 the SPARQL Update subset a PATCH takes', () => {
  test.each([
    ['FILTER', 'WHERE { ?p ex:age ?a FILTER(?a > 1) }'],
    ['OPTIONAL', 'WHERE { ?p ex:age ?a OPTIONAL { ?p ex:name ?n } }'],
    ['UNION', 'WHERE { { ?p ex:age ?a } UNION { ?p ex:years ?a } }'],
    ['MINUS', 'WHERE { ?p ex:age ?a MINUS { ?p ex:dead true } }'],
    ['BIND', 'WHERE { ?p ex:age ?a BIND(1 AS ?b) }'],
    ['VALUES', 'WHERE { ?p ex:age ?a VALUES ?a { 1 2 } }'],
    ['GRAPH', 'WHERE { GRAPH <#g> { ?p ex:age ?a } }'],
    ['SERVICE', 'WHERE { SERVICE <https://elsewhere.example/sparql> { ?p ex:age ?a } }'],
    ['a subquery', 'WHERE { { SELECT ?p ?a WHERE { ?p ex:age ?a } } }'],
  ])('rejects %s in WHERE with 422', (found, where) => {
    const err = httpError(() => sparql(`INSERT { ?p ex:seen true } ${where}`), 422, 'invalid_patch')
    expect(err.description).toBe(`WHERE supports basic graph patterns only; found ${found}`)
  })

  test('rejects property paths with 422', () => {
    httpError(() => sparql('INSERT { ?p ex:seen true } WHERE { ?p ex:knows/ex:knows ?q }'), 422, 'invalid_patch')
  })

  test.each([
    ['INSERT DATA', 'INSERT DATA { GRAPH <#g> { <#a> ex:p 1 } }'],
    ['DELETE DATA', 'DELETE DATA { GRAPH <#g> { <#a> ex:p 1 } }'],
    ['INSERT', 'INSERT { GRAPH <#g> { ?p ex:p 1 } } WHERE { ?p ex:q 1 }'],
  ])('rejects GRAPH in %s with 422: a document is one graph', (_, body) => {
    httpError(() => sparql(body), 422, 'invalid_patch')
  })

  test.each([
    ['WITH', 'WITH <#g> DELETE { ?p ex:a 1 } WHERE { ?p ex:a 1 }'],
    ['USING', 'DELETE { ?p ex:a 1 } USING <#g> WHERE { ?p ex:a 1 }'],
  ])('rejects %s with 422', (_, body) => {
    httpError(() => sparql(body), 422, 'invalid_patch')
  })

  test.each([
    'LOAD <https://elsewhere.example/doc>',
    'CLEAR DEFAULT',
    'DROP ALL',
    'CREATE GRAPH <#g>',
    'ADD DEFAULT TO <#g>',
    'MOVE DEFAULT TO <#g>',
    'COPY DEFAULT TO <#g>',
  ])('rejects graph management %p with 422', body => {
    httpError(() => sparql(body), 422, 'invalid_patch')
  })

  test('rejects a query with 422', () => {
    httpError(() => sparql('SELECT * WHERE { ?s ?p ?o }'), 422, 'invalid_patch')
  })
})

describe('SPARQL 1.1 Update §19 syntax', () => {
  test('rejects a body that does not parse with 400, naming the line', () => {
    const err = httpError(() => sparql('INSERT DATA {\n  <#a> ex:p 1\n  <#b> ex:p 2 }'), 400, 'invalid_syntax')
    expect(err.description).toBe("SPARQL syntax error near line 3, column 14: unexpected '<#b>'")
  })

  test('rejects a body cut short with 400', () => {
    const err = httpError(() => sparql('INSERT DATA { <#a> ex:p 1 .'), 400, 'invalid_syntax')
    expect(err.description).toContain('unexpected end of input')
  })

  test('resolves relative IRIs against the resource URL', () => {
    const [added] = sparql('INSERT DATA { <> ex:p <../bob#me> }').apply([])
    expect(added?.subject.value).toBe(BASE)
    expect(added?.object.value).toBe('https://pod.example/bob#me')
  })
})

describe('RFC 5789 §2.2 choosing the patch language by Content-Type', () => {
  test('reads application/sparql-update as SPARQL Update', () => {
    const plan = parsePatch('INSERT DATA { <#a> <#p> 1 }', 'application/sparql-update; charset=utf-8', BASE)
    expect(plan.needs).toEqual({ read: false, append: true, write: false })
    expect(plan.apply([])).toHaveLength(1)
  })
})
