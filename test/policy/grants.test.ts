import { describe, expect, test } from 'bun:test'
import { grantModes, indexGrants, type GrantLinks, type StoredGrant } from '../../src/policy/grants.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import type { GrantData } from '../../src/policy/grant-schema.ts'
import { ACL, APP, BOB, INTEROP, OWNER, POD, TREES, grant, inheriting } from './grant-fixture.ts'

// SAI §9.6 decisions: subject match, target match per scope, mode mapping. Data for Inherited grants
// comes from the links below: projects/p1 references tasks/t1 by pm:hasTask, p2 references t2.
const PM = 'https://vocab.example/pm#'
const data: Record<string, [string, string][]> = {
  [`${POD}/projects/p1`]: [
    [`${PM}hasTask`, `${POD}/tasks/t1#it`],
    [`${PM}seeAlso`, `${POD}/tasks/t3`],
  ],
  [`${POD}/projects/p2/`]: [[`${PM}hasTask`, `${POD}/tasks/t2/`]],
  [`${POD}/tasks/t1`]: [[`${PM}hasNote`, `${POD}/notes/n1`]],
}
const links: GrantLinks = {
  referencePredicates: async (from, to) => {
    if (from === `${TREES}#Project` && to === `${TREES}#Task`) return [`${PM}hasTask`]
    if (from === `${TREES}#Task` && to === `${TREES}#Note`) return [`${PM}hasNote`]
    return []
  },
  instancesOf: async reg => Object.keys(data).filter(u => u.startsWith(reg) && u !== reg),
  linksFrom: async i => data[i] ?? [],
  writableByOthers: async () => undefined,
}

const bob: Principal = { webid: BOB as WebId, keys: [], scheme: 'DPoP' }
const bobViaApp: Principal = { webid: BOB as WebId, clientId: APP as ClientId, keys: [], scheme: 'DPoP' }
const carol: Principal = { webid: 'https://carol.example/#me' as WebId, keys: [], scheme: 'DPoP' }
const carolViaApp: Principal = { ...carol, clientId: APP as ClientId }

async function modes(grants: GrantData[], who: Principal, path: string) {
  const stored: StoredGrant[] = grants.map((data, i) => ({ iri: `${POD}/.admin/api/grants/g${i}`, data }))
  const out = await grantModes(indexGrants(stored), who, POD + path, links)
  return out.grounds
    .map(g => g.mode)
    .sort()
    .join(' ')
}
const modesOf = (...names: string[]) => names.map(ACL)

describe('SAI §9.6 AllFromRegistry: the registration and everything in it', () => {
  const g = grant({ accessMode: modesOf('Read') })
  test.each([
    ['/projects/', 'read'],
    ['/projects/p1', 'read'],
    ['/projects/p2/', 'read'],
    ['/projects/p2/deep/x', 'read'],
    ['/projects', ''],
    ['/projectsX/a', ''],
    ['/tasks/t1', ''],
    ['/', ''],
    ['/projects/p1.acl', ''],
    ['/projects/.acl', ''],
  ])('%s → "%s"', async (path, expected) => expect(await modes([g], bob, path)).toBe(expected))
})

describe('SAI §9.6 SelectedFromRegistry: only the listed instances and what is inside them', () => {
  const g = grant({
    scopeOfGrant: INTEROP('SelectedFromRegistry'),
    hasDataInstance: [`${POD}/projects/p1`, `${POD}/projects/p2/`],
    accessMode: modesOf('Read', 'Update'),
  })
  test.each([
    ['/projects/p1', 'append read write'],
    ['/projects/p2/', 'append read write'],
    ['/projects/p2/inner', 'append read write'],
    ['/projects/', ''],
    ['/projects/p3', ''],
    ['/projects/p1x', ''],
    ['/projects/p1/child', ''],
  ])('%s → "%s"', async (path, expected) => expect(await modes([g], bob, path)).toBe(expected))
})

