import { describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { checkGrantShape, grantDataJsonSchema, type GrantData } from '../../src/policy/grant-schema.ts'
import { ACL, INTEROP, POD, grant, inheriting } from './grant-fixture.ts'

// Every rule of the published schema, checked twice: by the pod (TypeBox) and by a client validating
// against GET /.admin/schemas/grant-data.json with Ajv, the most used JSON Schema validator.
const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats(ajv)
const clientValidate = ajv.compile(grantDataJsonSchema())

const REQUIRED = ['grantee', 'grantedBy', 'dataOwner', 'registeredShapeTree', 'hasDataRegistration', 'hasStorage', 'scopeOfGrant', 'accessMode'] as const
const HTTPS_FIELDS = ['grantee', 'grantedBy', 'dataOwner', 'registeredShapeTree', 'hasDataRegistration', 'hasStorage'] as const

const without = (field: string) => {
  const g: Record<string, unknown> = { ...grant() }
  delete g[field]
  return g
}

function expectViolation(value: unknown, pointer: string, expected?: RegExp) {
  const v = checkGrantShape(value)
  expect(v.map(x => x.pointer)).toContain(pointer)
  if (expected) expect(v.find(x => x.pointer === pointer)!.expected).toMatch(expected)
  expect(clientValidate(value)).toBe(false) // the published schema says the same
}

describe('the published JSON Schema', () => {
  const schema = grantDataJsonSchema() as Record<string, any>
  test('is an object schema with no additional properties and the required list', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.type).toBe('object')
    expect(schema.additionalProperties).toBe(false)
    expect(schema.required).toEqual([...REQUIRED])
  })
  test.each(HTTPS_FIELDS)('%s is format uri with an https pattern', f => {
    expect(schema.properties[f]).toMatchObject({ type: 'string', format: 'uri' })
    expect(schema.properties[f].pattern).toStartWith('^https://')
  })
  test('hasDataInstance items are https URIs; scopeOfGrant and accessMode items http IRIs', () => {
    expect(schema.properties.hasDataInstance.items).toMatchObject({ format: 'uri' })
    expect(schema.properties.hasDataInstance.items.pattern).toStartWith('^https://')
    expect(schema.properties.scopeOfGrant).toMatchObject({ format: 'uri' })
    expect(schema.properties.scopeOfGrant.pattern).toStartWith('^http://')
    expect(schema.properties.accessMode).toMatchObject({ type: 'array', minItems: 1 })
    expect(schema.properties.accessMode.items).toMatchObject({ format: 'uri' })
    expect(schema.properties.accessMode.items.pattern).toStartWith('^http://')
  })
  test('hasInheritingGrant is an array of GrantData (a recursive $ref)', () => {
    expect(schema.properties.hasInheritingGrant.type).toBe('array')
    expect(schema.properties.hasInheritingGrant.items.$ref).toBe(schema.$id)
  })
})

describe('GrantData schema: valid grants pass', () => {
  test.each([
    ['AllFromRegistry', grant()],
    ['SelectedFromRegistry with instances', grant({ scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: [`${POD}/projects/a`] })],
    ['two levels of inheriting grants', grant({ hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting()] })] })],
  ])('%s', (_, g) => {
    expect(checkGrantShape(g)).toEqual([])
    expect(clientValidate(g)).toBe(true)
  })
})

describe('GrantData schema: each required field', () => {
  test.each(REQUIRED)('missing %s → violation at /%s', f => expectViolation(without(f), `/${f}`, /^required/))
})

describe('GrantData schema: no properties beyond the listed ones', () => {
  test.each(['id', 'inheritsFromGrant', 'creatorAccessMode', 'delegationOfGrant', 'grantedAt', 'foo'])('extra property %s', p =>
    expectViolation({ ...grant(), [p]: 'https://x.example/' }, `/${p}`, /no such property/),
  )
  test('an extra property inside an inheriting grant', () =>
    expectViolation(grant({ hasInheritingGrant: [{ ...inheriting(), extra: true }] }), '/hasInheritingGrant/0/extra', /no such property/))
})

