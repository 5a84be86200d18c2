// The layer's history (resources/version-activity.ts): the changes kept across the pod, newest first and a page at a
// time, one resource's, a folder restored as it was — for whoever controls the pod's root, as the trash's listing.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { NO_PRECONDITIONS } from '../../src/resources/preconditions.ts'
import { refusal } from './refusal.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const BOB = { principal: agent('https://bob.example/profile#me') }
const PUBLIC = { principal: ANONYMOUS }
const put = (who: typeof OWNER, path: string, text: string) => pod.deps.resources.put(who, path, 'text/plain', new TextEncoder().encode(text))

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  // Bob may read and write /shared/, not control the root
  await pod.seed(
    '/shared/.acl',
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write.`,
  )
  for (const [i, text] of ['one', 'two', 'three'].entries()) {
    pod.clock.t += 1000
    await put(i === 0 ? OWNER : BOB, '/shared/n.txt', text)
  }
  pod.clock.t += 1000
  await pod.deps.resources.delete(BOB, '/shared/n.txt', NO_PRECONDITIONS)
})
afterAll(() => pod.close())

describe('changes: the pod-wide history', () => {
  test('newest first, who made each, a page at a time; deletions alone', async () => {
    const r = pod.deps.resources
    const all = await r.changes(OWNER, { limit: 2, folder: '/shared/' })
    expect(all.changes.map(c => c.end)).toEqual(['delete', 'update'])
    expect(all.changes[0]!.by?.agent).toBe(BOB.principal.webid)
    const rest = await r.changes(OWNER, { limit: 2, folder: '/shared/', after: all.next! })
    // The first write created the file: who created it is kept from that moment, as a change of its own.
    expect(rest.changes.map(c => c.end)).toEqual(['update', 'create'])
    expect(rest.changes[1]).toMatchObject({ path: '/shared/n.txt', by: { agent: OWNER.principal.webid, via: 'session' }, meta: { size: 3 } })
    expect(rest.changes[1]!.from).toBe(rest.changes[1]!.until)
    // Older still: the seeded folder and its ACL were created, by the pod itself (no author)
    const seeded = await r.changes(OWNER, { limit: 10, folder: '/shared/', after: rest.next! })
    expect(seeded.changes.map(c => [c.end, c.path, c.by])).toEqual([
      ['create', '/shared/.acl', undefined],
      ['create', '/shared/', undefined],
    ])
    expect(seeded.next).toBeUndefined()
    expect((await r.changes(OWNER, { limit: 10, ends: ['delete', 'trash'] })).changes.map(c => c.path)).toEqual(['/shared/n.txt'])
  })

  test('an agent who may write a folder but not control the root → 403 forbidden; the public → 401 unauthenticated', async () => {
    const r = pod.deps.resources
    for (const call of [() => r.changes(BOB, { limit: 1 }), () => r.history(BOB, '/shared/n.txt'), () => r.restoreFolder(BOB, '/shared/', Date.now())]) {
      expect(await refusal(call)).toEqual([403, 'forbidden'])
    }
    expect(await refusal(() => r.changes(PUBLIC, { limit: 1 }))).toEqual([401, 'unauthenticated'])
  })
})

describe('history and restoreFolder', () => {
  test('a deleted file keeps its history; the folder as it was after the second write gets it back', async () => {
    const r = pod.deps.resources
    const { current, versions } = await r.history(OWNER, '/shared/n.txt')
    expect(current).toBeUndefined()
    expect(versions.map(v => v.end)).toEqual(['delete', 'update', 'update'])
    const second = versions[1]!.from
    expect(await r.restoreFolder(OWNER, '/shared/', second)).toEqual({ restored: ['/shared/n.txt'], unchanged: [], absentThen: [], removed: [], kept: [] })
    const readable = await r.read(OWNER, '/shared/n.txt')
    expect(readable.meta.size).toBe(3)
    expect(await refusal(() => r.history(OWNER, '/nothing'))).toEqual([404, 'memento_not_found'])
  })
})

describe('a restore from the trash is a creation', () => {
  test('it is recorded as created when it came back, by who restored it; the folder restored to a time it was in the trash removes it again', async () => {
    const r = pod.deps.resources
    pod.clock.t += 1000
    await put(OWNER, '/tr/x.txt', 'kept')
    pod.clock.t += 1000
    const { item } = await r.trash(OWNER, '/tr/x.txt')
    pod.clock.t += 1000
    const inTrash = pod.clock.t
    pod.clock.t += 1000
    await r.restore(OWNER, item.id)
    const [latest] = (await r.changes(OWNER, { limit: 1, folder: '/tr/' })).changes
    expect(latest).toMatchObject({ path: '/tr/x.txt', end: 'create', until: pod.clock.t, by: { agent: OWNER.principal.webid, via: 'session' } })
    pod.clock.t += 1000
    expect(await r.restoreFolder(OWNER, '/tr/', inTrash)).toEqual({ restored: [], unchanged: [], absentThen: [], removed: ['/tr/x.txt'], kept: [] })
    expect(await refusal(() => r.read(OWNER, '/tr/x.txt'))).toEqual([404, 'not_found'])
  })
})

describe('changes: a page reads only its page (the time index)', () => {
  test('300 changes over 7 files page newest first in time order; a page of 50 reads 51 index keys and 50 records', async () => {
    const r = pod.deps.resources
    for (let i = 0; i < 307; i++) {
      pod.clock.t += 1000
      // The paths' order is not the times': a page must come from the index, not from the version keys.
      await put(OWNER, `/many/${'gfedcba'[i % 7]}.txt`, `state ${i}`)
    }
    const store = pod.store
    let indexKeys = 0
    let records = 0
    const keys = store.versionTimes.keys.bind(store.versionTimes)
    const getMany = store.versions.getMany.bind(store.versions)
    const spied = store as { versionTimes: { keys: typeof keys }; versions: { getMany: typeof getMany } }
    spied.versionTimes.keys = options => {
      const it = keys(options)
      const nextv = it.nextv.bind(it)
      it.nextv = async size => {
        const got = await nextv(size)
        indexKeys += got.length
        return got
      }
      return it
    }
    spied.versions.getMany = (ks, options) => {
      records += ks.length
      return getMany(ks, options)
    }
    const seen: { path: string; until: number; end: string }[] = []
    try {
      let page = await r.changes(OWNER, { limit: 50 })
      expect([indexKeys, records]).toEqual([51, 50])
      seen.push(...page.changes)
      while (page.next !== undefined) {
        page = await r.changes(OWNER, { limit: 50, after: page.next })
        seen.push(...page.changes)
      }
    } finally {
      spied.versionTimes.keys = keys
      spied.versions.getMany = getMany
    }
    // Every version and every creation, newest first by the change's time.
    const all: { path: string; until: number }[] = []
    for await (const key of store.versions.keys()) {
      const [path, , until] = key.split('\0')
      all.push({ path: path!, until: Number(until) })
    }
    expect(all.length).toBeGreaterThan(300)
    const creations = seen.filter(c => c.end === 'create')
    expect(creations.filter(c => c.path.startsWith('/many/')).map(c => c.path)).toEqual([
      '/many/a.txt',
      '/many/b.txt',
      '/many/c.txt',
      '/many/d.txt',
      '/many/e.txt',
      '/many/f.txt',
      '/many/g.txt',
      '/many/',
    ])
    expect(seen.length).toBe(all.length + creations.length)
    expect(seen.map(c => c.until)).toEqual(seen.map(c => c.until).sort((a, b) => b - a))
    const versionsSeen = seen.filter(c => c.end !== 'create')
    all.sort((a, b) => b.until - a.until || (a.path < b.path ? 1 : -1))
    expect(versionsSeen.map(c => [c.path, c.until])).toEqual(all.map(c => [c.path, c.until]))
    expect(seen.slice(0, 3).map(c => c.path)).toEqual(['/many/b.txt', '/many/c.txt', '/many/d.txt'])
  })
})

describe('Read of the root is not Control of it: versions go with Read of the URI, the activity with Control', () => {
  const CAROL = { principal: agent('https://carol.example/profile#me') }
  let first: number
  beforeAll(async () => {
    // Carol may read everything the root's ACL governs (not /shared/, which has its own), and control nothing.
    await pod.seed(
      '/.acl',
      `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#carol> a acl:Authorization; acl:agent <${CAROL.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    )
    pod.clock.t += 1000
    await put(OWNER, '/open.txt', 'first')
    first = (await pod.deps.resources.history(OWNER, '/open.txt')).current!.modified
    pod.clock.t += 1000
    await put(OWNER, '/open.txt', 'second')
  })

  test("Carol (Read of the root) reads /open.txt's TimeMap, a memento and the TimeGate; the activity, a history and a folder restore → 403 forbidden", async () => {
    const r = pod.deps.resources
    expect((await Array.fromAsync((await r.timeMap(CAROL, '/open.txt')).mementos)).map(m => m.from)).toEqual([first, pod.clock.t])
    expect((await r.readMemento(CAROL, '/open.txt', first)).meta.size).toBe(5)
    expect((await r.mementoAt(CAROL, '/open.txt', first)).from).toBe(first)
    expect(await refusal(() => r.changes(CAROL, { limit: 1 }))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.history(CAROL, '/open.txt'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.restoreFolder(CAROL, '/', first))).toEqual([403, 'forbidden'])
    // The owner, with Control, sees both.
    expect((await r.history(OWNER, '/open.txt')).versions.length).toBe(1)
  })

  test("who may read a URI now reads its versions, deleted or not: Bob /shared/n.txt's (deleted); Carol not there → 403, Bob not at /open.txt → 403, the public → 401", async () => {
    const r = pod.deps.resources
    expect((await Array.fromAsync((await r.timeMap(BOB, '/shared/n.txt')).mementos)).length).toBeGreaterThan(0)
    expect(await refusal(() => r.timeMap(CAROL, '/shared/n.txt'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.readMemento(CAROL, '/shared/n.txt', first))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.timeMap(BOB, '/open.txt'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.readMemento(BOB, '/open.txt', first))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.timeMap(PUBLIC, '/open.txt'))).toEqual([401, 'unauthenticated'])
  })
})
