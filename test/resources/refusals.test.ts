// The operations layer (src/resources/) refuses what the resource server would: move, trash, restore and
// delete-tree decide each item with the one decider (401 for the public, 403 for an agent without Write),
// keep the pod's essentials (409 protected_resource), and change nothing when they refuse.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS, type Principal } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { refusal } from './refusal.ts'
import { getMeta } from '../../src/store/resources.ts'
import { readTrash } from '../../src/store/trash.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = ownerSessionPrincipal(BASE)
const BOB = agent('https://bob.example/profile#me')
const CAROL = agent('https://carol.example/profile#me')
const rule = (name: string, who: string, modes: string) =>
  `<#${name}> a acl:Authorization; acl:agent <${who}>; acl:accessTo <./>; acl:default <./>; acl:mode ${modes}.\n`

let pod: AccessPod
let trashedId: string
beforeAll(async () => {
  pod = await openAccessPod()
  for (const p of ['/shared/doc', '/shared/sub/x', '/team/open', '/team/mid/locked', '/gone/doc']) await pod.seed(p, '')
  // Bob may read /shared/; Carol may write /team/, but not /team/mid/locked, whose own ACL names only the owner
  const owner = rule('owner', `${BASE}/profile/card#me`, 'acl:Read, acl:Write, acl:Control')
  await pod.seed('/shared/.acl', owner + rule('bob', BOB.webid!, 'acl:Read'))
  await pod.seed('/team/.acl', owner + rule('carol', CAROL.webid!, 'acl:Read, acl:Write'))
  await pod.seed('/team/mid/locked.acl', owner.replace('<./>; acl:default <./>', '<locked>'))
  trashedId = (await pod.deps.resources.trash({ principal: OWNER }, '/gone/doc')).item.id
})
afterAll(() => pod.close())

const exists = async (path: string) => (await getMeta(pod.store, path)) !== undefined
/** What the tests touch is all still there, and the trash holds only the owner's item. */
async function nothingChanged() {
  for (const p of [
    '/shared/doc',
    '/shared/sub/x',
    '/shared/.acl',
    '/team/open',
    '/team/mid/locked',
    '/team/mid/locked.acl',
    '/profile/card',
    '/keys/',
    '/.acl',
    '/settings/prefs.ttl',
  ]) {
    expect(await exists(p)).toBe(true)
  }
  for (const p of ['/shared/moved', '/team/moved/', '/gone/doc', '/profile/card2', '/settings/p.ttl']) expect(await exists(p)).toBe(false)
  expect((await readTrash(pod.store)).map(i => i.id)).toEqual([trashedId])
}

const ops = (who: Principal) => {
  const r = pod.deps.resources,
    as = { principal: who }
  return {
    move: (from: string, to: string) => r.move(as, from, to),
    trash: (path: string, count?: number) => r.trash(as, path, count),
    deleteTree: (path: string, count: number) => r.deleteTree(as, path, count),
    restore: (id: string) => r.restore(as, id),
  }
}

describe('an agent with Read only, and the public', () => {
  test.each([
    ['Bob (Read only)', BOB, 403, 'forbidden'],
    ['the public', ANONYMOUS, 401, 'unauthenticated'],
  ] as const)('%s: every operation refused as a PUT or DELETE would be, nothing changed', async (_name, who, status, code) => {
    const o = ops(who)
    expect(await refusal(() => o.move('/shared/doc', '/shared/moved'))).toEqual([status, code])
    expect(await refusal(() => o.trash('/shared/doc'))).toEqual([status, code])
    expect(await refusal(() => o.trash('/shared/sub/', 1))).toEqual([status, code])
    expect(await refusal(() => o.deleteTree('/shared/sub/', 1))).toEqual([status, code])
    expect(await refusal(() => o.restore(trashedId))).toEqual([status, code])
    await nothingChanged()
  })

  test('Write on a folder and its container is not enough where an item inside has its own ACL: each item is decided', async () => {
    const carol = ops(CAROL)
    expect(await refusal(() => carol.trash('/team/mid/', 1))).toEqual([403, 'forbidden'])
    expect(await refusal(() => carol.deleteTree('/team/mid/', 1))).toEqual([403, 'forbidden'])
    expect(await refusal(() => carol.move('/team/mid/', '/team/moved/'))).toEqual([403, 'forbidden'])
    await nothingChanged()
  })
})

describe("the pod's essentials, even for the owner", () => {
  test.each([
    ['move the WebID document', () => ops(OWNER).move('/profile/card', '/profile/card2'), 409, 'protected_resource'],
    ['move a settings document the profile links', () => ops(OWNER).move('/settings/prefs.ttl', '/settings/p.ttl'), 409, 'protected_resource'],
    ['move the folder holding the WebID document', () => ops(OWNER).move('/profile/', '/me/'), 409, 'protected_resource'],
    ['trash the WebID document', () => ops(OWNER).trash('/profile/card'), 409, 'protected_resource'],
    ['delete /keys/', () => ops(OWNER).deleteTree('/keys/', 0), 409, 'protected_resource'],
    ['trash the root ACL', () => ops(OWNER).trash('/.acl'), 400, 'invalid_path'],
    ['move the root ACL', () => ops(OWNER).move('/.acl', '/x.acl'), 400, 'invalid_path'],
    ['delete the root', () => ops(OWNER).deleteTree('/', 0), 405, 'root_protected'],
  ] as const)('%s: refused as the store refuses it, nothing changed', async (_name, run, status, code) => {
    expect(await refusal(run)).toEqual([status, code])
    await nothingChanged()
  })
})

describe('the owner', () => {
  test('moves, trashes, restores and deletes a tree', async () => {
    const o = ops(OWNER)
    expect(await o.move('/shared/doc', '/shared/moved')).toEqual([{ from: '/shared/doc', to: '/shared/moved' }])
    const { item } = await o.trash('/shared/moved')
    expect(await exists('/shared/moved')).toBe(false)
    await o.restore(item.id)
    expect(await exists('/shared/moved')).toBe(true)
    expect(await o.deleteTree('/team/', 3)).toContain('/team/mid/locked')
    expect(await exists('/team/')).toBe(false)
  })
})
