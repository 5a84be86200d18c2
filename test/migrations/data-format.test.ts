// Data format 2 → 3 on the data directory an older solopod made (test/fixtures/format2-pod.tar.gz): a migration
// cut short anywhere runs again to the same result; the owner's own preferences file and type index are kept;
// a newer format is refused; a format-2 export imports into a pod that is migrated at its first open.

import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { copyFormat2Pod, FIXTURE_BASE, type Format2Pod } from '../fixtures/format2-pod.ts'
import { FORMAT_VERSION, getFormatVersion, openStore, StoreFormatError, type Store } from '../../src/store/open-store.ts'
import { getMeta, readTriples } from '../../src/store/resources.ts'
import { migrateDataFormat } from '../../src/migrations/data-format.ts'
import { addTypeIndexes } from '../../src/migrations/type-indexes.ts'
import { openDataDir } from '../../src/pod.ts'
import { exportPod } from '../../src/store/export-pod.ts'
import { importPod } from '../../src/store/import-pod.ts'
import { setLogLevel } from '../../src/log.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const SOLID = (l: string) => `http://www.w3.org/ns/solid/terms#${l}`
const PIM = (l: string) => `http://www.w3.org/ns/pim/space#${l}`
const WEBID = `${FIXTURE_BASE}/profile/card#me`
const T = 1_800_000_000_000

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})
beforeAll(() => setLogLevel('silent'))

async function format2(): Promise<Format2Pod> {
  const fixture = await copyFormat2Pod()
  cleanup.push(fixture.dispose)
  return fixture
}
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-migrate-'))
  cleanup.push(() => rmSync(d, { recursive: true, force: true }))
  return d
}

/** Every resource's kind, type and size, and every graph's triples: what a migration leaves, without ETags and dates. */
async function contents(store: Store): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for await (const [path, m] of store.meta.iterator()) {
    const triples = (await readTriples(store, FIXTURE_BASE, path)).map(q => `${q.subject.value} ${q.predicate.value} ${q.object.value}`).sort()
    out[path] = { kind: m.kind, contentType: m.contentType, size: m.size, sha256: m.sha256, triples }
  }
  return out
}

/** A run of the migration that dies at its `n`th write, as a crash would leave it (the write never lands). */
function crashingAt(store: Store, n: number): Store {
  let writes = 0
  return {
    ...store,
    commit: async ops => {
      if (++writes >= n) throw new Error('crash')
      return store.commit(ops)
    },
  }
}

describe('data format 2 → 3: a run cut short runs again cleanly', () => {
  let reference: Record<string, unknown>
  let writes = 0
  beforeAll(async () => {
    const { dataDir } = await format2()
    const store = await openStore(dataDir)
    const counting = {
      ...store,
      commit: async (ops: Parameters<Store['commit']>[0]) => {
        writes++
        return store.commit(ops)
      },
    }
    await migrateDataFormat(counting, T)
    reference = await contents(store)
    await store.close()
  })

  test('a clean run writes the six settings resources and the card once each', () => {
    expect(writes).toBe(6)
    expect(
      Object.keys(reference)
        .filter(p => p.startsWith('/settings/'))
        .sort(),
    ).toEqual([
      '/settings/',
      '/settings/.acl',
      '/settings/prefs.ttl',
      '/settings/privateTypeIndex.ttl',
      '/settings/publicTypeIndex.ttl',
      '/settings/publicTypeIndex.ttl.acl',
    ])
  })

  test.each([1, 2, 3, 4, 5, 6])('a crash at write %i leaves format 2, and the next open finishes the same pod', async n => {
    const { dataDir } = await format2()
    const store = await openStore(dataDir)
    await expect(migrateDataFormat(crashingAt(store, n), T)).rejects.toThrow('crash')
    expect(await getFormatVersion(store)).toBe(2)
    await store.close()
    const reopened = await openDataDir(dataDir, T + 1000)
    try {
      expect(await getFormatVersion(reopened)).toBe(FORMAT_VERSION)
      expect(await contents(reopened)).toEqual(reference)
    } finally {
      await reopened.close()
    }
  })

  test('every document written but the format not recorded: the next open adds nothing and records 3', async () => {
    const { dataDir } = await format2()
    const store = await openStore(dataDir)
    await addTypeIndexes(store, T)
    const card = (await getMeta(store, '/profile/card'))!.etag
    expect(await addTypeIndexes(store, T + 1000)).toEqual([])
    await store.close()
    const reopened = await openDataDir(dataDir, T + 2000)
    try {
      expect(await getFormatVersion(reopened)).toBe(FORMAT_VERSION)
      expect((await getMeta(reopened, '/profile/card'))!.etag).toBe(card)
      expect(await contents(reopened)).toEqual(reference)
    } finally {
      await reopened.close()
    }
  })
})

