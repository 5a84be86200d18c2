// Data format 3 → 4: a pod made before the name index gets one at its next open, and search finds what it held.

import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FORMAT_VERSION, getFormatVersion, openStore, recordFormatVersion } from '../../src/store/open-store.ts'
import { openDataDir } from '../../src/pod.ts'
import { buildNameIndex } from '../../src/migrations/name-index.ts'
import { findNames } from '../../src/store/name-index.ts'
import { setLogLevel } from '../../src/log.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:4002'
const T = 1_800_000_000_000
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})
beforeAll(() => setLogLevel('silent'))

describe('data format 3 → 4: the name index', () => {
  test('a format-3 pod without an index is indexed at open, and a second run changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-names-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const old = await openStore(dir)
    for (const p of ['/%C3%89t%C3%A9/plage.ttl', '/notes/a%20b.ttl']) await writeTurtle(old, BASE, p, '<#x> <#y> "z".', T)
    // As a format-3 pod left it: no index at all
    await old.names.clear()
    await recordFormatVersion(old, 3)
    expect((await findNames(old, 'ete', 10)).paths).toEqual([])
    await old.close()

    const store = await openDataDir(dir, T)
    try {
      expect(await getFormatVersion(store)).toBe(FORMAT_VERSION)
      expect((await findNames(store, 'ete', 10)).paths).toEqual(['/%C3%89t%C3%A9/'])
      expect((await findNames(store, 'plage', 10)).paths).toEqual(['/%C3%89t%C3%A9/plage.ttl'])
      expect((await findNames(store, 'b', 10)).paths).toEqual(['/notes/a%20b.ttl'])
      const keys = async () => {
        const out: string[] = []
        for await (const k of store.names.keys()) out.push(k)
        return out
      }
      const before = await keys()
      await buildNameIndex(store)
      expect(await keys()).toEqual(before)
    } finally {
      await store.close()
    }
  })
})
