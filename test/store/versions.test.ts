// Issue 36: every change keeps the state it replaced as a version, in the change's own batch; files are held, never copied.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { deleteResource, getMeta, readTriples, writeResource } from '../../src/store/resources.ts'
import { moveResource } from '../../src/store/move-resource.ts'
import { deleteTree } from '../../src/store/delete-tree.ts'
import { purgeTrash, trashResource } from '../../src/store/trash.ts'
import { getVersion, latestVersionBefore, readVersionSpans, unpackGraph, versionKey, type ChangeAuthor } from '../../src/store/versions.ts'
import { isHeldByVersion } from '../../src/store/version-record.ts'
import type { WriteOp } from '../../src/store/group-commit.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { nt, openVersionedTempStore, removeTempStore } from './versioned-store.ts'
import { binaryContent } from './binary-content.ts'

const BASE = 'http://localhost:3994'
const ALICE: ChangeAuthor = { agent: 'https://alice.example/card#me', client: 'https://app.example/id', via: 'DPoP' }
let dir: string
let store: Store
let now = 1_700_000_000_000

beforeAll(async () => {
  ;({ dir, store } = await openVersionedTempStore('solopod-versions-', BASE, now))
})
afterAll(() => removeTempStore(store, dir))

const triplesOf = async (path: string) => nt(await readTriples(store, BASE, path))

/** The blob files `store.blobs.remove` was asked to drop while `run` ran. */
async function removedWhile(run: () => Promise<unknown>, s = store): Promise<string[]> {
  const removed: string[] = []
  const blobs = s.blobs as { remove(id: string): void }
  const real = blobs.remove
  blobs.remove = id => {
    removed.push(id)
    real.call(s.blobs, id)
  }
  try {
    await run()
  } finally {
    blobs.remove = real
  }
  return removed
}

describe('a write keeps the state it replaced', () => {
  test('an RDF document: its statements, metadata, when and who, read back exactly', async () => {
    await writeTurtle(store, BASE, '/notes/a.ttl', '<#it> <http://purl.org/dc/terms/title> "Before"@en; <http://example.org/n> 3, "x\\ny".', ++now)
    const before = await triplesOf('/notes/a.ttl')
    const oldMeta = (await getMeta(store, '/notes/a.ttl'))!
    await writeResource(store, BASE, '/notes/a.ttl', { kind: 'rdf', contentType: 'text/turtle', triples: [], size: 0 }, ++now, ALICE)
    const v = (await getVersion(store, '/notes/a.ttl', oldMeta.modified))!
    expect(v).toMatchObject({ from: oldMeta.modified, until: now, end: 'update', by: ALICE, meta: oldMeta })
    expect(nt(unpackGraph(store.quads, v.graph!))).toEqual(before)
    expect(before.length).toBe(3)
  })

  test('the version is in the same synced batch as the change', async () => {
    await writeTurtle(store, BASE, '/notes/b.ttl', '<#a> <#b> <#c>.', ++now)
    const commits: (readonly WriteOp[])[] = []
    const s = store as { commit(ops: readonly WriteOp[]): Promise<void> }
    const real = s.commit
    s.commit = ops => {
      commits.push(ops)
      return real.call(store, ops)
    }
    try {
      await writeTurtle(store, BASE, '/notes/b.ttl', '<#a> <#b> <#d>.', ++now)
    } finally {
      s.commit = real
    }
    expect(commits.length).toBe(1)
    const sublevels = commits[0]!.map(op => (op as { sublevel?: unknown }).sublevel)
    expect(sublevels).toContain(store.versions)
    expect(sublevels).toContain(store.meta)
  })

  test('a file: the version names the old blob, whose file is not removed; a new write holds it too', async () => {
    await writeResource(store, BASE, '/f/photo.jpg', await binaryContent(store, 'image/jpeg', 'OLD'), ++now)
    const old = (await getMeta(store, '/f/photo.jpg'))!
    const removed = await removedWhile(async () => writeResource(store, BASE, '/f/photo.jpg', await binaryContent(store, 'image/jpeg', 'NEW'), ++now, ALICE))
    expect(removed).toEqual([])
    const v = (await getVersion(store, '/f/photo.jpg', old.modified))!
    expect(v.meta.blob).toBe(old.blob!)
    expect(v.graph).toBeUndefined()
    expect(await store.blobRefs.get(old.blob!)).toBeUndefined()
    expect(await store.versionBlobs.get(`${old.blob}\0${versionKey('/f/photo.jpg', old.modified, now)}`)).toBe('-')
    expect(await store.blobs.read(old.blob!).text()).toBe('OLD')
  })

  test('the start-up sweep keeps the files versions hold', async () => {
    await writeResource(store, BASE, '/f/kept.bin', await binaryContent(store, 'application/octet-stream', 'V1'), ++now)
    const old = (await getMeta(store, '/f/kept.bin'))!
    await writeResource(store, BASE, '/f/kept.bin', await binaryContent(store, 'application/octet-stream', 'V2'), ++now)
    await store.close()
    store = await openStore(dir, { keepVersions: true })
    expect(existsSync(store.blobs.localFile(old.blob!)!)).toBe(true)
    expect(await store.blobs.read(old.blob!).text()).toBe('V1')
  })

  test('writes within one millisecond still leave one memento each: a state is written after the one it replaces', async () => {
    const at = ++now
    for (const v of [1, 2, 3]) await writeTurtle(store, BASE, '/notes/fast.ttl', `<#a> <#b> ${v}.`, at)
    const froms = (await readVersionSpans(store, '/notes/fast.ttl')).map(s => s.from)
    expect(froms).toEqual([at, at + 1])
    expect((await getMeta(store, '/notes/fast.ttl'))!.modified).toBe(at + 2)
    now = at + 2
  })

  test('a new resource has no earlier state: no version', async () => {
    await writeTurtle(store, BASE, '/notes/new.ttl', '<#a> <#b> <#c>.', ++now)
    expect(await readVersionSpans(store, '/notes/new.ttl')).toEqual([])
  })
})

