// Binary bodies as files: the format 1 → 2 move out of LevelDB, and the start-up sweep of files no resource names.

import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { openStore, STORE_LAYOUT_FORMAT } from '../../src/store/open-store.ts'
import { writeResource } from '../../src/store/resources.ts'
import { binaryContent, storedBytes } from './binary-content.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-blobs-'))
  dirs.push(d)
  return d
}
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex')

describe('data format 1 → 2', () => {
  test('binaries kept in LevelDB move to files, keep their metadata, and the old bodies are gone', async () => {
    const dir = tempDir()
    const db = new ClassicLevel<string, unknown>(join(dir, 'db'), { valueEncoding: 'json' })
    await db.open()
    const a = new TextEncoder().encode('héllo wörld')
    const meta = { kind: 'binary', contentType: 'text/plain; charset=utf-8', etag: 'e1', size: a.length, modified: 1 }
    await db.sublevel<string, unknown>('system', { valueEncoding: 'json' }).put('format-version', 1)
    await db.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).put('/caf%C3%A9.txt', meta)
    await db.sublevel<string, Uint8Array>('blobs', { valueEncoding: 'view' }).put('/caf%C3%A9.txt', a)
    // a body whose resource is gone (format 1 could leave none, but a migration must not trip on one)
    await db.sublevel<string, Uint8Array>('blobs', { valueEncoding: 'view' }).put('/orphan', a)
    await db.close()

    const store = await openStore(dir)
    try {
      // the layout's own migration; the documents of later formats are src/migrations/' (test/migrations/)
      expect(await store.system.get('format-version')).toBe(STORE_LAYOUT_FORMAT)
      const moved = (await store.meta.get('/caf%C3%A9.txt'))!
      expect(moved).toMatchObject({ ...meta, sha256: sha256(a) })
      expect(await store.blobRefs.get(moved.blob!)).toBe('/caf%C3%A9.txt')
      expect(Buffer.from((await storedBytes(store, '/caf%C3%A9.txt'))!).equals(Buffer.from(a))).toBe(true)
      const legacy = store.db.sublevel<string, Uint8Array>('blobs', { valueEncoding: 'view' })
      expect(await Array.fromAsync(legacy.keys())).toEqual([])
    } finally {
      await store.close()
    }
  })
})

describe('the start-up sweep', () => {
  test('removes files no resource names (a write cut short, a replaced version) and keeps the rest', async () => {
    const dir = tempDir()
    let kept: string
    {
      const store = await openStore(dir)
      await writeResource(store, 'http://localhost:3000', '/k.bin', await binaryContent(store, 'application/octet-stream', 'keep'), 1)
      kept = (await store.meta.get('/k.bin'))!.blob!
      // stored but never named: as if the pod died between writing the file and its metadata batch
      await store.blobs.put([new Uint8Array(10)], { reserveBytes: 0 })
      await store.close()
    }
    mkdirSync(join(dir, 'files', 'ff'), { recursive: true })
    const stray = join(dir, 'files', 'ff', 'ff'.padEnd(32, '0'))
    const junk = join(dir, 'files', 'ff', 'not-a-blob.tmp')
    writeFileSync(stray, 'x')
    writeFileSync(junk, 'x')
    const store = await openStore(dir)
    try {
      expect(existsSync(stray)).toBe(false)
      expect(existsSync(junk)).toBe(false)
      expect(existsSync(store.blobs.localFile(kept)!)).toBe(true)
      expect([...new Bun.Glob('*/*').scanSync(join(dir, 'files'))]).toEqual([`${kept.slice(0, 2)}/${kept}`])
    } finally {
      await store.close()
    }
  })
})
