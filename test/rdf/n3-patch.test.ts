import { describe, expect, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import { DataFactory, Parser } from 'n3'
import { HttpError } from '../../src/http/errors.ts'
import { parseN3Patch } from '../../src/rdf/n3-patch.ts'
import { showTriple } from '../../src/rdf/triple-patterns.ts'
import { ACCEPT_PATCH, parsePatch } from '../../src/rdf/patch.ts'

const BASE = 'https://pod.example/people/alice'
const EX = 'http://www.example.org/terms#'
const PREFIXES = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.\n@prefix ex: <${EX}>.\n`
const { blankNode, literal, namedNode, quad } = DataFactory

const turtle = (body: string): Quad[] => new Parser({ baseIRI: BASE }).parse(PREFIXES + body)
const n3 = (body: string) => parseN3Patch(PREFIXES + body, BASE)
const show = (quads: readonly Quad[]) => quads.map(showTriple).sort()
const patch = (clauses: string) => n3(`_:p a solid:InsertDeletePatch; ${clauses}.`)

function httpError(run: () => unknown, status: number, code: string): HttpError {
  try {
    run()
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    expect({ status: err.status, code: err.code }).toEqual({ status, code })
    return err
  }
  throw new Error(`expected HttpError ${status} ${code}`)
}

const GARCIA = turtle('<#claudia> ex:familyName "Garcia"; ex:givenName "Claudia".')

describe('Solid Protocol §5.3.1 N3 Patch: the spec example', () => {
  test('renames Claudia to Alex where the family name is Garcia', () => {
    const plan = n3(`_:rename a solid:InsertDeletePatch;
  solid:where   { ?person ex:familyName "Garcia". };
  solid:inserts { ?person ex:givenName "Alex". };
  solid:deletes { ?person ex:givenName "Claudia". }.`)
    expect(show(plan.apply(GARCIA))).toEqual([`<${BASE}#claudia> <${EX}familyName> "Garcia"`, `<${BASE}#claudia> <${EX}givenName> "Alex"`])
  })
})

describe('Solid Protocol §5.3.1 patch resource', () => {
  test('accepts an IRI as the patch resource, with solid:Patch as a further type', () => {
    const plan = n3('<#patch> a solid:InsertDeletePatch, solid:Patch; solid:inserts { <#a> ex:p 1 }.')
    expect(show(plan.apply([]))).toEqual([`<${BASE}#a> <${EX}p> "1"^^http://www.w3.org/2001/XMLSchema#integer`])
  })

  test.each([
    ['an empty body', ''],
    ['a body with only ordinary triples', '<#a> ex:p 1.'],
  ])('rejects %s: no patch resource', (_, body) => {
    httpError(() => n3(body), 422, 'invalid_patch')
  })

  test('rejects more than one patch resource', () => {
    const err = httpError(
      () =>
        n3(`_:a a solid:InsertDeletePatch; solid:inserts { <#a> ex:p 1 }.
      _:b a solid:InsertDeletePatch; solid:inserts { <#a> ex:p 2 }.`),
      422,
      'invalid_patch',
    )
    expect(err.description).toContain('exactly one')
  })

  test('rejects a patch resource without rdf:type solid:InsertDeletePatch', () => {
    httpError(() => n3('_:p solid:inserts { <#a> ex:p 1 }.'), 422, 'invalid_patch')
  })

  test('rejects a patch resource that is neither an IRI nor a blank node', () => {
    httpError(() => n3('?p a solid:InsertDeletePatch; solid:inserts { <#a> ex:p 1 }.'), 422, 'invalid_patch')
  })
})

describe('Solid Protocol §5.3.1 formulas', () => {
  test.each(['inserts', 'deletes', 'where'])('rejects solid:%s given more than once', name => {
    const err = httpError(() => patch(`solid:${name} { <#a> ex:p 1 }, { <#a> ex:p 2 }`), 422, 'invalid_patch')
    expect(err.description).toContain(`solid:${name}`)
  })

  test.each([
    ['an IRI', 'solid:inserts <#formula>'],
    ['a literal', 'solid:inserts "<#a> ex:p 1"'],
  ])('rejects a formula given as %s', (_, clauses) => {
    httpError(() => patch(clauses), 422, 'invalid_patch')
  })

  test('rejects a nested formula', () => {
    const err = httpError(() => patch('solid:inserts { <#a> ex:p { <#b> ex:q 1 } }'), 422, 'invalid_patch')
    expect(err.description).toContain('nested')
  })

  test('rejects a quoted triple', () => {
    httpError(() => patch('solid:inserts { <#a> ex:p << <#b> ex:q 1 >> }'), 422, 'invalid_patch')
  })

  test.each([
    ['a literal subject', 'solid:inserts { "a" ex:p 1 }'],
    ['a blank node predicate', 'solid:inserts { <#a> _:p 1 }'],
    ['a literal subject in where', 'solid:where { "a" ex:p ?x }'],
  ])('rejects triple patterns with %s', (_, clauses) => {
    httpError(() => patch(clauses), 422, 'invalid_patch')
  })

  test('treats an absent formula as the empty formula', () => {
    const plan = patch('solid:inserts { <#a> ex:p "x" }')
    expect(show(plan.apply([]))).toEqual([`<${BASE}#a> <${EX}p> "x"`])
  })

  test('accepts the empty formula {}', () => {
    const plan = patch('solid:where {}; solid:deletes {}; solid:inserts { <#a> ex:p "x" }')
    expect(plan.needs).toEqual({ read: false, append: true, write: false })
  })
})

