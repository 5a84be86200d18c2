// Issue 9 "Memory": classic-level 3.0 never frees its copy of an empty value, so the pod writes none.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { readChildren, readTriples } from '../../src/store/resources.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K } from '../bench/documents.ts'
import { binaryContent, storedBytes } from './binary-content.ts'
import { writeResource } from '../../src/store/resources.ts'

const BASE = 'http://localhost:4700'
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

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
  test('an empty binary resource is stored as an empty file and reads back empty', async () => {
    const store = await freshStore()
    try {
      await writeResource(store, 'http://localhost:3000', '/d/empty', await binaryContent(store, 'text/plain', new Uint8Array(0)), 1)
      expect((await storedBytes(store, '/d/empty'))!.byteLength).toBe(0)
      expect((await store.meta.get('/d/empty'))!.sha256).toBe(new Bun.CryptoHasher('sha256').update(new Uint8Array(0)).digest('hex'))
    } finally {
      await store.close()
    }
  })
})
