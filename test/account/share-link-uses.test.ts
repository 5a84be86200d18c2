// A share link's uses are counted in memory and written together (issue 38): a burst of uses is one write, a
// listing adds what is still pending, the timer writes within its delay, and a link removed meanwhile takes no
// count (nor comes back).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTestPod, type TestPod } from '../op/op-fixture.ts'
import { addShareLink, listShareLinks, removeShareLink, shareLinkKey } from '../../src/account/share-links.ts'
import { makeLinkUses } from '../../src/account/share-link-uses.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod()
})
afterAll(() => pod.close())

const stored = async (id: string) => (await listShareLinks(pod.deps.store, Date.now())).find(l => l.id === id)?.uses

describe('share link uses', () => {
  test('100 uses: nothing written until the flush, then one write with all of them', async () => {
    const { link, token } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read' }, Date.now())
    const uses = makeLinkUses(pod.deps.store, Date.now, { flushMs: 60_000 })
    const puts: unknown[] = []
    const put = pod.deps.store.records.put.bind(pod.deps.store.records)
    const batch = pod.deps.store.records.batch.bind(pod.deps.store.records)
    const records = pod.deps.store.records as unknown as Record<string, unknown>
    records.put = (...args: unknown[]) => (puts.push(args), (put as (...a: unknown[]) => unknown)(...args))
    records.batch = (...args: unknown[]) => (puts.push('batch'), (batch as (...a: unknown[]) => unknown)(...args))
    try {
      for (let i = 0; i < 100; i++) uses.count(token)
      expect(puts).toEqual([])
      expect(await stored(link.id)).toBe(0)
      expect(uses.pending(shareLinkKey(token))).toBe(100)
      expect((await listShareLinks(pod.deps.store, Date.now(), uses.pending)).find(l => l.id === link.id)?.uses).toBe(100)
      await uses.flush()
      expect(puts).toEqual(['batch'])
    } finally {
      records.put = put
      records.batch = batch
    }
    expect(await stored(link.id)).toBe(100)
    expect(uses.pending(shareLinkKey(token))).toBe(0)
    await uses.close()
  })

  test('the timer writes the counts within its delay', async () => {
    const { link, token } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read' }, Date.now())
    const uses = makeLinkUses(pod.deps.store, Date.now, { flushMs: 50 })
    uses.count(token)
    uses.count(token)
    await Bun.sleep(300)
    expect(await stored(link.id)).toBe(2)
    await uses.close()
  })

  test('a link removed before the write takes no count and stays removed; an unknown token writes nothing', async () => {
    const { link, token } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read' }, Date.now())
    const uses = makeLinkUses(pod.deps.store, Date.now, { flushMs: 60_000 })
    uses.count(token)
    uses.count('A'.repeat(43))
    expect(await removeShareLink(pod.deps.store, link.id, Date.now())).toBe(true)
    const before = (await listShareLinks(pod.deps.store, Date.now())).length
    await uses.close()
    expect(await stored(link.id)).toBeUndefined()
    expect((await listShareLinks(pod.deps.store, Date.now())).length).toBe(before)
  })
})