describe('Solid Protocol §5.3.1 constraints between formulas', () => {
  test.each([
    ['solid:inserts', 'solid:inserts { ?x ex:p 1 }'],
    ['solid:deletes', 'solid:deletes { ?x ex:p 1 }'],
    ['solid:inserts', 'solid:where { ?y ex:p 1 }; solid:inserts { ?y ex:q ?x }'],
  ])('rejects a variable in %s that does not occur in solid:where', (name, clauses) => {
    const err = httpError(() => patch(clauses), 422, 'invalid_patch')
    expect(err.description).toBe(`?x in ${name} does not occur in solid:where`)
  })

  test.each([
    ['a labelled blank node', 'solid:deletes { _:b ex:p 1 }'],
    ['an anonymous blank node', 'solid:deletes { <#a> ex:p [] }'],
  ])('rejects blank nodes in solid:deletes: %s', (_, clauses) => {
    const err = httpError(() => patch(clauses), 422, 'invalid_patch')
    expect(err.description).toBe('solid:deletes must not contain blank nodes')
  })

  test('rejects a blank node label used in both solid:inserts and solid:where', () => {
    const err = httpError(() => patch('solid:where { _:b ex:p ?x }; solid:inserts { _:b ex:q ?x }'), 422, 'invalid_patch')
    expect(err.description).toBe('blank node _:b occurs in both solid:inserts and solid:where')
  })

  test('accepts blank nodes in solid:inserts that solid:where does not use', () => {
    const plan = patch('solid:where { _:w ex:p ?x }; solid:inserts { _:b ex:q ?x }')
    expect(plan.apply(turtle('<#a> ex:p 1.'))).toHaveLength(2)
  })
})

describe('WAC §5 modes per method modes a PATCH needs', () => {
  test.each([
    ['where needs Read', 'solid:where { ?a ex:p 1 }', { read: true, append: false, write: false }],
    ['inserts need Append', 'solid:inserts { <#a> ex:p 1 }', { read: false, append: true, write: false }],
    ['deletes need Read and Write', 'solid:deletes { <#a> ex:p 1 }', { read: true, append: false, write: true }],
    [
      'all three need all three',
      'solid:where { ?a ex:p 1 }; solid:inserts { ?a ex:p 2 }; solid:deletes { ?a ex:p 1 }',
      { read: true, append: true, write: true },
    ],
    ['an empty patch needs nothing', 'solid:inserts {}', { read: false, append: false, write: false }],
  ])('%s', (_, clauses, needs) => {
    expect(patch(clauses).needs).toEqual(needs)
  })
})

