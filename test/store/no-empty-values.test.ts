// Issue 9 "Memory": classic-level 3.0 never frees its copy of an empty value, so the pod writes none.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { readChildren, readTriples } from '../../src/store/resources.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K } from '../bench/documents.ts'

const BASE = 'http://localhost:4700'
const dirs: string[] = []
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }) })

async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-empty-values-'))
  dirs.push(dir)
  return openStore(dir)
}

/** Every key of the database whose stored value is empty. */
async function emptyValued(store: Store): Promise<string[]> {
  const found: string[] = []
  for await (const [key, value] of store.db.iterator({ keyEncoding: 'utf8', valueEncoding: 'view' } as never) as AsyncIterable<[string, Uint8Array]>) {
    if (value.byteLength === 0) found.push(key)
  }
  return found
}

describe('no empty values reach LevelDB', () => {
  test('quad keys and membership entries of a write are stored with a value, and read back the same', async () => {
    const store = await freshStore()
    try {
      await writeTurtle(store, BASE, '/d/', '')
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      expect(await emptyValued(store)).toEqual([])
      expect((await readTriples(store, BASE, '/d/doc')).length).toBeGreaterThan(10)
      expect((await readChildren(store, '/d/')).map(c => c.path)).toEqual(['/d/doc'])
    } finally {
      await store.close()
    }
  })
  test('a JSON value that is an empty string stays one (only values that encode to nothing change)', async () => {
    const store = await freshStore()
    try {
      await store.system.put('probe', '')
      expect(await store.system.get('probe')).toBe('')
    } finally {
      await store.close()
    }
  })
  test('an empty binary resource is stored empty and reads back empty, through a batch or a direct put', async () => {
    const store = await freshStore()
    try {
      await store.commit([{ type: 'put', key: '/d/empty', value: new Uint8Array(0), sublevel: store.blobs as never }])
      expect((await store.blobs.get('/d/empty'))!.byteLength).toBe(0)
      await store.blobs.put('/d/empty2', new Uint8Array(0))
      expect((await store.blobs.get('/d/empty2'))!.byteLength).toBe(0)
    } finally {
      await store.close()
    }
  })
})
