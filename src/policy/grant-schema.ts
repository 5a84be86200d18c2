// The GrantData schema (Solid Application Interoperability data grants), declared once: it validates
// request bodies and is published as JSON Schema for clients to validate before they send.

import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value'

/** The published schema's identity; `$ref`s of the recursive `hasInheritingGrant` point here. */
export const GRANT_SCHEMA_ID = 'urn:solopod:grant-data'

// JSON Schema `format: uri` is an absolute URI (RFC 3986 §4.3). Registered here unless a library
// (Elysia registers the same name) did so first: both accept absolute URIs only.
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', v => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(v) && URL.canParse(v))

// SAI §9: the pod's own resources and agents are https; the vocabulary IRIs (interop, ACL) are http.
// The patterns also want a host: RFC 3986 allows `https://` with an empty authority, which names nothing.
const HTTPS = '^https://[^/?#\\s]'
const HTTP = '^http://[^/?#\\s]'
const httpsUri = (what: string) => Type.String({ format: 'uri', pattern: HTTPS, description: `${what}: an https URL` })
const httpUri = (what: string) => Type.String({ format: 'uri', pattern: HTTP, description: `${what}: an http IRI` })

export const GrantDataSchema = Type.Recursive(
  Self =>
    Type.Object(
      {
        grantee: httpsUri('the agent (WebID or client id) given access'),
        grantedBy: httpsUri('the social agent who issued the grant'),
        dataOwner: httpsUri("the owner of the data (this pod's owner)"),
        registeredShapeTree: httpsUri('the shape tree of the data'),
        hasDataRegistration: httpsUri('the data registration (container) holding the instances'),
        hasStorage: httpsUri("the storage of the registration (this pod's storage root)"),
        scopeOfGrant: httpUri('interop:AllFromRegistry, interop:SelectedFromRegistry or interop:Inherited'),
        accessMode: Type.Array(httpUri('an ACL access mode'), { minItems: 1, uniqueItems: true, description: 'one or more access modes' }),
        hasDataInstance: Type.Optional(Type.Array(httpsUri('a selected data instance'), { uniqueItems: true, description: 'the selected data instances' })),
        hasInheritingGrant: Type.Optional(Type.Array(Self, { description: 'grants with scope interop:Inherited' })),
      },
      { additionalProperties: false, description: 'a GrantData object' },
    ),
  { $id: GRANT_SCHEMA_ID, title: 'GrantData' },
)

export type GrantData = Static<typeof GrantDataSchema>

/** One problem with a submitted grant: where (RFC 6901 JSON pointer) and what was expected there. */
export interface Violation {
  readonly pointer: string
  readonly expected: string
}

/** The schema as a JSON Schema 2020-12 document (TypeBox emits plain JSON Schema; its symbols do not serialise). */
export function grantDataJsonSchema(): Record<string, unknown> {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...JSON.parse(JSON.stringify(GrantDataSchema)) }
}

/** Inheriting grants nest at most this deep (a decision follows the chain of parents). */
export const MAX_GRANT_DEPTH = 8

/** Every structural violation of `value`, one per offending field; empty when it is GrantData. */
export function checkGrantShape(value: unknown): Violation[] {
  // Checked first, without recursion: validating an absurdly deep document would exhaust the stack.
  const tooDeep = findTooDeep(value)
  if (tooDeep !== undefined) return [{ pointer: tooDeep, expected: `no deeper nesting: hasInheritingGrant nests at most ${MAX_GRANT_DEPTH} levels` }]
  const seen = new Set<string>()
  const out: Violation[] = []
  for (const e of Value.Errors(GrantDataSchema, value)) {
    const v = describe(e)
    const key = `${v.pointer}\n${v.expected}`
    if (seen.has(key) || out.some(o => o.pointer === v.pointer)) continue // one (the first) reason per field
    seen.add(key)
    out.push(v)
  }
  return out
}

// TypeBox reports an unexpected property at the object's path with its name in the message; a missing
// one at the property's own path.
function describe(e: ValueError): Violation {
  const schema = e.schema as TSchema & { description?: string }
  switch (e.type) {
    case ValueErrorType.ObjectAdditionalProperties: {
      const name = /'([^']*)'/.exec(e.message)?.[1]
      const pointer = name === undefined ? e.path : `${e.path}/${escapePointer(name)}`
      return { pointer, expected: 'no such property: GrantData allows only the properties of its schema' }
    }
    case ValueErrorType.ObjectRequiredProperty:
      return { pointer: e.path, expected: `required: ${schema.description ?? 'a value'}` }
    case ValueErrorType.ArrayMinItems:
      return { pointer: e.path, expected: `${schema.description ?? 'an array'}: at least ${(schema as { minItems?: number }).minItems} item` }
    case ValueErrorType.ArrayUniqueItems:
      return { pointer: e.path, expected: `${schema.description ?? 'an array'}, each item once` }
    case ValueErrorType.Object:
      return { pointer: e.path, expected: 'a JSON object (GrantData)' }
    case ValueErrorType.Array:
      return { pointer: e.path, expected: `an array: ${schema.description ?? 'of values'}` }
    case ValueErrorType.String:
      return { pointer: e.path, expected: `a string: ${schema.description ?? 'text'}` }
    default:
      return { pointer: e.path, expected: schema.description ?? e.message }
  }
}

function findTooDeep(value: unknown): string | undefined {
  let level: { node: unknown; pointer: string }[] = [{ node: value, pointer: '' }]
  for (let depth = 0; level.length > 0; depth++) {
    const next: typeof level = []
    for (const { node, pointer } of level) {
      const children = (node as { hasInheritingGrant?: unknown } | null)?.hasInheritingGrant
      if (typeof node !== 'object' || node === null || !Array.isArray(children)) continue
      if (depth === MAX_GRANT_DEPTH && children.length > 0) return `${pointer}/hasInheritingGrant`
      children.forEach((child, i) => next.push({ node: child, pointer: `${pointer}/hasInheritingGrant/${i}` }))
    }
    level = next
  }
  return undefined
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')