describe('Solid Protocol §5.3.1 application', () => {
  test('starts from an empty document when the resource does not exist', () => {
    expect(show(patch('solid:inserts { <#a> ex:p "x" }').apply([]))).toEqual([`<${BASE}#a> <${EX}p> "x"`])
  })

  test('answers 409 when solid:where has no match', () => {
    const plan = patch('solid:where { ?p ex:familyName "Smith" }; solid:inserts { ?p ex:q 1 }')
    httpError(() => plan.apply(GARCIA), 409, 'patch_conflict')
  })

  test('answers 409 when solid:where matches in more than one way', () => {
    const doc = turtle('<#a> ex:familyName "Garcia". <#b> ex:familyName "Garcia".')
    const plan = patch('solid:where { ?p ex:familyName "Garcia" }; solid:inserts { ?p ex:q 1 }')
    httpError(() => plan.apply(doc), 409, 'patch_conflict')
  })

  test('counts mappings of variables only: blank nodes in solid:where are existential', () => {
    const doc = turtle('<#a> ex:knows [ ex:name "B" ], [ ex:name "C" ].')
    const plan = patch('solid:where { ?p ex:knows _:someone }; solid:inserts { ?p ex:social true }')
    expect(plan.apply(doc)).toHaveLength(5)
  })

  test('applies a solid:where without variables when its triples are present', () => {
    const plan = patch('solid:where { <#claudia> ex:familyName "Garcia" }; solid:inserts { <#claudia> ex:q 1 }')
    expect(plan.apply(GARCIA)).toHaveLength(3)
  })

  test('answers 409 for a solid:where without variables whose triples are absent', () => {
    const plan = patch('solid:where { <#claudia> ex:familyName "Smith" }; solid:inserts { <#claudia> ex:q 1 }')
    httpError(() => plan.apply(GARCIA), 409, 'patch_conflict')
  })

  test('answers 409 when a triple to delete is absent', () => {
    const plan = patch('solid:deletes { <#claudia> ex:givenName "Alex" }')
    const err = httpError(() => plan.apply(GARCIA), 409, 'patch_conflict')
    expect(err.description).toBe(`the document does not contain <${BASE}#claudia> <${EX}givenName> "Alex"`)
  })

  test('removes the deletions before adding the insertions', () => {
    const plan = patch('solid:deletes { <#claudia> ex:givenName "Claudia" }; solid:inserts { <#claudia> ex:givenName "Claudia" }')
    expect(show(plan.apply(GARCIA))).toEqual(show(GARCIA))
  })

  test('adds a triple the document already has only once', () => {
    expect(patch('solid:inserts { <#claudia> ex:givenName "Claudia" }').apply(GARCIA)).toHaveLength(2)
  })

  test('makes each inserted blank node a new node, one per label', () => {
    const taken = quad(blankNode('n0'), namedNode(`${EX}p`), literal('old'))
    const result = patch('solid:inserts { <#a> ex:knows _:b. _:b ex:name "B". <#a> ex:knows [ ex:name "C" ] }').apply([taken])
    const knows = result.filter(q => q.predicate.value === `${EX}knows`).map(q => q.object.value)
    expect(new Set(knows).size).toBe(2)
    expect(knows).not.toContain('n0')
    const named = result.find(q => q.object.value === 'B')
    expect(knows).toContain(named?.subject.value ?? 'missing')
  })

  test('answers 409 when a mapping puts a literal in subject position', () => {
    const plan = patch('solid:where { <#claudia> ex:givenName ?n }; solid:inserts { ?n ex:p 1 }')
    httpError(() => plan.apply(GARCIA), 409, 'patch_conflict')
  })

  test('leaves the input array unchanged when apply fails', () => {
    const doc = Object.freeze([...GARCIA])
    const plan = patch('solid:inserts { <#claudia> ex:q 1 }; solid:deletes { <#claudia> ex:givenName "Alex" }')
    httpError(() => plan.apply(doc), 409, 'patch_conflict')
    expect(show(doc)).toEqual(show(GARCIA))
    expect(doc).toHaveLength(2)
  })

  test('leaves the input array unchanged when apply succeeds', () => {
    const doc = Object.freeze([...GARCIA])
    patch('solid:deletes { <#claudia> ex:givenName "Claudia" }; solid:inserts { <#claudia> ex:q 1 }').apply(doc)
    expect(show(doc)).toEqual(show(GARCIA))
  })

  test('resolves relative IRIs against the resource URL', () => {
    const [added] = patch('solid:inserts { <> ex:p <../bob#me> }').apply([])
    expect(added?.subject.value).toBe(BASE)
    expect(added?.object.value).toBe('https://pod.example/bob#me')
  })

  test('refuses a solid:where too expensive to match', () => {
    const doc = Array.from({ length: 100 }, (_, i) => quad(namedNode(`${BASE}#s${i}`), namedNode(`${EX}p`), literal(`${i}`)))
    const plan = patch('solid:where { _:a ?p _:b. _:c ?p _:d. _:e ?p _:f. _:g ?p _:h }')
    httpError(() => plan.apply(doc), 422, 'invalid_patch')
  })
})

describe('Solid Protocol §5.3.1 syntax', () => {
  test('rejects N3 that does not parse with 400, naming line and column', () => {
    const err = httpError(() => n3('_:p a solid:InsertDeletePatch;\n  solid:inserts { <#a> ex:p . }.'), 400, 'invalid_syntax')
    expect(err.description).toStartWith('N3 syntax error at line 4, column 29:')
  })

  test('names the position of text the lexer cannot read', () => {
    const err = httpError(() => n3('_:p a solid:InsertDeletePatch;\n  solid:inserts { <#a> ex:p "open }.'), 400, 'invalid_syntax')
    expect(err.description).toStartWith('N3 syntax error at line 4, column 29:')
  })
})

describe('RFC 5789 §2.2 choosing the patch language by Content-Type', () => {
  test('reads text/n3, parameters and case aside, as N3 Patch', () => {
    const plan = parsePatch(`${PREFIXES}_:p a solid:InsertDeletePatch; solid:inserts { <#a> ex:p 1 }.`, 'Text/N3; charset=utf-8', BASE)
    expect(plan.needs).toEqual({ read: false, append: true, write: false })
  })

  test.each(['text/turtle', 'application/json', ''])('rejects %p with 415 and Accept-Patch', type => {
    const err = httpError(() => parsePatch('', type, BASE), 415, 'unsupported_media_type')
    expect(err.headers['Accept-Patch']).toBe(ACCEPT_PATCH)
    expect(ACCEPT_PATCH).toContain('text/n3')
  })
})
