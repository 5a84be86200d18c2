// Issue 36: retention of versions — every one for an hour, hourly for a day, daily for N days — with a fake clock.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COMPACT_EVERY_WRITES, inSublevel, openStore, recordFormatVersion, type Store } from '../../src/store/open-store.ts'
import { openDataDir } from '../../src/pod.ts'
import { getMeta, writeResource } from '../../src/store/resources.ts'
import { readVersionSpans, versionKey, type VersionSpan } from '../../src/store/versions.ts'
import { isCreationTimeKey, isHeldByVersion, versionTimeKey } from '../../src/store/version-record.ts'
import { expireCreations, sweepVersionsRegularly, thinVersions, versionsToDrop } from '../../src/store/version-sweep.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { binaryContent } from './binary-content.ts'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
/** Midnight UTC, so hour and day buckets start where the test counts them. */
const T0 = Date.UTC(2026, 0, 1)

const span = (until: number, from = until - MIN): VersionSpan => ({ from, until, key: versionKey('/d', from, until) })
const kept = (spans: VersionSpan[], now: number, days: number) => {
  const drop = new Set(versionsToDrop(spans, now, days))
  return spans.filter(s => !drop.has(s.key)).map(s => s.until)
}

describe('retention (Nextcloud-like thinning)', () => {
  // A change every 10 minutes for 4 days: the states each ended.
  const spans = Array.from({ length: 4 * 24 * 6 }, (_, i) => span(T0 + (i + 1) * 10 * MIN))
  const now = T0 + 4 * DAY + 5 * MIN

  test('every version of the last hour is kept', () => {
    const recent = spans.filter(s => now - s.until <= HOUR).map(s => s.until)
    expect(recent.length).toBe(6)
    for (const u of recent) expect(kept(spans, now, 30)).toContain(u)
  })

  test('from an hour to a day old: one an hour, the last of each hour', () => {
    const between = kept(spans, now, 30).filter(u => now - u > HOUR && now - u <= DAY)
    const hours = between.map(u => Math.floor(u / HOUR))
    expect(new Set(hours).size).toBe(hours.length)
    expect(between.length).toBeGreaterThanOrEqual(23)
    for (const u of between) {
      // the latest version of its hour that is also past the first hour
      const sameHour = spans.filter(s => Math.floor(s.until / HOUR) === Math.floor(u / HOUR) && now - s.until > HOUR)
      expect(u).toBe(Math.max(...sameHour.map(s => s.until)))
    }
  })

  test('older than a day: one a day, until N days; none after', () => {
    const old = kept(spans, now, 30).filter(u => now - u > DAY)
    const days = old.map(u => Math.floor(u / DAY))
    expect(new Set(days).size).toBe(days.length)
    expect(days.length).toBeGreaterThanOrEqual(3)
    const twoDays = kept(spans, now, 2).filter(u => now - u > DAY)
    for (const u of twoDays) expect(now - u).toBeLessThanOrEqual(2 * DAY)
    expect(kept(spans, now, 2).some(u => now - u > 2 * DAY)).toBe(false)
  })

  test('0 days keeps none', () => {
    expect(kept(spans, now, 0)).toEqual([])
  })

  test('age counts from the change that ended a state, not from when it was written', () => {
    const longLived = span(now - 10 * MIN, T0 - 365 * DAY)
    expect(kept([longLived], now, 30)).toEqual([longLived.until])
  })
})

/** The time index names exactly the versions kept (written and removed in their batches). */
async function expectTimeIndexOf(store: Store) {
  const versions: string[] = []
  for await (const key of store.versions.keys()) versions.push(versionTimeKey(key))
  const times: string[] = []
  for await (const key of store.versionTimes.keys()) if (!isCreationTimeKey(key)) times.push(key)
  expect(times).toEqual(versions.sort())
  return times.length
}

