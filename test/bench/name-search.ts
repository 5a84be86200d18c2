// Search by name (issue 40, "Find and order"): the owner's search API (GET /.admin/api/search, the name index the
// store keeps with every write) on a pod of 100,000 files, through the whole app in process with the owner's cookie.
// Run alone with `bun test/bench/name-search.ts`, or call `benchNameSearch()`.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../../src/config.ts'
import { makeDeps } from '../../src/deps.ts'
import { buildApp, makeRequestHandler } from '../../src/app.ts'
import { openStore } from '../../src/store/open-store.ts'
import { createLoginSession } from '../../src/account/owner-session.ts'
import { ownerWebIdOf } from '../../src/config.ts'
import type { WebId } from '../../src/account/ids.ts'
import { setLogLevel } from '../../src/log.ts'
import { buildNameIndex } from '../../src/migrations/name-index.ts'
import { seedBigFolder } from './dashboard-listing.ts'

const BASE = 'http://localhost:3996'
const FILES = 100_000
/**
 * What is asked: a word every name holds (its first results), a word a few names begin with, two words of which the
 * longer is in every name and the other in none (the scan's bound: the worst a query costs), and a word in no name.
 */
const QUERIES = ['ttl', 'm04999', 'ttl zz', 'nothing'] as const

export interface SearchBenchResult {
  readonly query: string
  readonly results: number
  readonly p50Ms: number
  readonly maxMs: number
}

export async function benchNameSearch(opts: { requests?: number; print?: boolean } = {}): Promise<SearchBenchResult[]> {
  setLogLevel('silent')
  const dir = mkdtempSync(join(tmpdir(), 'solopod-bench-search-'))
  const store = await openStore(dir)
  const out: SearchBenchResult[] = []
  try {
    await seedBigFolder(store, BASE, FILES)
    // What a pod made before the index pays once, at its first open of format 4
    const started = performance.now()
    await buildNameIndex(store)
    const migrationMs = performance.now() - started
    if (opts.print !== false) console.log(`name search: the format-4 migration indexed ${FILES.toLocaleString('en')} names in ${migrationMs.toFixed(0)} ms`)
    const deps = makeDeps(buildConfig(['--data', dir, '--base-url', BASE], {}), store, Date.now)
    const handler = makeRequestHandler(buildApp(deps), deps)
    const { setCookie } = await createLoginSession(store, BASE, ownerWebIdOf(BASE) as WebId, 'bench', Date.now())
    const cookie = setCookie.split(';')[0]!
    const requests = opts.requests ?? 30
    for (const query of QUERIES) {
      const times: number[] = []
      let results = 0
      for (let i = 0; i < requests + 3; i++) {
        const t0 = performance.now()
        const res = await handler(new Request(`${BASE}/.admin/api/search?q=${encodeURIComponent(query)}`, { headers: { cookie } }))
        const body = (await res.json()) as { items: unknown[] }
        if (res.status !== 200) throw new Error(`the search answered ${res.status}`)
        results = body.items.length
        if (i >= 3) times.push(performance.now() - t0) // the first few warm the caches
      }
      times.sort((a, b) => a - b)
      const result = { query, results, p50Ms: times[Math.floor(times.length / 2)]!, maxMs: times[times.length - 1]! }
      out.push(result)
      if (opts.print !== false) {
        console.log(
          `name search: "${query}" on a pod of ${FILES.toLocaleString('en')} files, ${results} results, over ${requests} requests: p50 ${result.p50Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms (aim ≤ 100 ms)`,
        )
      }
    }
    return out
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchNameSearch()
