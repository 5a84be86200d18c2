import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
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