describe('the sweep', () => {
  let dir: string
  let store: Store
  const BASE = 'http://localhost:3995'
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'solopod-version-sweep-'))
    store = await openStore(dir, { keepVersions: true })
    await writeTurtle(store, BASE, '/', '', T0)
  })
  afterAll(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('thins in bounded batches, releases the files only dropped versions held, and a second sweep finds nothing', async () => {
    let t = T0
    for (let i = 0; i < 12; i++) await writeTurtle(store, BASE, '/doc.ttl', `<#a> <#b> ${i}.`, (t += 10 * MIN))
    await writeResource(store, BASE, '/f.bin', await binaryContent(store, 'application/octet-stream', 'OLD'), (t += MIN))
    const old = (await getMeta(store, '/f.bin'))!
    await writeResource(store, BASE, '/f.bin', await binaryContent(store, 'application/octet-stream', 'NEW'), (t += MIN))
    expect((await readVersionSpans(store, '/doc.ttl')).length).toBe(11)
    expect(await isHeldByVersion(store.versionBlobs, old.blob!)).toBe(true)
    expect(await expectTimeIndexOf(store)).toBe(12)

    const removed: string[] = []
    const blobs = store.blobs as { remove(id: string): void }
    const real = blobs.remove
    blobs.remove = id => {
      removed.push(id)
      real.call(store.blobs, id)
    }
    let batches = 0
    const s = store as { commit(ops: readonly unknown[]): Promise<void> }
    const commit = s.commit
    s.commit = ops => {
      batches++
      expect(ops.length).toBeLessThanOrEqual(3 * 3) // per version: its record, its time key, the blob it held
      return commit.call(store, ops as never)
    }
    try {
      // Three days later with 2 days kept: everything goes except nothing (all older than 2 days).
      expect(await thinVersions(store, t + 3 * DAY, 2, 3)).toBe(12)
    } finally {
      blobs.remove = real
      s.commit = commit
    }
    expect(batches).toBe(4)
    expect(removed).toEqual([old.blob!])
    expect(await readVersionSpans(store, '/doc.ttl')).toEqual([])
    expect(await isHeldByVersion(store.versionBlobs, old.blob!)).toBe(false)
    expect(await expectTimeIndexOf(store)).toBe(0)
    expect(await thinVersions(store, t + 3 * DAY, 2)).toBe(0)
  })

  test('a day later, of two hours of changes one version an hour is left', async () => {
    let t = T0 + 10 * DAY
    for (let i = 0; i < 13; i++) await writeTurtle(store, BASE, '/two-hours.ttl', `<#a> <#b> ${i}.`, (t += 10 * MIN))
    const before = await readVersionSpans(store, '/two-hours.ttl')
    expect(before.length).toBe(12)
    await thinVersions(store, t + 2 * HOUR, 30)
    const after = await readVersionSpans(store, '/two-hours.ttl')
    expect(after.map(s => Math.floor(s.until / HOUR))).toEqual([...new Set(before.map(s => Math.floor(s.until / HOUR)))])
    expect(await expectTimeIndexOf(store)).toBe(after.length)
    expect(await thinVersions(store, t + 2 * HOUR, 30)).toBe(0)
  })

  test('who created what is kept as long as versions are: the sweep expires creations older than the days kept', async () => {
    const creations = async () => {
      const out: string[] = []
      for await (const key of store.versionTimes.keys()) if (isCreationTimeKey(key)) out.push(key.split('\0')[1]!)
      return out
    }
    await writeTurtle(store, BASE, '/new-one.ttl', '<#a> <#b> 1.', T0 + 20 * DAY)
    expect(await creations()).toContain('/new-one.ttl')
    expect(await expireCreations(store, T0 + 20 * DAY + HOUR, 2)).toBeGreaterThan(0) // the older ones
    expect(await creations()).toEqual(['/new-one.ttl'])
    expect(await expireCreations(store, T0 + 23 * DAY, 2)).toBe(1)
    expect(await creations()).toEqual([])
  })

  test('versions kept before the time index existed are indexed when the store opens (data format 4 → 5, src/migrations/version-times.ts)', async () => {
    const kept = await expectTimeIndexOf(store)
    expect(kept).toBeGreaterThan(0)
    await store.versionTimes.clear()
    await recordFormatVersion(store, 4)
    await store.close()
    store = await openDataDir(dir, T0, { keepVersions: true })
    expect(await expectTimeIndexOf(store)).toBe(kept)
  })

  test('with versions on, writes do not compact the database (versions are live data); a sweep that removed versions does', async () => {
    let compactions = 0
    const compactRange = store.db.compactRange.bind(store.db)
    store.db.compactRange = ((...args: Parameters<typeof compactRange>) => {
      compactions++
      return compactRange(...args)
    }) as never
    try {
      for (let i = 0; i < COMPACT_EVERY_WRITES + 1; i += 500)
        await Promise.all(Array.from({ length: 500 }, (_, w) => store.commit([{ type: 'put', key: `w${w}`, value: i, ...inSublevel(store.system) }])))
      expect(compactions).toBe(0)
      // Nothing to remove: no compaction
      const quiet = sweepVersionsRegularly(store, { now: () => T0 + 2 * HOUR, keepDays: 30 })
      await quiet()
      expect(compactions).toBe(0)
      await writeTurtle(store, BASE, '/compact-me.ttl', '<#a> <#b> "1".', T0 + 3 * HOUR)
      await writeTurtle(store, BASE, '/compact-me.ttl', '<#a> <#b> "2".', T0 + 3 * HOUR + 1)
      const sweeping = sweepVersionsRegularly(store, { now: () => T0 + 40 * DAY, keepDays: 30 })
      await sweeping()
      expect(compactions).toBe(1)
    } finally {
      store.db.compactRange = compactRange
    }
  }, 60_000)

  test('a sweep does not stall requests: between its batches a write begun meanwhile is made and acknowledged', async () => {
    let t = T0 + 40 * DAY
    for (let i = 0; i < 61; i++) await writeTurtle(store, BASE, '/busy.ttl', `<#a> <#b> ${i}.`, (t += MIN))
    const events: string[] = []
    const s = store as { commit(ops: readonly unknown[]): Promise<void> }
    const commit = s.commit
    s.commit = async ops => {
      await commit.call(store, ops as never)
      events.push('sweep batch')
    }
    let dropped = 0
    try {
      // 60 versions in batches of 3: twenty commits, each a turn of the event loop the write can take.
      const sweep = thinVersions(store, t + 40 * DAY, 2, 3).then(n => {
        dropped = n
        events.push('sweep done')
      })
      await writeTurtle(store, BASE, '/meanwhile.ttl', '<#a> <#b> 1.', t + 1)
      events.push('write acknowledged')
      await sweep
    } finally {
      s.commit = commit
    }
    const acknowledged = events.indexOf('write acknowledged')
    // The write's own commit passes through the same method: it is one of the batches counted before it.
    expect(events.at(-1)).toBe('sweep done')
    // /busy.ttl's 60, and what the tests before left older than two days then.
    expect(dropped).toBeGreaterThanOrEqual(60)
    expect(acknowledged).toBeGreaterThan(0)
    expect(events.slice(acknowledged).filter(e => e === 'sweep batch').length).toBeGreaterThan(10)
    expect(await getMeta(store, '/meanwhile.ttl')).toBeDefined()
  })
})
