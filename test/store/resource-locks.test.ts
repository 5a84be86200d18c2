// Issue 9: locks per resource and parent container instead of one global write lock.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { deleteLocks, makeResourceLocks, writeLocks, type LockSet } from '../../src/store/resource-locks.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:4700'
const dirs: string[] = []
const stores: Store[] = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function storeWith(paths: string[]): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-locks-'))
  dirs.push(dir)
  const store = await openStore(dir)
  stores.push(store)
  for (const p of paths) await writeTurtle(store, BASE, p, '')
  return store
}

/** Runs two locked sections that each wait 30 ms; true when they overlapped. */
async function overlap(a: () => Promise<LockSet>, b: () => Promise<LockSet>): Promise<boolean> {
  const withLocks = makeResourceLocks()
  let inside = 0
  let both = false
  const section = async () => {
    inside++
    if (inside === 2) both = true
    await Bun.sleep(30)
    inside--
  }
  await Promise.all([withLocks(a, section), withLocks(b, section)])
  return both
}

describe('resource locks', () => {
  test('overwrites of two documents in one container run side by side', async () => {
    const store = await storeWith(['/d/', '/d/a', '/d/b'])
    expect(
      await overlap(
        () => writeLocks(store, '/d/a'),
        () => writeLocks(store, '/d/b'),
      ),
    ).toBe(true)
  })

  test('two writes of one document queue', async () => {
    const store = await storeWith(['/d/', '/d/a'])
    expect(
      await overlap(
        () => writeLocks(store, '/d/a'),
        () => writeLocks(store, '/d/a'),
      ),
    ).toBe(false)
  })

  test('a document and the container of the same name share one lock (Solid Protocol §3.1)', async () => {
    const store = await storeWith(['/d/'])
    expect(
      await overlap(
        () => writeLocks(store, '/d/x'),
        () => writeLocks(store, '/d/x/'),
      ),
    ).toBe(false)
  })

  test('creating and deleting members of one container run side by side (each has its own listing entry)', async () => {
    const store = await storeWith(['/d/', '/d/a', '/d/b'])
    expect(
      await overlap(
        () => writeLocks(store, '/d/new'),
        () => writeLocks(store, '/d/a'),
      ),
    ).toBe(true)
    expect(
      await overlap(
        () => writeLocks(store, '/d/new'),
        () => writeLocks(store, '/d/other'),
      ),
    ).toBe(true)
    expect(
      await overlap(
        () => writeLocks(store, '/d/new'),
        () => deleteLocks(store, '/d/b'),
      ),
    ).toBe(true)
  })

  test('a write to a container itself waits for writes of its members', async () => {
    const store = await storeWith(['/d/', '/d/a'])
    expect(
      await overlap(
        () => writeLocks(store, '/d/'),
        () => writeLocks(store, '/d/new'),
      ),
    ).toBe(false)
  })

  test('deleting a container waits for writes below it', async () => {
    const store = await storeWith(['/d/', '/d/e/', '/d/e/a'])
    expect(
      await overlap(
        () => deleteLocks(store, '/d/e/'),
        () => writeLocks(store, '/d/e/a'),
      ),
    ).toBe(false)
  })

  test('a write that creates containers holds the whole tree', async () => {
    const store = await storeWith(['/d/', '/d/a'])
    expect(
      await overlap(
        () => writeLocks(store, '/x/y/z'),
        () => writeLocks(store, '/d/a'),
      ),
    ).toBe(false)
  })

  test('a plan that changes once the locks are held is taken again before the section runs', async () => {
    const withLocks = makeResourceLocks()
    const held: string[] = []
    let name = '/d/a'
    const plans: string[] = []
    const plan = async () => {
      plans.push(name)
      const set = { exclusive: [name], shared: [] }
      name = '/d/b'
      return set
    }
    // Someone holds /d/b: the section must wait for it after the re-plan.
    let releaseB!: () => void
    const holder = withLocks(
      async () => ({ exclusive: ['/d/b'], shared: [] }),
      () =>
        new Promise<void>(r => {
          releaseB = r
        }),
    )
    await Bun.sleep(0)
    const section = withLocks(plan, async () => {
      held.push('ran')
    })
    await Bun.sleep(20)
    expect(held).toEqual([])
    releaseB()
    await Promise.all([holder, section])
    expect(held).toEqual(['ran'])
    expect(plans[0]).toBe('/d/a')
  })
})
