// Issue 35: the one ending of every resource write — its journal in its batch, published only once that batch is on disk.

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { inSublevel, openStore, type Store } from '../../src/store/open-store.ts'
import { commitChanges, type MetaWrites } from '../../src/store/commit-changes.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'
import type { WriteOp } from '../../src/store/group-commit.ts'
import type { ResourceMeta } from '../../src/store/resource-meta.ts'
import { nameIndexEntries } from '../../src/store/name-index.ts'

let dir: string
let real: Store
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-commit-changes-'))
  real = await openStore(dir)
})
afterAll(async () => {
  await real.close()
  rmSync(dir, { recursive: true, force: true })
})
/** The gated stores share the real store's change feed: their listeners and journals end with each test. */
const detach: (() => void)[] = []
afterEach(() => {
  for (const stop of detach.splice(0)) stop()
})

let n = 0
/** One document's write: its metadata in the batch and in `writes`, and its Create. */
function aWrite(store: Store) {
  const path = `/doc-${++n}.ttl`
  const meta: ResourceMeta = { kind: 'rdf', contentType: 'text/turtle', etag: `e${n}`, size: 0, modified: n }
  const batch: WriteOp[] = [{ type: 'put', key: path, value: meta, ...inSublevel(store.meta) }]
  const writes: MetaWrites = new Map([[path, meta]])
  const changes: ResourceChange[] = [{ topic: path, type: 'Create', object: path, published: n }]
  return { path, meta, write: { batch, writes, changes } }
}

/**
 * The real store, whose batches wait for `release()` (or fail with `fail(err)`), and one write to commit
 * through it; `events` lists in order when each batch was asked for, when it was on disk, what the
 * listeners heard, and the blob files dropped.
 */
function gatedStore() {
  const events: string[] = []
  const committed: (readonly WriteOp[])[] = []
  let gate = Promise.withResolvers<void>()
  const asked = Promise.withResolvers<void>()
  const store: Store = {
    ...real,
    async commit(ops) {
      committed.push(ops)
      events.push('batch asked')
      asked.resolve()
      await gate.promise
      await real.commit(ops)
      events.push('batch on disk')
    },
    blobs: {
      ...real.blobs,
      discard: async id => {
        events.push(`discard ${id}`)
      },
      remove: id => {
        events.push(`remove ${id}`)
      },
    },
  }
  detach.push(
    store.changes.listen(changes => {
      events.push(`published ${changes.map(c => c.topic).join(',')}`)
    }),
  )
  const release = () => gate.resolve()
  return { store, ...aWrite(store), events, committed, asked: asked.promise, release, fail: (err: Error) => gate.reject(err) }
}

describe('commitChanges: journal, commit, remember, publish', () => {
  test('no listener hears a change, and the cache does not show it, before its batch is on disk', async () => {
    const { store, path, meta, write, events, asked, release } = gatedStore()
    const seen: (ResourceMeta | undefined)[] = []
    // What a listener reading the resource at once finds: the store must already show the change.
    detach.push(
      store.changes.listen(() => {
        seen.push(store.caches.meta.entries.get(path))
      }),
    )
    const done = commitChanges(store, write)
    await asked
    await Bun.sleep(20) // the batch is held: nothing may run ahead of it meanwhile
    expect(events).toEqual(['batch asked'])
    expect(store.caches.meta.entries.get(path)).toBeUndefined()
    release()
    await done
    expect(events).toEqual(['batch asked', 'batch on disk', `published ${path}`])
    expect(seen).toEqual([meta])
    expect(await real.meta.get(path)).toEqual(meta)
  })

  test("the journals' records are written in the write's own batch, with it", async () => {
    const { store, path, write, committed, release } = gatedStore()
    detach.push(
      store.changes.journal(changes => changes.map(c => ({ type: 'put', key: `outbox\0${c.topic}`, value: c.type, ...inSublevel(store.system) }) as WriteOp)),
    )
    release()
    await commitChanges(store, write)
    expect(committed).toHaveLength(1)
    // The name index's entries of a created path join the same batch (store/name-index.ts), before the journals'
    expect(committed[0]!.map(op => op.key)).toEqual([path, ...nameIndexEntries(path), `outbox\0${path}`])
    expect(await real.system.get(`outbox\0${path}`)).toBe('Create')
  })

  test('a batch that fails is neither remembered nor published, the blob written for it is dropped, and the caller gets the error', async () => {
    const { store, path, write, events, fail } = gatedStore()
    fail(new Error('disk full'))
    await expect(commitChanges(store, write, { added: 'new-blob', released: ['old-blob'] })).rejects.toThrow('disk full')
    expect(events).toEqual(['batch asked', 'discard new-blob'])
    expect(store.caches.meta.entries.get(path)).toBeUndefined()
    expect(await real.meta.get(path)).toBeUndefined()
  })

  test('the blobs a write stops naming go only once it is on disk and published', async () => {
    const { store, path, write, events, release } = gatedStore()
    release()
    await commitChanges(store, write, { added: 'new-blob', released: ['old-blob'] })
    expect(events).toEqual(['batch asked', 'batch on disk', `published ${path}`, 'remove old-blob'])
    expect(store.caches.meta.entries.get(path)).toBeDefined()
  })
})

describe('one ending for every write', () => {
  test('only commit-changes.ts publishes changes or asks the journals for their records', () => {
    const src = join(import.meta.dir, '../../src')
    const callers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter(f => f.endsWith('.ts'))
      .filter(f => /\.changes\.(publish|opsFor)\(/.test(readFileSync(join(src, f), 'utf8')))
      .map(f => relative(src, join(src, f)))
    expect(callers).toEqual(['store/commit-changes.ts'])
  })
})