describe("data format 2 → 3: the owner's own settings are kept", () => {
  test('a preferences file and public type index the profile names stay theirs; only the missing link is added', async () => {
    const { dataDir } = await format2()
    const store = await openStore(dataDir)
    const card = await readTriples(store, FIXTURE_BASE, '/profile/card')
    await writeTurtle(store, FIXTURE_BASE, '/mine/prefs.ttl', `<> a <${PIM('ConfigurationFile')}>; <http://purl.org/dc/terms/title> "mine".`)
    await writeTurtle(store, FIXTURE_BASE, '/mine/types.ttl', `<> a <${SOLID('TypeIndex')}>, <${SOLID('ListedDocument')}>.`)
    await writeTurtle(
      store,
      FIXTURE_BASE,
      '/profile/card',
      `<#me> <${PIM('preferencesFile')}> </mine/prefs.ttl>; <${SOLID('publicTypeIndex')}> </mine/types.ttl>.\n` +
        card
          .map(q => `<${q.subject.value}> <${q.predicate.value}> ${q.object.termType === 'Literal' ? JSON.stringify(q.object.value) : `<${q.object.value}>`}.`)
          .join('\n'),
    )
    const before = { card: (await getMeta(store, '/profile/card'))!.etag, types: (await getMeta(store, '/mine/types.ttl'))!.etag }
    await store.close()

    const migrated = await openDataDir(dataDir, T)
    try {
      expect((await getMeta(migrated, '/profile/card'))!.etag).toBe(before.card)
      expect((await getMeta(migrated, '/mine/types.ttl'))!.etag).toBe(before.types)
      for (const absent of ['/settings/prefs.ttl', '/settings/publicTypeIndex.ttl', '/settings/publicTypeIndex.ttl.acl']) {
        expect(await getMeta(migrated, absent)).toBeUndefined()
      }
      const prefs = await readTriples(migrated, FIXTURE_BASE, '/mine/prefs.ttl')
      expect(prefs.map(q => [q.subject.value, q.predicate.value, q.object.value])).toEqual(
        expect.arrayContaining([
          [`${FIXTURE_BASE}/mine/prefs.ttl`, 'http://purl.org/dc/terms/title', 'mine'],
          [WEBID, SOLID('privateTypeIndex'), `${FIXTURE_BASE}/settings/privateTypeIndex.ttl`],
        ]),
      )
      expect(prefs).toHaveLength(3)
      expect(await getMeta(migrated, '/settings/privateTypeIndex.ttl')).toBeDefined()
    } finally {
      await migrated.close()
    }
  })

  test('a /settings/ the owner made without an ACL keeps its access; each new private document gets its own ACL', async () => {
    const { dataDir } = await format2()
    const store = await openStore(dataDir)
    await writeTurtle(store, FIXTURE_BASE, '/settings/notes.ttl', '<#n> <https://vocab.example/ex#text> "mine".')
    const notes = (await getMeta(store, '/settings/notes.ttl'))!.etag
    await store.close()

    const migrated = await openDataDir(dataDir, T)
    try {
      expect(await getMeta(migrated, '/settings/.acl')).toBeUndefined()
      expect((await getMeta(migrated, '/settings/notes.ttl'))!.etag).toBe(notes)
      for (const doc of ['prefs.ttl', 'privateTypeIndex.ttl']) {
        const acl = await readTriples(migrated, FIXTURE_BASE, `/settings/${doc}.acl`)
        expect(acl.filter(q => q.predicate.value === 'http://www.w3.org/ns/auth/acl#agent').map(q => q.object.value)).toEqual([WEBID])
        expect(acl.some(q => q.predicate.value === 'http://www.w3.org/ns/auth/acl#accessTo' && q.object.value === `${FIXTURE_BASE}/settings/${doc}`)).toBe(true)
      }
      expect(await getMeta(migrated, '/settings/publicTypeIndex.ttl.acl')).toBeDefined()
    } finally {
      await migrated.close()
    }
  })
})

describe('data formats the binary does not know, and exports of format 2', () => {
  test("a data directory of a newer format is refused by every command's open, naming both formats, and left as it was", async () => {
    const dataDir = tempDir()
    const db = new ClassicLevel<string, unknown>(join(dataDir, 'db'), { valueEncoding: 'json' })
    await db.open()
    await db.sublevel<string, unknown>('system', { valueEncoding: 'json' }).put('format-version', FORMAT_VERSION + 1)
    await db.close()
    const opening = openDataDir(dataDir)
    await expect(opening).rejects.toThrow(StoreFormatError)
    await expect(openDataDir(dataDir)).rejects.toThrow(`has data format ${FORMAT_VERSION + 1}, this solopod understands format ${FORMAT_VERSION}`)
    await db.open()
    expect(await db.sublevel<string, unknown>('system', { valueEncoding: 'json' }).get('format-version')).toBe(FORMAT_VERSION + 1)
    expect(await Array.fromAsync(db.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).keys())).toEqual([])
    await db.close()
  })

  test('a format-2 export says so, and imports into a pod that its first open migrates', async () => {
    const { dataDir } = await format2()
    const exported = join(tempDir(), 'export')
    const old = await openStore(dataDir)
    await exportPod(old, exported, T)
    await old.close()
    expect(JSON.parse(readFileSync(join(exported, 'manifest.json'), 'utf8')).formatVersion).toBe(2)

    const imported = join(tempDir(), 'pod')
    await importPod(imported, exported, 'http://localhost:4001')
    const raw = await openStore(imported)
    expect(await getFormatVersion(raw)).toBe(2)
    expect(await getMeta(raw, '/settings/publicTypeIndex.ttl')).toBeUndefined()
    await raw.close()
    const store = await openDataDir(imported, T)
    try {
      expect(await getFormatVersion(store)).toBe(FORMAT_VERSION)
      const card = await readTriples(store, 'http://localhost:4001', '/profile/card')
      expect(card.some(q => q.predicate.value === SOLID('publicTypeIndex') && q.object.value === 'http://localhost:4001/settings/publicTypeIndex.ttl')).toBe(
        true,
      )
      expect(await getMeta(store, '/settings/prefs.ttl')).toBeDefined()
      const again = join(tempDir(), 'export')
      await exportPod(store, again, T)
      expect(JSON.parse(readFileSync(join(again, 'manifest.json'), 'utf8')).formatVersion).toBe(FORMAT_VERSION)
    } finally {
      await store.close()
    }
  })
})
