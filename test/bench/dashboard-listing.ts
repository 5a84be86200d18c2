// Dashboard benchmark (issue 13): the Files page (GET /.admin/files, the pod's HTML with 100 rows, their
// markers and a cursor to the next page) of a 10,000- and a 100,000-member folder, through the whole app
// in process with the owner's cookie; pages from all over the folder.
// Run alone with `bun test/bench/dashboard-listing.ts`, or call `benchDashboardListing()`.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../../src/config.ts'
import { makeDeps } from '../../src/deps.ts'
import { buildApp, makeRequestHandler } from '../../src/app.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { createLoginSession } from '../../src/account/owner-session.ts'
import { ownerWebIdOf } from '../../src/config.ts'
import type { WebId } from '../../src/account/ids.ts'
import { setLogLevel } from '../../src/log.ts'
import { memberName, seedMembers } from '../e2e/seed-store.ts'
import { SORT_UP_TO } from '../../src/admin/files-sort.ts'

const BASE = 'http://localhost:3997'
/** The folder sizes measured. */
export const SIZES = [10_000, 100_000] as const
const nameOf = (i: number) => `/big/${memberName(i)}`

/** The owner (as a first start makes it) and /big/ holding `members` small documents (written in batches: 100,000 take seconds). */
export async function seedBigFolder(store: Store, baseUrl: string, members: number): Promise<void> {
  const now = Date.now()
  await ensureOwner(store, baseUrl, now)
  await seedMembers(store, baseUrl, '/big/', members, now - members * 1000)
}

export interface ListingBenchResult {
  readonly members: number
  readonly requests: number
  readonly p50Ms: number
  readonly maxMs: number
}

export async function benchDashboardListing(opts: { requests?: number; print?: boolean } = {}): Promise<ListingBenchResult[]> {
  const out: ListingBenchResult[] = []
  for (const members of SIZES) out.push(await benchOneSize(members, opts))
  return out
}

async function benchOneSize(members: number, opts: { requests?: number; print?: boolean }): Promise<ListingBenchResult> {
  setLogLevel('silent')
  const dir = mkdtempSync(join(tmpdir(), 'solopod-bench-dash-'))
  const store = await openStore(dir)
  try {
    await seedBigFolder(store, BASE, members)
    const deps = makeDeps(buildConfig(['--data', dir, '--base-url', BASE], {}), store, Date.now)
    const handler = makeRequestHandler(buildApp(deps), deps)
    const { setCookie } = await createLoginSession(store, BASE, ownerWebIdOf(BASE) as WebId, 'bench', Date.now())
    const cookie = setCookie.split(';')[0]!
    const times: number[] = []
    const requests = opts.requests ?? 50
    for (let i = 0; i < requests + 5; i++) {
      const after = nameOf((i * 1237) % (members - 100)) // pages from all over the container
      const started = performance.now()
      const res = await handler(new Request(`${BASE}/.admin/files?path=%2Fbig%2F&after=${encodeURIComponent(after)}`, { headers: { cookie } }))
      const page = await res.text()
      const rows = page.match(/name="item"/g)?.length ?? 0
      if (res.status !== 200 || rows !== 100) throw new Error(`the Files page answered ${res.status} with ${rows} rows`)
      if (i >= 5) times.push(performance.now() - started) // the first few warm the caches
    }
    times.sort((a, b) => a - b)
    const result = { members, requests, p50Ms: times[Math.floor(times.length / 2)]!, maxMs: times[times.length - 1]! }
    if (opts.print !== false) {
      console.log(
        `dashboard listing: the Files page (100 rows) of a ${members.toLocaleString('en')}-member folder over ${requests} requests: p50 ${result.p50Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms (aim < 100 ms)`,
      )
      // Issue 40: sorted by date, the folder is read whole and sorted (offered up to SORT_UP_TO members)
      if (members <= SORT_UP_TO) {
        const sorted: number[] = []
        for (let i = 0; i < 13; i++) {
          const started = performance.now()
          const res = await handler(new Request(`${BASE}/.admin/files?path=%2Fbig%2F&sort=modified&order=desc`, { headers: { cookie } }))
          await res.text()
          if (i >= 3) sorted.push(performance.now() - started)
        }
        sorted.sort((a, b) => a - b)
        console.log(
          `dashboard listing: the same folder sorted by date, newest first, over ${sorted.length} requests: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`,
        )
      }
    }
    return result
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchDashboardListing()
