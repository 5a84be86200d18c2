import { describe, expect, test } from 'bun:test'
import { checkGrantMeaning } from '../../src/policy/grant-rules.ts'
import type { GrantData } from '../../src/policy/grant-schema.ts'
import { ACL, BOB, INTEROP, OWNER, POD, grant, inheriting } from './grant-fixture.ts'

// SAI §9.6 data grants on this pod: each rule beyond the schema, with the pointer and what was expected.
const pod = { baseUrl: POD, ownerWebId: OWNER }
const selected = (instances: string[]) => grant({ scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: instances })

describe('semantic rules: valid grants', () => {
  test.each([
    ['AllFromRegistry', grant()],
    ['SelectedFromRegistry', selected([`${POD}/projects/a`, `${POD}/projects/b/`])],
    ['every known mode', grant({ accessMode: ['Read', 'Write', 'Append', 'Create', 'Update', 'Delete'].map(ACL) })],
    [
      'inheriting grants two levels deep',
      grant({ hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting({ hasDataRegistration: `${POD}/notes/` })] })] }),
    ],
  ])('%s has no violations', (_, g) => expect(checkGrantMeaning(g, pod)).toEqual([]))
})

describe('semantic rules: each violation', () => {
  test.each([
    ['an unknown scope', grant({ scopeOfGrant: INTEROP('All') }), '/scopeOfGrant', /one of .*AllFromRegistry/],
    ['AllFromAgent (authorizations only)', grant({ scopeOfGrant: INTEROP('AllFromAgent') }), '/scopeOfGrant', /one of/],
    ['a top-level Inherited grant', grant({ scopeOfGrant: INTEROP('Inherited') }), '/scopeOfGrant', /needs a parent/],
    [
      'an inheriting grant with another scope',
      grant({ hasInheritingGrant: [inheriting({ scopeOfGrant: INTEROP('AllFromRegistry') })] }),
      '/hasInheritingGrant/0/scopeOfGrant',
      /Inherited/,
    ],
    [
      'SelectedFromRegistry without instances',
      grant({ scopeOfGrant: INTEROP('SelectedFromRegistry') }),
      '/hasDataInstance',
      /required with scope SelectedFromRegistry/,
    ],
    ['SelectedFromRegistry with an empty list', selected([]), '/hasDataInstance', /one or more/],
    ['instances with AllFromRegistry', grant({ hasDataInstance: [`${POD}/projects/a`] }), '/hasDataInstance', /only a SelectedFromRegistry/],
    ['another data owner', grant({ dataOwner: BOB }), '/dataOwner', new RegExp(`${OWNER}: the owner`)],
    ['another storage', grant({ hasStorage: 'https://other.example/' }), '/hasStorage', new RegExp(`${POD}/: the storage`)],
    [
      'a registration outside the storage',
      grant({ hasDataRegistration: 'https://other.example/projects/' }),
      '/hasDataRegistration',
      /inside https:\/\/pod.example\//,
    ],
    ['the storage root as registration', grant({ hasDataRegistration: `${POD}/` }), '/hasDataRegistration', /not the storage root/],
    ['a registration that is not a container', grant({ hasDataRegistration: `${POD}/projects` }), '/hasDataRegistration', /ending in \//],
    ['a registration with a query', grant({ hasDataRegistration: `${POD}/projects/?x=1` }), '/hasDataRegistration', /without query/],
    ['a registration on an endpoint path', grant({ hasDataRegistration: `${POD}/.admin/` }), '/hasDataRegistration', /own endpoints/],
    [
      'an instance outside the registration',
      selected([`${POD}/projects/a`, `${POD}/notes/b`]),
      '/hasDataInstance/1',
      /inside https:\/\/pod.example\/projects\//,
    ],
    ['the registration as its own instance', selected([`${POD}/projects/`]), '/hasDataInstance/0', /not the registration itself/],
    ['an instance with a fragment', selected([`${POD}/projects/a#it`]), '/hasDataInstance/0', /without query or fragment/],
    ['an instance with dot segments', selected([`${POD}/projects/x/../a`]), '/hasDataInstance/0', /normal form/],
    ['an ACL as instance', selected([`${POD}/projects/a.acl`]), '/hasDataInstance/0', /not an ACL/],
    ['acl:Control', grant({ accessMode: [ACL('Read'), ACL('Control')] }), '/accessMode/1', /never give control/],
    ['an unknown mode', grant({ accessMode: ['http://example.org/modes#Admin'] }), '/accessMode/0', /one of .*acl#Read/],
    [
      'an inheriting grant for another grantee',
      grant({ hasInheritingGrant: [inheriting({ grantee: 'https://carol.example/#me' })] }),
      '/hasInheritingGrant/0/grantee',
      /the same grantee/,
    ],
    [
      'an invalid grandchild',
      grant({ hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting({ dataOwner: BOB })] })] }),
      '/hasInheritingGrant/0/hasInheritingGrant/0/dataOwner',
      /the owner/,
    ],
  ] as [string, GrantData, string, RegExp][])('%s', (_, g, pointer, expected) => {
    const v = checkGrantMeaning(g, pod)
    expect(v.map(x => x.pointer)).toEqual([pointer])
    expect(v[0]!.expected).toMatch(expected)
  })
})