describe('removals keep what they removed', () => {
  test('DELETE: the resource and its ACL', async () => {
    await writeTurtle(store, BASE, '/notes/c.ttl', '<#a> <#b> "c".', ++now)
    await writeTurtle(store, BASE, '/notes/c.ttl.acl', '<#r> <http://www.w3.org/ns/auth/acl#accessTo> <./c.ttl>.', ++now)
    const before = await triplesOf('/notes/c.ttl')
    await deleteResource(store, BASE, '/notes/c.ttl', ++now, ALICE)
    const [span] = await readVersionSpans(store, '/notes/c.ttl')
    const v = (await getVersion(store, '/notes/c.ttl', span!.from))!
    expect(v).toMatchObject({ end: 'delete', until: now, by: ALICE })
    expect(nt(unpackGraph(store.quads, v.graph!))).toEqual(before)
    expect((await readVersionSpans(store, '/notes/c.ttl.acl')).length).toBe(1)
  })

  test('DELETE of a file keeps its blob', async () => {
    await writeResource(store, BASE, '/f/gone.txt', await binaryContent(store, 'text/plain', 'GONE'), ++now)
    const { blob } = (await getMeta(store, '/f/gone.txt'))!
    expect(await removedWhile(() => deleteResource(store, BASE, '/f/gone.txt', ++now))).toEqual([])
    expect(await store.blobs.read(blob!).text()).toBe('GONE')
  })

  test('a move: the old path keeps its state as a version', async () => {
    await writeTurtle(store, BASE, '/m/doc.ttl', '<#a> <#b> "moved".', ++now)
    const meta = (await getMeta(store, '/m/doc.ttl'))!
    await moveResource(store, BASE, '/m/', '/n/', ++now, { by: ALICE })
    expect(await getVersion(store, '/m/doc.ttl', meta.modified)).toMatchObject({ end: 'move', by: ALICE })
    expect((await readVersionSpans(store, '/m/')).length).toBe(1)
    expect(await readVersionSpans(store, '/n/doc.ttl')).toEqual([])
  })

  test('a folder deleted for good: every item', async () => {
    await writeTurtle(store, BASE, '/t/one.ttl', '<#a> <#b> "1".', ++now)
    await writeResource(store, BASE, '/t/sub/two.bin', await binaryContent(store, 'application/octet-stream', 'TWO'), ++now)
    const { blob } = (await getMeta(store, '/t/sub/two.bin'))!
    const removed = await removedWhile(() => deleteTree(store, BASE, '/t/', ++now, { by: ALICE, batchSize: 2 }))
    expect(removed).toEqual([])
    for (const p of ['/t/', '/t/one.ttl', '/t/sub/', '/t/sub/two.bin']) expect((await latestVersionBefore(store, p, now))?.end).toBe('delete')
    expect(await store.blobs.read(blob!).text()).toBe('TWO')
  })

  test('the trash: its items are versions too, and purging the trash leaves the file the version holds', async () => {
    await writeResource(store, BASE, '/tr/file.bin', await binaryContent(store, 'application/octet-stream', 'TRASHED'), ++now)
    const { blob } = (await getMeta(store, '/tr/file.bin'))!
    await trashResource(store, BASE, '/tr/', ++now, { by: ALICE })
    expect(await latestVersionBefore(store, '/tr/file.bin', now)).toMatchObject({ end: 'trash', by: ALICE })
    const removed = await removedWhile(() => purgeTrash(store, now + 1))
    expect(removed).toEqual([])
    expect(await store.blobs.read(blob!).text()).toBe('TRASHED')
  })
})

describe('versions off', () => {
  test('no version is written, and a replaced file goes', async () => {
    const offDir = mkdtempSync(join(tmpdir(), 'solopod-versions-off-'))
    const off = await openStore(offDir)
    try {
      await writeTurtle(off, BASE, '/', '', now)
      await writeTurtle(off, BASE, '/a.ttl', '<#a> <#b> "1".', ++now)
      await writeTurtle(off, BASE, '/a.ttl', '<#a> <#b> "2".', ++now)
      await deleteResource(off, BASE, '/a.ttl', ++now)
      await writeResource(off, BASE, '/f.bin', await binaryContent(off, 'application/octet-stream', 'V1'), ++now)
      const { blob } = (await getMeta(off, '/f.bin'))!
      expect(
        await removedWhile(async () => writeResource(off, BASE, '/f.bin', await binaryContent(off, 'application/octet-stream', 'V2'), ++now), off),
      ).toEqual([blob!])
      expect(await readVersionSpans(off, '/a.ttl')).toEqual([])
      expect(await isHeldByVersion(off.versionBlobs, blob!)).toBe(false)
    } finally {
      await off.close()
      rmSync(offDir, { recursive: true, force: true })
    }
  })
})
