// Data format 4 → 5: versions kept before their time index get one at the next open (a migration, not a read at every start).

import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FORMAT_VERSION, getFormatVersion, openStore, recordFormatVersion, type Store } from '../../src/store/open-store.ts'
import { openDataDir } from '../../src/pod.ts'
import { indexVersionTimes } from '../../src/migrations/version-times.ts'
import { isCreationTimeKey, versionTimeKey } from '../../src/store/versions.ts'
import { setLogLevel } from '../../src/log.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:4003'
const T = 1_800_000_000_000
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})
beforeAll(() => setLogLevel('silent'))

async function keysOf(sub: Store['versionTimes'] | Store['versions']): Promise<string[]> {
  const out: string[] = []
  for await (const k of sub.keys()) out.push(k)
  return out
}

describe('data format 4 → 5: the time index of versions', () => {
  test('a format-4 pod whose versions have no time index is indexed at open, and a second run changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-version-times-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const old = await openStore(dir, { keepVersions: true })
    for (let i = 0; i < 3; i++) await writeTurtle(old, BASE, '/notes/a.ttl', `<#x> <#y> "${i}".`, T + i)
    const versions = await keysOf(old.versions)
    expect(versions.length).toBe(2)
    // As an earlier build left it: versions, no time index
    await old.versionTimes.clear()
    await recordFormatVersion(old, 4)
    await old.close()

    const store = await openDataDir(dir, T, { keepVersions: true })
    try {
      expect(await getFormatVersion(store)).toBe(FORMAT_VERSION)
      const indexed = await keysOf(store.versionTimes)
      expect(indexed.filter(k => !isCreationTimeKey(k))).toEqual(versions.map(versionTimeKey))
      await indexVersionTimes(store)
      expect(await keysOf(store.versionTimes)).toEqual(indexed)
    } finally {
      await store.close()
    }
  })

  test('a pod already at the current format is not indexed again at open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-version-times-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const old = await openStore(dir, { keepVersions: true })
    await writeTurtle(old, BASE, '/a.ttl', '<#x> <#y> "1".', T)
    await writeTurtle(old, BASE, '/a.ttl', '<#x> <#y> "2".', T + 1)
    await old.versionTimes.clear()
    await old.close()
    const store = await openDataDir(dir, T, { keepVersions: true })
    try {
      expect(await keysOf(store.versionTimes)).toEqual([])
    } finally {
      await store.close()
    }
  })
})
