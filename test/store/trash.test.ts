// The trash: a delete that keeps what it deleted 30 days, restorable in one batch; the sweep drops older items and their files.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { getMeta, readChildren, readTriples, writeResource } from '../../src/store/resources.ts'
import { sweepTrashRegularly } from '../../src/store/trash-sweep.ts'
import { purgeTrash, readTrash, restoreFromTrash, trashBlobRef, trashResource, TRASH_KEEP_MS, TRASH_MAX_ITEMS } from '../../src/store/trash.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'
import { HttpError } from '../../src/http/errors.ts'
import { seedMembers, writeTurtle } from '../e2e/seed-store.ts'
import { binaryContent, storedBytes } from './binary-content.ts'

const BASE = 'http://localhost:3993'
let dir: string
let store: Store
let now = 1_000_000

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-trash-'))
  store = await openStore(dir)
  await writeTurtle(store, BASE, '/', '')
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const members = async (path: string) => (await readChildren(store, path)).map(c => c.path)
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal')
    },
    (e: unknown) => e as HttpError,
  )

describe('delete into the trash, restore', () => {
  test('a folder with a file, a document and an ACL leaves the pod, is listed, and comes back as it was', async () => {
    await writeTurtle(store, BASE, '/f/doc.ttl', '<#it> <http://purl.org/dc/terms/title> "Doc"@en; <http://example.org/n> 3.')
    await writeTurtle(store, BASE, '/f/.acl', '<#r> <http://www.w3.org/ns/auth/acl#accessTo> <./>.')
    await writeResource(store, BASE, '/f/sub/photo.jpg', await binaryContent(store, 'image/jpeg', 'JPEG'), ++now)
    const { blob, etag } = (await getMeta(store, '/f/sub/photo.jpg'))!
    const triplesBefore = (await readTriples(store, BASE, '/f/doc.ttl')).map(q => `${q.subject.value} ${q.object.value}`).sort()
    const heard: ResourceChange[] = []
    const stop = store.changes.listen(c => heard.push(...c))
    const { item } = await trashResource(store, BASE, '/f/', ++now, { expectedCount: 3 })
    expect(item).toMatchObject({ path: '/f/', kind: 'container', count: 3, deletedAt: now })
    for (const p of ['/f/', '/f/doc.ttl', '/f/.acl', '/f/sub/photo.jpg']) expect(await getMeta(store, p)).toBeUndefined()
    expect(await members('/')).not.toContain('/f/')
    expect(await store.blobRefs.get(blob!)).toBe(trashBlobRef(item.id))
    expect((await readTrash(store)).map(i => i.id)).toEqual([item.id])

    await restoreFromTrash(store, BASE, item.id, ++now)
    stop()
    expect(await members('/')).toContain('/f/')
    expect(await members('/f/')).toEqual(['/f/doc.ttl', '/f/sub/'])
    expect((await getMeta(store, '/f/sub/photo.jpg'))?.etag).toBe(etag)
    expect(new TextDecoder().decode(await storedBytes(store, '/f/sub/photo.jpg'))).toBe('JPEG')
    expect(await store.blobRefs.get(blob!)).toBe('/f/sub/photo.jpg')
    expect((await readTriples(store, BASE, '/f/doc.ttl')).map(q => `${q.subject.value} ${q.object.value}`).sort()).toEqual(triplesBefore)
    expect(await getMeta(store, '/f/.acl')).toBeDefined()
    expect(await readTrash(store)).toEqual([])
    const said = heard.map(c => `${c.type} ${c.topic} ${c.object}`)
    expect(said).toContain('Remove / /f/')
    expect(said).toContain('Add / /f/')
    expect(said).toContain('Create /f/doc.ttl /f/doc.ttl')
  })

  test("a trashed file's bytes survive a restart (the start-up sweep keeps them)", async () => {
    const { item } = await trashResource(store, BASE, '/f/sub/photo.jpg', ++now)
    await store.close()
    store = await openStore(dir)
    await restoreFromTrash(store, BASE, item.id, ++now)
    expect(new TextDecoder().decode(await storedBytes(store, '/f/sub/photo.jpg'))).toBe('JPEG')
  })

  test.each([
    ['/', 405, 'root_protected'],
    ['/nope.ttl', 404, 'not_found'],
    ['/f/.acl', 400, 'invalid_path'],
  ] as const)('trash %s → %i %s', async (path, status, code) => {
    const err = await refusal(trashResource(store, BASE, path, ++now))
    expect([err.status, err.code]).toEqual([status, code])
  })

  test('a folder count other than the one confirmed → 409 confirmation_required, nothing deleted', async () => {
    const err = await refusal(trashResource(store, BASE, '/f/', ++now, { expectedCount: 1 }))
    expect([err.status, err.code]).toEqual([409, 'confirmation_required'])
    expect(await getMeta(store, '/f/doc.ttl')).toBeDefined()
  })

  test(`a folder of more than ${TRASH_MAX_ITEMS} items → 413 too_large_for_trash, nothing deleted`, async () => {
    await writeTurtle(store, BASE, '/big/', '')
    await seedMembers(store, BASE, '/big/', TRASH_MAX_ITEMS + 1, ++now)
    const err = await refusal(trashResource(store, BASE, '/big/', ++now))
    expect([err.status, err.code]).toEqual([413, 'too_large_for_trash'])
    expect(await getMeta(store, '/big/')).toBeDefined()
  })

  test('restore refused while the name is taken again, or its folder is gone; unknown id → 404', async () => {
    const { item } = await trashResource(store, BASE, '/f/doc.ttl', ++now)
    await writeTurtle(store, BASE, '/f/doc.ttl', '')
    expect([(await refusal(restoreFromTrash(store, BASE, item.id, ++now))).code]).toEqual(['already_exists'])
    const { item: folder } = await trashResource(store, BASE, '/f/', ++now, { expectedCount: 3 })
    expect((await refusal(restoreFromTrash(store, BASE, item.id, ++now))).code).toBe('not_found')
    expect((await refusal(restoreFromTrash(store, BASE, 'nope', ++now))).status).toBe(404)
    await restoreFromTrash(store, BASE, folder.id, ++now)
  })
})

describe('kept 30 days', () => {
  test('the purge drops what is older than its cutoff, with its blob files, and keeps the rest', async () => {
    await purgeTrash(store, Number.MAX_SAFE_INTEGER) // what the tests above left
    const { blob } = (await getMeta(store, '/f/sub/photo.jpg'))!
    const old = await trashResource(store, BASE, '/f/sub/', (now += 1))
    const recent = await trashResource(store, BASE, '/f/doc.ttl', (now += TRASH_KEEP_MS))
    expect(await purgeTrash(store, now - TRASH_KEEP_MS + 1)).toBe(1)
    const left = (await readTrash(store)).map(i => i.id)
    expect(left).not.toContain(old.item.id)
    expect(left).toContain(recent.item.id)
    expect(await store.blobRefs.get(blob!)).toBeUndefined()
  })

  test("the pod's sweep purges what is past 30 days by its clock", async () => {
    expect((await readTrash(store)).length).toBe(1)
    let swept = 0
    const stop = sweepTrashRegularly(store, {
      now: () => now + TRASH_KEEP_MS + 1,
      everyMs: 3_600_000,
      onSwept: n => {
        swept = n
      },
    })
    await stop()
    expect(swept).toBe(1)
    expect(await readTrash(store)).toEqual([])
  })
})
