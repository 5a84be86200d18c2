// Expired records leave the disk (issue 9: the data directory stays proportional to the live data).

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { putRecord } from '../../src/store/records.ts'
import { SWEEP_GRACE_MS, sweepExpiredRecordsRegularly } from '../../src/store/expired-records.ts'

const T0 = 1_800_000_000_000
let dir = ''
let store: Store | undefined
afterEach(async () => {
  await store?.close()
  store = undefined
  rmSync(dir, { recursive: true, force: true })
})

async function keys(s: Store): Promise<string[]> {
  const out: string[] = []
  for await (const k of s.records.keys()) out.push(k)
  return out.sort()
}

async function seeded(): Promise<Store> {
  dir = mkdtempSync(join(tmpdir(), 'solopod-sweep-'))
  store = await openStore(dir)
  await putRecord(store, 'auth-code', 'long-gone', { x: 1 }, T0 - SWEEP_GRACE_MS - 1)
  await putRecord(store, 'interaction', 'just-expired', { x: 1 }, T0 - 1000)
  await putRecord(store, 'session', 'live', { x: 1 }, T0 + 60_000)
  await putRecord(store, 'consent', 'forever', { x: 1 })
  return store
}

describe('sweeping expired records', () => {
  test('at once: records expired longer than the grace go; just-expired, live and unexpiring ones stay', async () => {
    const s = await seeded()
    const swept: number[] = []
    const stop = sweepExpiredRecordsRegularly(s, { now: () => T0, onSwept: n => swept.push(n) })
    await stop()
    expect(swept).toEqual([1])
    expect(await keys(s)).toEqual(['consent\0forever', 'interaction\0just-expired', 'session\0live'])
  })
  test('again on its timer, as time passes', async () => {
    const s = await seeded()
    const clock = { now: T0 }
    const stop = sweepExpiredRecordsRegularly(s, { now: () => clock.now, everyMs: 20 })
    clock.now += SWEEP_GRACE_MS + 120_000
    for (let i = 0; i < 100 && (await keys(s)).length > 1; i++) await Bun.sleep(20)
    await stop()
    expect(await keys(s)).toEqual(['consent\0forever'])
  })
  test('after stop, no sweep runs', async () => {
    const s = await seeded()
    const clock = { now: T0 }
    const stop = sweepExpiredRecordsRegularly(s, { now: () => clock.now, everyMs: 10 })
    await stop()
    clock.now += SWEEP_GRACE_MS + 120_000
    await Bun.sleep(50)
    expect(await keys(s)).toHaveLength(3)
  })
})