describe('SAI §9.6 Inherited: instances linked from a parent-covered instance by the shape tree reference', () => {
  const parentSelected = grant({
    scopeOfGrant: INTEROP('SelectedFromRegistry'),
    hasDataInstance: [`${POD}/projects/p1`],
    hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting({ registeredShapeTree: `${TREES}#Note`, hasDataRegistration: `${POD}/notes/` })] })],
  })
  test.each([
    ['/tasks/t1', 'read', 'linked by pm:hasTask (object with a fragment)'],
    ['/tasks/t2/', '', 'linked only from p2, which the parent does not cover'],
    ['/tasks/t3', '', 'linked by a predicate that is not the reference'],
    ['/tasks/', '', 'the registration itself'],
    ['/notes/n1', 'read', 'two levels: p1 → t1 → n1'],
    ['/projects/p1', 'read', 'the parent grant itself'],
  ])('%s → "%s" (%s)', async (path, expected) => expect(await modes([parentSelected], bob, path)).toBe(expected))

  test('under an AllFromRegistry parent, every linked instance (and what is inside a linked container)', async () => {
    const g = grant({ hasInheritingGrant: [inheriting()] })
    expect(await modes([g], bob, '/tasks/t1')).toBe('read')
    expect(await modes([g], bob, '/tasks/t2/sub')).toBe('read')
    expect(await modes([g], bob, '/tasks/t3')).toBe('')
  })
  test('the grant names the linking instance', async () => {
    const out = await grantModes(indexGrants([{ iri: `${POD}/g`, data: parentSelected }]), bob, `${POD}/tasks/t1`, links)
    expect(out.grounds[0]).toMatchObject({ grant: `${POD}/g#inherit-0`, scope: 'Inherited', via: `${POD}/projects/p1` })
    expect(out.links).toEqual([
      { grant: `${POD}/g#inherit-0`, from: `${POD}/projects/p1`, predicate: `${PM}hasTask`, to: `${POD}/tasks/t1#it`, followed: true },
    ])
  })
})

describe('SAI §9.6 Inherited: links only the owner could have written', () => {
  const parentSelected = grant({
    scopeOfGrant: INTEROP('SelectedFromRegistry'),
    hasDataInstance: [`${POD}/projects/p1`],
    hasInheritingGrant: [inheriting({ hasInheritingGrant: [inheriting({ registeredShapeTree: `${TREES}#Note`, hasDataRegistration: `${POD}/notes/` })] })],
  })
  const distrusting = (doc: string): GrantLinks => ({ ...links, writableByOthers: async i => (i === POD + doc ? 'someone else has Append' : undefined) })
  const decide = (path: string, l: GrantLinks) => grantModes(indexGrants([{ iri: `${POD}/g`, data: parentSelected }]), bob, POD + path, l)

  test('a link in a document others may write is not followed, and the outcome says why', async () => {
    const out = await decide('/tasks/t1', distrusting('/projects/p1'))
    expect(out.grounds).toEqual([])
    expect(out.links).toEqual([
      {
        grant: `${POD}/g#inherit-0`,
        from: `${POD}/projects/p1`,
        predicate: `${PM}hasTask`,
        to: `${POD}/tasks/t1#it`,
        followed: false,
        why: `link from ${POD}/projects/p1 not followed: others may write it (someone else has Append)`,
      },
    ])
  })
  test('two levels: a distrusted middle document cuts the chain below it', async () => {
    expect((await decide('/notes/n1', links)).grounds.map(g => g.mode)).toEqual(['read'])
    expect((await decide('/notes/n1', distrusting('/tasks/t1'))).grounds).toEqual([])
    expect((await decide('/notes/n1', distrusting('/projects/p1'))).grounds).toEqual([])
  })
  test('the parent grant itself does not depend on links', async () => {
    expect((await decide('/projects/p1', distrusting('/projects/p1'))).grounds.map(g => g.mode)).toEqual(['read'])
  })
})

