// Issue 9 "Writes at disk speed": concurrent writes share one synced batch, and none is answered before it is on disk.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { makeGroupCommit, type WriteOp } from '../../src/store/group-commit.ts'
import { COMPACT_EVERY_WRITES, inSublevel, openStore } from '../../src/store/open-store.ts'

const dirs: string[] = []
const dbs: ClassicLevel<string, unknown>[] = []
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

interface BatchCall {
  readonly ops: readonly WriteOp[]
  readonly sync: boolean | undefined
}

/**
 * A real classic-level database whose batches are recorded and held until `release()`. `events` lists
 * each batch written (`written a,b`) in order; `called(n)` resolves once the n-th batch has been asked for.
 */
async function gatedDb() {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-group-'))
  dirs.push(dir)
  const db = new ClassicLevel<string, unknown>(dir, { valueEncoding: 'json' })
  await db.open()
  dbs.push(db)
  const calls: BatchCall[] = []
  const events: string[] = []
  const waiting = new Map<number, () => void>()
  let gate = Promise.withResolvers<void>()
  let gated = true
  const batch = db.batch.bind(db) as (ops: WriteOp[], options: { sync?: boolean }) => Promise<void>
  db.batch = (async (ops: WriteOp[], options: { sync?: boolean }) => {
    calls.push({ ops, sync: options?.sync })
    waiting.get(calls.length)?.()
    if (gated) await gate.promise
    await batch(ops, options)
    events.push(`written ${ops.map(o => o.key).join(',')}`)
  }) as never
  const called = (n: number) => (calls.length >= n ? Promise.resolve() : new Promise<void>(resolve => waiting.set(n, resolve)))
  const release = () => {
    gate.resolve()
    gate = Promise.withResolvers<void>()
  }
  /** From now on every batch is written at once. */
  const open = () => {
    gated = false
    gate.resolve()
  }
  return { db, calls, events, called, release, open }
}

const put = (key: string, value: unknown): WriteOp => ({ type: 'put', key, value })

describe('group commit', () => {
  test('writes that arrive while a batch is being written share the next one, written with sync: true', async () => {
    const { db, calls, called, release } = await gatedDb()
    const group = makeGroupCommit(db)
    const first = group.commit([put('a', 1)])
    const rest = ['b', 'c', 'd'].map((k, i) => group.commit([put(k, i)]))
    expect(calls.length).toBe(1)
    release()
    await first
    await called(2)
    expect(calls.length).toBe(2)
    expect(calls[1]!.ops.map(o => o.key)).toEqual(['b', 'c', 'd'])
    release()
    await Promise.all(rest)
    expect(calls.every(c => c.sync === true)).toBe(true)
    expect(group.stats).toEqual({ batches: 2, writes: 4 })
    expect(await db.get('d')).toBe(2)
  })

  test('no write is answered before the batch holding it has been written', async () => {
    const { db, events, called, release } = await gatedDb()
    const group = makeGroupCommit(db)
    // Each answer is listed beside the batches as it comes: the order is the proof, no waiting needed.
    const writes = ['a', 'b', 'c'].map(k =>
      group.commit([put(k, k)]).then(() => {
        events.push(`answered ${k}`)
      }),
    )
    await called(1)
    expect(await db.get('a')).toBeUndefined()
    expect(events).toEqual([])
    release()
    await writes[0]
    await called(2)
    expect(events).toEqual(['written a', 'answered a'])
    release()
    await Promise.all(writes)
    expect(events).toEqual(['written a', 'answered a', 'written b,c', 'answered b', 'answered c'])
  })

  test('a write that cannot be encoded fails alone; the writes merged with it are kept', async () => {
    const { db, calls, called, release, open } = await gatedDb()
    const group = makeGroupCommit(db)
    const first = group.commit([put('a', 1)])
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const good = group.commit([put('b', 2)])
    // Settled at once, so its rejection is handled before the test looks at it.
    const bad = group.commit([put('c', circular)]).then(
      () => undefined,
      (err: unknown) => err,
    )
    const alsoGood = group.commit([put('d', 4)])
    release()
    await first
    await called(2)
    expect(calls[1]!.ops.map(o => o.key)).toEqual(['b', 'c', 'd'])
    // The merged batch fails; each write is then tried alone.
    open()
    await expect(good).resolves.toBeUndefined()
    expect(String(await bad)).toContain('cyclic')
    await expect(alsoGood).resolves.toBeUndefined()
    expect(await db.get('b')).toBe(2)
    expect(await db.get('c')).toBeUndefined()
    expect(await db.get('d')).toBe(4)
  })
})

describe('compaction follows the writes, merged or not', () => {
  test(`concurrent writers merged into batches still compact after every ${COMPACT_EVERY_WRITES} writes`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-compact-'))
    dirs.push(dir)
    const store = await openStore(dir)
    try {
      let compactions = 0
      const compactRange = store.db.compactRange.bind(store.db)
      store.db.compactRange = ((...args: Parameters<typeof compactRange>) => {
        compactions++
        return compactRange(...args)
      }) as never
      const WRITERS = 47 // batches of 47 never land on a multiple of 10,000
      const each = Math.ceil((2 * COMPACT_EVERY_WRITES + 1) / WRITERS)
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < each; i++) await store.commit([{ type: 'put', key: `w${w}`, value: i, ...inSublevel(store.system) }])
        }),
      )
      // The writes were merged (else this proves nothing), and two thresholds were crossed.
      expect(store.commitStats.batches).toBeLessThan(store.commitStats.writes / 2)
      expect(compactions).toBe(2)
    } finally {
      await store.close()
    }
  }, 60_000)
})
