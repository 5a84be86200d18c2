// `--memory-budget` (issue 41 "Memory"): sizes parsed, the caches' shares, each cache held to its share when filled.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_MEMORY_BUDGET, memoryShares, parseMemorySize } from '../../src/lib/memory-budget.ts'
import { buildConfig } from '../../src/config.ts'
import { keepRepresentation, makeRepresentationCache } from '../../src/resources/representation-cache.ts'
import { openStore } from '../../src/store/open-store.ts'
import { getMeta } from '../../src/store/resources.ts'

const MiB = 1024 * 1024
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('parseMemorySize', () => {
  test.each([
    ['134217728', 134217728],
    ['128MB', 128 * MiB],
    ['128mib', 128 * MiB],
    ['96 MB', 96 * MiB],
    ['1GB', 1024 * MiB],
    ['1.5GiB', 1536 * MiB],
    ['512kb', 512 * 1024],
  ])('%s → %d bytes', (text, bytes) => {
    expect(parseMemorySize(text)).toBe(bytes)
  })
  test.each(['', 'MB', '-1MB', '12 TB', '0x10', 'lots'])('%p is no size', text => {
    expect(parseMemorySize(text)).toBeUndefined()
  })
})

describe('--memory-budget', () => {
  test('defaults to 128 MiB; flag, then SOLOPOD_MEMORY_BUDGET', () => {
    expect(buildConfig([], {}).memoryBudgetBytes).toBe(128 * MiB)
    expect(DEFAULT_MEMORY_BUDGET).toBe(128 * MiB)
    expect(buildConfig([], { SOLOPOD_MEMORY_BUDGET: '200MB' }).memoryBudgetBytes).toBe(200 * MiB)
    expect(buildConfig(['--memory-budget', '1GB'], { SOLOPOD_MEMORY_BUDGET: '200MB' }).memoryBudgetBytes).toBe(1024 * MiB)
  })
  test('a budget the runtime alone would overrun is refused with a sentence', () => {
    expect(() => buildConfig(['--memory-budget', '64MB'], {})).toThrow(
      '--memory-budget 64MB is too small to run: Bun and the pod take about 70 MB before any cache, so the budget must be at least 96MB',
    )
    expect(() => buildConfig([], { SOLOPOD_MEMORY_BUDGET: '95MB' })).toThrow('SOLOPOD_MEMORY_BUDGET 95MB is too small to run')
    expect(buildConfig(['--memory-budget', '96MB'], {}).memoryBudgetBytes).toBe(96 * MiB)
  })
  test('a value that is no size is refused', () => {
    expect(() => buildConfig(['--memory-budget', 'lots'], {})).toThrow('--memory-budget must be a number of bytes, or of KB, MB or GB (e.g. 128MB), got "lots"')
  })
  test("the default budget's shares: LevelDB's former defaults, 12/16 of the 64 MiB above the runtime's floor in all", () => {
    const s = memoryShares(128 * MiB)
    expect(s).toEqual({
      leveldbBlockCache: 8 * MiB,
      leveldbWriteBuffer: 4 * MiB,
      representations: 12 * MiB,
      mementos: 4 * MiB,
      metadata: 8 * MiB,
      replay: { dpopProofs: 3 * MiB, httpsigNonces: 2 * MiB, tokenEndpointProofs: 2 * MiB, spentTickets: 1 * MiB },
    })
    const total = (b: number) => {
      const s = memoryShares(b)
      const r = s.replay
      return (
        s.leveldbBlockCache +
        2 * s.leveldbWriteBuffer +
        s.representations +
        s.mementos +
        s.metadata +
        r.dpopProofs +
        r.httpsigNonces +
        r.tokenEndpointProofs +
        r.spentTickets
      )
    }
    expect(total(128 * MiB)).toBe(48 * MiB)
    expect(total(96 * MiB)).toBe(24 * MiB)
  })
})

describe('each cache keeps to its share', () => {
  test('representation cache: 60 KiB bodies past the share push the oldest out', () => {
    const share = memoryShares(96 * MiB).representations
    const cache = makeRepresentationCache(share)
    const body = new Uint8Array(60 * 1024)
    for (let i = 0; i < 400; i++) keepRepresentation(cache, `/doc-${i}\0etag`, body)
    expect(cache.weight).toBeLessThanOrEqual(share)
    expect(cache.weight).toBeGreaterThan(share - 60 * 1024)
    expect(cache.get('/doc-399\0etag')).toBe(body)
    expect(cache.get('/doc-0\0etag')).toBeUndefined()
  })
  test('a body over 64 KiB is never kept', () => {
    const cache = makeRepresentationCache(MiB)
    keepRepresentation(cache, 'big', new Uint8Array(64 * 1024 + 1))
    expect(cache.size).toBe(0)
  })
  test('metadata cache: reading many resources holds it to its share in bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-budget-'))
    dirs.push(dir)
    const metadata = 64 * 1024
    const store = await openStore(dir, { memory: { ...memoryShares(96 * MiB), metadata } })
    try {
      const long = 'x'.repeat(200)
      const paths = Array.from({ length: 600 }, (_, i) => `/notes/${long}-${i}`)
      const meta = { kind: 'rdf' as const, contentType: 'text/turtle', etag: 'e', size: 1, modified: 0, prefixes: { dc: 'http://purl.org/dc/terms/' } }
      const batch = store.meta.batch()
      for (const p of paths) batch.put(p, meta)
      await batch.write()
      for (const p of paths) expect(await getMeta(store, p)).toEqual(meta)
      const entries = store.caches.meta.entries
      expect(entries.weight).toBeLessThanOrEqual(metadata)
      // ~800 bytes an entry: fewer than 600 fit
      expect(entries.size).toBeLessThan(100)
      expect(entries.size).toBeGreaterThan(50)
    } finally {
      await store.close()
    }
  })
})