describe('GrantData schema: URI schemes exactly as specified', () => {
  test.each(HTTPS_FIELDS)('%s over http → violation (https expected)', f =>
    expectViolation(grant({ [f]: (grant() as any)[f].replace('https://', 'http://') }), `/${f}`, /https URL/),
  )
  test('a hasDataInstance item over http', () =>
    expectViolation(
      grant({ scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: [`${POD}/projects/a`, 'http://pod.example/projects/b'] }),
      '/hasDataInstance/1',
      /https URL/,
    ))
  test('scopeOfGrant over https', () =>
    expectViolation(grant({ scopeOfGrant: INTEROP('AllFromRegistry').replace('http:', 'https:') }), '/scopeOfGrant', /http IRI/))
  test('an accessMode item over https', () =>
    expectViolation(grant({ accessMode: [ACL('Read'), ACL('Write').replace('http:', 'https:')] }), '/accessMode/1', /http IRI/))
  test.each(['not a url', 'https://', 'https://exa mple.org/x', 'urn:x'])('grantee %p is not an https URI', v =>
    expectViolation(grant({ grantee: v }), '/grantee'),
  )
})

describe('GrantData schema: types', () => {
  test.each([
    ['grantee a number', { grantee: 42 }, '/grantee', /^a string/],
    ['accessMode not an array', { accessMode: ACL('Read') }, '/accessMode', /^an array/],
    ['accessMode empty', { accessMode: [] }, '/accessMode', /at least 1/],
    ['accessMode with a number', { accessMode: [1] }, '/accessMode/0', /^a string/],
    ['accessMode with a repeated mode', { accessMode: [ACL('Read'), ACL('Read')] }, '/accessMode', /each item once/],
    ['hasDataInstance not an array', { hasDataInstance: `${POD}/projects/a` }, '/hasDataInstance', /^an array/],
    ['hasInheritingGrant an object', { hasInheritingGrant: inheriting() }, '/hasInheritingGrant', /^an array/],
    ['hasInheritingGrant item a string', { hasInheritingGrant: ['https://x.example/g'] }, '/hasInheritingGrant/0', /object/],
  ] as const)('%s', (_, over, pointer, expected) => expectViolation(grant(over as never), pointer, expected))
  test.each([
    ['an array', []],
    ['null', null],
    ['a string', 'grant'],
  ])('the body is %s', (_, body) => expectViolation(body, '', /JSON object/))
})

describe('GrantData schema: recursion', () => {
  test('an invalid grandchild is reported at its own pointer, two levels deep', () => {
    const bad = grant({
      hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting(), inheriting({ accessMode: [], grantee: 'http://bob.example/#me' })] })],
    })
    const v = checkGrantShape(bad)
    expect(v.map(x => x.pointer).sort()).toEqual([
      '/hasInheritingGrant/0/hasInheritingGrant/1/accessMode',
      '/hasInheritingGrant/0/hasInheritingGrant/1/grantee',
    ])
    expect(clientValidate(bad)).toBe(false)
  })
  test('nesting deeper than 8 levels is refused at the first level too deep, before any recursion', () => {
    const chain = (levels: number): GrantData => (levels === 0 ? inheriting() : inheriting({ hasInheritingGrant: [chain(levels - 1)] }))
    expect(checkGrantShape(grant({ hasInheritingGrant: [chain(7)] }))).toEqual([])
    const deep = grant({ hasInheritingGrant: [chain(8)] })
    expect(checkGrantShape(deep).map(v => v.pointer)).toEqual([`${'/hasInheritingGrant/0'.repeat(8)}/hasInheritingGrant`])
    const absurd = { hasInheritingGrant: [] as unknown[] }
    let at = absurd
    for (let i = 0; i < 100_000; i++) {
      const child = { hasInheritingGrant: [] as unknown[] }
      at.hasInheritingGrant.push(child)
      at = child
    }
    expect(checkGrantShape(absurd)[0]!.expected).toContain('at most 8 levels')
  })
  test('a missing field in a grandchild', () =>
    expectViolation(
      grant({ hasInheritingGrant: [inheriting({ hasInheritingGrant: [(({ dataOwner: _, ...rest }) => rest)(inheriting())] })] }),
      '/hasInheritingGrant/0/hasInheritingGrant/0/dataOwner',
      /^required/,
    ))
})
