// The layer's reads for the pages (src/resources/): a page of a container's members with their count, a folder's
// count at any depth, the trash's listing. Each is decided like any read of the resource server: Read first (401
// for the public, 403 for an agent without it), a 404 only to a reader, a 400 for a path that is no container.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { refusal } from './refusal.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const BOB = { principal: agent('https://bob.example/profile#me') }
const CAROL = { principal: agent('https://carol.example/profile#me') }
const PUBLIC = { principal: ANONYMOUS }
const rule = (name: string, who: string, modes: string, on = '<./>; acl:default <./>') =>
  `<#${name}> a acl:Authorization; acl:agent <${who}>; acl:accessTo ${on}; acl:mode ${modes}.\n`
const FIRST = { cursor: { from: 'first' }, limit: 2, countUpTo: 10 } as const

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  for (const p of ['/shared/a', '/shared/b', '/shared/c', '/team/open', '/team/mid/x', '/team/mid/y', '/team/private/z', '/gone/doc']) await pod.seed(p, '')
  // Bob may read /shared/; Carol may read /team/ but not /team/private/, whose own ACL names only the owner
  const owner = rule('owner', `${BASE}/profile/card#me`, 'acl:Read, acl:Write, acl:Control')
  await pod.seed('/shared/.acl', owner + rule('bob', BOB.principal.webid!, 'acl:Read'))
  await pod.seed('/team/.acl', owner + rule('carol', CAROL.principal.webid!, 'acl:Read'))
  await pod.seed('/team/private/.acl', owner)
  await pod.deps.resources.trash(OWNER, '/gone/doc')
})
afterAll(() => pod.close())

describe('list: a page of a container, after Read on it', () => {
  test('the owner and a reader get the page, whether more lie either side, and the count (an ACL document is no member)', async () => {
    for (const who of [OWNER, BOB]) {
      const page = await pod.deps.resources.list(who, '/shared/', FIRST)
      expect(page.items.map(i => i.path)).toEqual(['/shared/a', '/shared/b'])
      expect({ prev: page.hasPrev, next: page.hasNext, count: page.count, exact: page.countIsExact }).toEqual({
        prev: false,
        next: true,
        count: 3,
        exact: true,
      })
    }
    const rest = await pod.deps.resources.list(BOB, '/shared/', { ...FIRST, cursor: { after: '/shared/b' } })
    expect(rest.items.map(i => i.path)).toEqual(['/shared/c'])
    expect(rest.hasPrev).toBe(true)
  })

  test('the count stops at countUpTo and says it is not exact', async () => {
    const page = await pod.deps.resources.list(OWNER, '/shared/', { ...FIRST, countUpTo: 2 })
    expect({ count: page.count, exact: page.countIsExact }).toEqual({ count: 2, exact: false })
  })

  test('an agent without Read → 403 forbidden, the public → 401 unauthenticated, whether the container exists or not', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.list(CAROL, '/shared/', FIRST))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.list(PUBLIC, '/shared/', FIRST))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.list(PUBLIC, '/missing/', FIRST))).toEqual([401, 'unauthenticated'])
  })

  test('a missing container → 404 not_found to a reader; a path that is not a container → 400 not_a_container', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.list(OWNER, '/missing/', FIRST))).toEqual([404, 'not_found'])
    expect(await refusal(() => r.list(OWNER, '/shared/a', FIRST))).toEqual([400, 'not_a_container'])
  })
})

describe('treeCount: the items of a folder at any depth, after Read on every folder in it', () => {
  test('counts members at any depth, not the ACL documents', async () => {
    expect(await pod.deps.resources.treeCount(OWNER, '/team/')).toBe(6) // open, mid/, x, y, private/, z: not the two ACL documents
    expect(await pod.deps.resources.treeCount(CAROL, '/team/mid/')).toBe(2)
  })

  test('a folder inside that the agent may not read refuses the count: 403 forbidden', async () => {
    expect(await refusal(() => pod.deps.resources.treeCount(CAROL, '/team/'))).toEqual([403, 'forbidden'])
  })

  test('the public → 401 unauthenticated; a missing folder → 404 not_found to a reader; a document → 400 not_a_container', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.treeCount(PUBLIC, '/team/mid/'))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.treeCount(PUBLIC, '/missing/'))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.treeCount(OWNER, '/missing/'))).toEqual([404, 'not_found'])
    expect(await refusal(() => r.treeCount(OWNER, '/team/open'))).toEqual([400, 'not_a_container'])
  })
})

describe("trashed: the trash's listing, for whoever controls the pod's root", () => {
  test('the owner sees what was trashed', async () => {
    expect((await pod.deps.resources.trashed(OWNER)).map(i => i.path)).toEqual(['/gone/doc'])
  })

  test('an agent who may read or write folders but not control the root → 403 forbidden; the public → 401 unauthenticated', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.trashed(BOB))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.trashed(CAROL))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.trashed(PUBLIC))).toEqual([401, 'unauthenticated'])
  })
})
