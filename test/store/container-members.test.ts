// The membership index: a member's write costs the same whatever its container holds; chunks and pages read it in order.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { deleteResource, writeResource } from '../../src/store/resources.ts'
import { countMembers, readMemberChunks, readMemberPage } from '../../src/store/container-members.ts'
import type { WriteOp } from '../../src/store/group-commit.ts'
import { memberName, seedMembers, writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:3998'
const LARGE = 20_000
let dir: string
let store: Store

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-members-'))
  store = await openStore(dir)
  await writeTurtle(store, BASE, '/small/', '')
  await writeTurtle(store, BASE, '/large/', '')
  await seedMembers(store, BASE, '/small/', 10, Date.now())
  await seedMembers(store, BASE, '/large/', LARGE, Date.now())
}, 60_000)
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** What one write did: its batch (sublevel and type of each operation) and every range read it started. */
async function traceWrite(write: () => Promise<unknown>): Promise<{ ops: string[]; rangeReads: number; batchReads: number }> {
  const { commit } = store
  const seen: WriteOp[] = []
  const keys = store.contains.keys
  const iterator = store.contains.iterator
  const getMany = store.meta.getMany
  let rangeReads = 0
  let batchReads = 0
  const s = store as { commit: Store['commit'] }
  s.commit = ops => {
    seen.push(...ops)
    return commit(ops)
  }
  store.contains.keys = (...args) => {
    rangeReads++
    return keys.apply(store.contains, args)
  }
  store.contains.iterator = (...args) => {
    rangeReads++
    return iterator.apply(store.contains, args)
  }
  store.meta.getMany = (...args) => {
    batchReads++
    return getMany.apply(store.meta, args)
  }
  try {
    await write()
  } finally {
    s.commit = commit
    store.contains.keys = keys
    store.contains.iterator = iterator
    store.meta.getMany = getMany
  }
  const name = (op: WriteOp) => (op as { sublevel?: { prefix?: string } }).sublevel?.prefix ?? 'quads'
  return { ops: seen.map(op => `${op.type} ${name(op)}`).sort(), rangeReads, batchReads }
}

describe('a member write costs the same at 10 members and at 20,000 (no scan of the container)', () => {
  test('adding one member: the same batch, and no read of the membership index', async () => {
    const small = await traceWrite(() => writeTurtle(store, BASE, '/small/new.ttl', '<#a> <#b> <#c>.'))
    const large = await traceWrite(() => writeTurtle(store, BASE, '/large/new.ttl', '<#a> <#b> <#c>.'))
    expect(large).toEqual(small)
    expect(small.rangeReads).toBe(0)
    expect(small.ops).toContain('put !contains!')
  })

  test('removing one member: the same batch, and no read of the membership index', async () => {
    const small = await traceWrite(() => deleteResource(store, BASE, '/small/new.ttl', Date.now()))
    const large = await traceWrite(() => deleteResource(store, BASE, '/large/new.ttl', Date.now()))
    expect(large).toEqual(small)
    expect(small.rangeReads).toBe(0)
    expect(small.ops).toContain('del !contains!')
  })
})

describe('reading members', () => {
  test('chunks hold every member once, in path order, a getMany per chunk', async () => {
    const seen: string[] = []
    const trace = await traceWrite(async () => {
      for await (const chunk of readMemberChunks(store, '/large/', 1000)) seen.push(...chunk.map(m => m.path))
    })
    expect(seen).toEqual(Array.from({ length: LARGE }, (_, i) => `/large/${memberName(i)}`))
    expect(trace.batchReads).toBe(LARGE / 1000)
  })

  test('a page after a member that is gone starts at the next one', async () => {
    const page = await readMemberPage(store, '/large/', { after: '/large/m000010.ttlx' }, 2)
    expect(page.items.map(m => m.path)).toEqual(['/large/m000011.ttl', '/large/m000012.ttl'])
    expect({ prev: page.hasPrev, next: page.hasNext }).toEqual({ prev: true, next: true })
  })

  test('the last page reads backwards from the end', async () => {
    const page = await readMemberPage(store, '/small/', { from: 'last' }, 3)
    expect(page.items.map(m => m.path)).toEqual(['/small/m000007.ttl', '/small/m000008.ttl', '/small/m000009.ttl'])
    expect({ prev: page.hasPrev, next: page.hasNext }).toEqual({ prev: true, next: false })
  })

  test('a count stops at its bound', async () => {
    expect(await countMembers(store, '/small/', 100)).toEqual({ count: 10, exact: true })
    expect(await countMembers(store, '/large/', 100)).toEqual({ count: 100, exact: false })
  })

  test('a reader may stop after its first chunk (the generator closes its iterator and snapshot on return)', async () => {
    for await (const chunk of readMemberChunks(store, '/large/', 100)) {
      expect(chunk.length).toBe(100)
      break
    }
  })
})
