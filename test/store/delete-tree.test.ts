// A folder deleted with everything in it: deepest first, in bounded synced batches, none leaving an orphan.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { getMeta, readChildren, readTriples, writeResource } from '../../src/store/resources.ts'
import { deleteTree } from '../../src/store/delete-tree.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'
import { HttpError } from '../../src/http/errors.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { binaryContent } from './binary-content.ts'

const BASE = 'http://localhost:3995'
let dir: string
let store: Store
let now = 1_000_000

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-delete-tree-'))
  store = await openStore(dir)
  await writeTurtle(store, BASE, '/', '')
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const members = async (path: string) => (await readChildren(store, path)).map(c => c.path)

async function seedTree(top: string) {
  await writeTurtle(store, BASE, `${top}a/b/c.ttl`, '<> <http://purl.org/dc/terms/title> "c".')
  await writeTurtle(store, BASE, `${top}a/.acl`, '<#r> <http://www.w3.org/ns/auth/acl#mode> <http://www.w3.org/ns/auth/acl#Read>.')
  await writeTurtle(store, BASE, `${top}one.ttl`, '')
  await writeResource(store, BASE, `${top}photo.jpg`, await binaryContent(store, 'image/jpeg', 'bytes'), ++now)
}

describe('delete a folder with everything in it', () => {
  test('every item, ACL, graph, blob reference and membership entry goes; its folder lists it no more; notifications say so', async () => {
    await seedTree('/t/')
    const { blob } = (await getMeta(store, '/t/photo.jpg'))!
    const heard: ResourceChange[] = []
    const stop = store.changes.listen(c => heard.push(...c))
    const deleted = await deleteTree(store, BASE, '/t/', ++now, { expectedCount: 5 })
    stop()
    expect(deleted).toHaveLength(7) // five members, the folder, one ACL
    for (const p of deleted) expect(await getMeta(store, p)).toBeUndefined()
    expect(await readTriples(store, BASE, '/t/a/b/c.ttl')).toHaveLength(0)
    expect(await store.blobRefs.get(blob!)).toBeUndefined()
    expect(await members('/')).not.toContain('/t/')
    for await (const key of store.contains.keys({ gte: '/t/', lt: '/t/\uffff' })) throw new Error(`left behind: ${key}`)
    const said = heard.map(c => `${c.type} ${c.topic} ${c.object}`)
    expect(said).toContain('Delete /t/a/b/c.ttl /t/a/b/c.ttl')
    expect(said).toContain('Remove / /t/')
  })

  test('bounded batches, deepest first: a failure midway leaves a smaller folder and no orphan', async () => {
    await seedTree('/u/')
    const s = store as { commit: Store['commit'] }
    const commit = store.commit
    let batches = 0
    s.commit = ops => (++batches === 2 ? Promise.reject(new Error('disk gone')) : commit(ops))
    try {
      await expect(deleteTree(store, BASE, '/u/', ++now, { batchSize: 2 })).rejects.toThrow('disk gone')
    } finally {
      s.commit = commit
    }
    expect(await getMeta(store, '/u/')).toBeDefined()
    // Everything still stored sits in a folder that is still stored and lists it.
    for (const p of ['/u/a/', '/u/a/b/', '/u/a/b/c.ttl', '/u/one.ttl', '/u/photo.jpg']) {
      if (!(await getMeta(store, p))) continue
      const parent = p.slice(0, p.replace(/\/$/, '').lastIndexOf('/') + 1)
      expect(await getMeta(store, parent)).toBeDefined()
      expect(await members(parent)).toContain(p)
    }
    expect(await getMeta(store, '/u/photo.jpg')).toBeUndefined() // the first batch did land
  })

  test.each([
    ['/', {}, 405, 'root_protected'],
    ['/nope/', {}, 404, 'not_found'],
    ['/u/', { expectedCount: 99 }, 409, 'confirmation_required'],
    ['/u/', { protectedReason: (p: string) => (p === '/u/a/b/c.ttl' ? 'essential' : undefined) }, 409, 'protected_resource'],
  ] as const)('%s %j → %i %s, nothing deleted', async (path, opts, status, code) => {
    const err = await deleteTree(store, BASE, path, ++now, opts).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(HttpError)
    expect([(err as HttpError).status, (err as HttpError).code]).toEqual([status, code])
    expect(await getMeta(store, '/u/a/b/c.ttl')).toBeDefined()
  })
})
