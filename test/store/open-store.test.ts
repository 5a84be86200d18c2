import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { FORMAT_VERSION, openStore, StoreFormatError } from '../../src/store/open-store.ts'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-store-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function writeRaw(dataDir: string, version: unknown) {
  const db = new ClassicLevel<string, unknown>(join(dataDir, 'db'), { valueEncoding: 'json' })
  await db.open()
  if (version !== undefined) await db.sublevel<string, unknown>('system', { valueEncoding: 'json' }).put('format-version', version)
  else await db.put('something', 'else')
  await db.close()
}

describe('data directory format version', () => {
  test('a new data directory records the current format and opens again', async () => {
    const dir = tempDir()
    await (await openStore(dir)).close()
    const store = await openStore(dir)
    expect(await store.system.get('format-version')).toBe(FORMAT_VERSION)
    await store.close()
  })
  test('a newer format is refused with a message naming both versions', async () => {
    const dir = tempDir()
    await writeRaw(dir, FORMAT_VERSION + 1)
    const opening = openStore(dir)
    await expect(opening).rejects.toThrow(StoreFormatError)
    await expect(openStore(dir)).rejects.toThrow(`has data format ${FORMAT_VERSION + 1}, this solopod understands format ${FORMAT_VERSION}`)
  })
  test('an unknown version value is refused', async () => {
    const dir = tempDir()
    await writeRaw(dir, 'v-next')
    await expect(openStore(dir)).rejects.toThrow(StoreFormatError)
  })
  test('a LevelDB database without a solopod version is not touched', async () => {
    const dir = tempDir()
    await writeRaw(dir, undefined)
    await expect(openStore(dir)).rejects.toThrow('without a solopod format version')
  })
})

describe('flushWrites (the idle pod gives back the memtable)', () => {
  const memtableBytes = (store: Awaited<ReturnType<typeof openStore>>) => Number(store.db.getProperty('leveldb.approximate-memory-usage'))

  test('writes the recent writes out to a table: LevelDB holds an empty memtable again and every write reads back, after a reopen too', async () => {
    const dir = tempDir()
    const store = await openStore(dir)
    const doc = 'x'.repeat(1000)
    for (let i = 0; i < 1000; i++) await store.records.put(`k-${i}`, { v: `${i}${doc}`, exp: 0 })
    // Nothing read yet, so the block cache is empty: the memory LevelDB reports is the memtable's.
    expect(memtableBytes(store)).toBeGreaterThan(1_000_000)
    expect(readdirSync(join(dir, 'db')).some(f => f.endsWith('.ldb'))).toBe(false)
    await store.flushWrites()
    expect(memtableBytes(store)).toBeLessThan(64 * 1024)
    expect(readdirSync(join(dir, 'db')).some(f => f.endsWith('.ldb'))).toBe(true)
    expect((await store.records.get('k-999'))?.v).toBe(`999${doc}`)
    await store.close()
    const again = await openStore(dir)
    expect((await again.records.get('k-0'))?.v).toBe(`0${doc}`)
    await again.close()
  })

  test('on a closed store it resolves (the failure is logged), never rejects', async () => {
    const store = await openStore(tempDir())
    await store.close()
    await expect(store.flushWrites()).resolves.toBeUndefined()
  })
})
