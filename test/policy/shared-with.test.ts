// What the owner shared with one person: the starting points their visitor pages list, and the people
// the owner's dashboard names. Each is decided as a request would be, so nothing else is hinted at.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, openAccessPod, type AccessPod } from './access-fixture.ts'
import { sharedPeople, sharedWith } from '../../src/policy/shared-with.ts'
import { indexGrants } from '../../src/policy/grants.ts'
import { grant } from './grant-fixture.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { WebId } from '../../src/account/ids.ts'
import { seedTurtle } from '../rs/pod-fixture.ts'

const OWNER = `${BASE}/profile/card#me`
const BOB = 'https://bob.example/profile/card#me'
const CAROL = 'https://carol.example/profile/card#me'
const as = (webid: string): Principal => ({ webid: webid as WebId, keys: [], scheme: 'visitor' })
const owner = `<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  for (const path of ['/trip/a.txt', '/trip/inner/b.txt', '/notes/one.txt', '/notes/two.txt', '/private/x.txt', '/public/p.txt', '/carol/c.txt'])
    await seedTurtle(pod.store, BASE, path, '<#a> <http://example.org/p> "1".')
  await pod.seed('/trip/.acl', `${owner}\n<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Append.`)
  await pod.seed('/trip/inner/.acl', `${owner}\n<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`)
  await pod.seed(
    '/notes/one.txt.acl',
    `<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <one.txt>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <one.txt>; acl:mode acl:Read.`,
  )
  // a rule naming Bob for something that does not exist, and one only to append: neither is listed
  await pod.seed(
    '/notes/two.txt.acl',
    `<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <two.txt>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <gone.txt>, <two.txt>; acl:mode acl:Append.`,
  )
  await pod.seed('/public/.acl', `${owner}\n<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`)
})
afterAll(() => pod?.close())

const deps = () => ({ store: pod.store, baseUrl: BASE, decider: pod.deps.decider })
const paths = (items: { path: string }[]) => items.map(i => i.path)

describe('sharedWith', () => {
  test('Bob: the folder and the document shared with him, a folder inside a listed folder not again, nothing else', async () => {
    const items = await sharedWith(deps(), as(BOB))
    expect(paths(items)).toEqual(['/notes/one.txt', '/trip/'])
    expect([...items.find(i => i.path === '/trip/')!.modes].sort()).toEqual(['append', 'read'])
  })
  test('someone no rule names: nothing (public items only when asked for)', async () => {
    expect(await sharedWith(deps(), as(CAROL))).toEqual([])
    const open = paths(await sharedWith(deps(), as(CAROL), { includePublic: true }))
    expect(open).toContain('/public/')
    expect(open.some(p => p.startsWith('/private/') || p.startsWith('/trip/'))).toBe(false)
  })
  test('an access grant names its grantee: its registration is listed when the decision allows it', async () => {
    const index = indexGrants([
      {
        iri: `${BASE}/.admin/grants/g1`,
        data: grant({ grantee: CAROL, grantedBy: OWNER, dataOwner: OWNER, hasDataRegistration: `${BASE}/carol/`, hasStorage: `${BASE}/` }),
      },
    ])
    const decider = {
      decide: async (p: Pick<Principal, 'webid' | 'keys'>, url: string, origin: string | undefined) => {
        const d = await pod.deps.decider.decide(p, url, origin)
        return p.webid === CAROL && url.startsWith(`${BASE}/carol/`) ? { ...d, modes: new Set(['read' as const]) } : d
      },
    }
    expect(paths(await sharedWith({ ...deps(), decider, grants: { index: async () => index } }, as(CAROL)))).toEqual(['/carol/'])
  })
})

describe('sharedPeople', () => {
  test('every person the rules name but the owner, with what they may reach', async () => {
    const people = await sharedPeople(deps(), OWNER)
    expect(people.map(p => [p.webid as string, paths(p.items)])).toEqual([[BOB, ['/notes/one.txt', '/trip/']]])
  })
})