describe('SAI §9.6 modes mapped to WAC modes', () => {
  test.each([
    [['Read'], '/projects/', 'read'],
    [['Write'], '/projects/p1', 'append write'],
    [['Append'], '/projects/p1', 'append'],
    [['Create'], '/projects/', 'append'],
    [['Create'], '/projects/p1', ''],
    [['Create'], '/projects/p2/', 'append'],
    [['Update'], '/projects/', ''],
    [['Update'], '/projects/p1', 'append write'],
    [['Delete'], '/projects/', ''],
    [['Delete'], '/projects/p1', 'append write'],
    [['Read', 'Create', 'Update', 'Delete'], '/projects/', 'append read'],
  ])('%p on %s → "%s" (never control)', async (m, path, expected) => {
    expect(await modes([grant({ accessMode: modesOf(...m) })], bob, path)).toBe(expected)
  })
})

describe('SAI §9.6 Delete on the registration, only while deleting a covered instance', () => {
  const decide = async (m: string[], deleting: string | undefined, scope = 'AllFromRegistry') => {
    const g = grant({
      accessMode: modesOf(...m),
      scopeOfGrant: INTEROP(scope),
      ...(scope === 'SelectedFromRegistry' ? { hasDataInstance: [`${POD}/projects/p1`] } : {}),
    })
    const out = await grantModes(indexGrants([{ iri: `${POD}/g`, data: g }]), bob, `${POD}/projects/`, links, undefined, deleting)
    return out.grounds
      .map(x => `${x.mode}${x.deleting ? `:${x.deleting.slice(POD.length)}` : ''}`)
      .sort()
      .join(' ')
  }
  test.each([
    [['Delete'], '/projects/p1', 'AllFromRegistry', 'write:/projects/p1'],
    [['Delete'], undefined, 'AllFromRegistry', ''],
    [['Update'], '/projects/p1', 'AllFromRegistry', ''],
    [['Delete'], '/projects/p1', 'SelectedFromRegistry', 'write:/projects/p1'],
    [['Delete'], '/projects/p2/', 'SelectedFromRegistry', ''],
    [['Delete'], '/projects/p1.acl', 'AllFromRegistry', ''],
    [['Delete'], '/projects/', 'AllFromRegistry', ''],
  ])('%p deleting %s (%s) → "%s"', async (m, deleting, scope, expected) =>
    expect(await decide(m, deleting === undefined ? undefined : POD + deleting, scope)).toBe(expected),
  )
})

describe('SAI §9.6 subject match', () => {
  const forApp = grant({ grantee: APP, grantedBy: BOB, accessMode: modesOf('Read', 'Write') })
  test.each([
    ['the grantee WebID', bob, grant(), 'read'],
    ['another agent', carol, grant(), ''],
    ['the grantee app acting for grantedBy', bobViaApp, forApp, 'append read write'],
    ['the grantee app acting for someone else', carolViaApp, forApp, ''],
    ['the grantedBy user without the app', bob, forApp, ''],
    ['anonymous', { keys: [], scheme: 'anonymous' } as Principal, grant(), ''],
    [
      'a key holder named as grantee',
      { keys: ['https://bob.example/keys/1#k'], scheme: 'HttpSig' } as Principal,
      grant({ grantee: 'https://bob.example/keys/1#k' }),
      'read',
    ],
  ] as [string, Principal, GrantData, string][])('%s', async (_, who, g, expected) => expect(await modes([g], who, '/projects/p1')).toBe(expected))

  test('with 1,000 grants for other agents, the requester sees only its own', async () => {
    const others = Array.from({ length: 1000 }, (_, i) => grant({ grantee: `https://agent${i}.example/#me`, accessMode: modesOf('Write') }))
    const stored = [...others, grant()].map((data, i) => ({ iri: `${POD}/g${i}`, data }))
    const index = indexGrants(stored)
    expect(index.byGrantee.get(BOB)!.length).toBe(1)
    expect((await grantModes(index, bob, `${POD}/projects/p1`, links)).grounds.map(g => g.mode)).toEqual(['read'])
  })
  test('owner grants are not special: the owner gets nothing from a grant to Bob', async () => {
    expect(await modes([grant()], { webid: OWNER as WebId, keys: [], scheme: 'DPoP' }, '/projects/p1')).toBe('')
  })
})
