// Dashboard benchmark (issue 13): one page of a 10,000-member container, as the dashboard asks for it
// (GET /.admin/api/browse with the owner's cookie), through the whole app in process; and the cost of
// drawing that page is 100 table rows in the browser, whatever the container's size.
// Run alone with `bun test/bench/dashboard-listing.ts`, or call `benchDashboardListing()`.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../../src/config.ts'
import { makeDeps } from '../../src/deps.ts'
import { buildApp, makeRequestHandler } from '../../src/app.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { writeResource } from '../../src/store/resources.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { createLoginSession } from '../../src/account/owner-session.ts'
import { ownerWebIdOf } from '../../src/config.ts'
import type { WebId } from '../../src/account/ids.ts'
import { setLogLevel } from '../../src/log.ts'
import { binaryContent } from '../store/binary-content.ts'

const BASE = 'http://localhost:3997'
export const MEMBERS = 10_000

/** The owner (as a first start makes it) and /big/ holding MEMBERS one-byte files. */
export async function seedBigFolder(store: Store, baseUrl: string): Promise<void> {
  const now = Date.now()
  await ensureOwner(store, baseUrl, now)
  const body = new TextEncoder().encode('x')
  for (let i = 0; i < MEMBERS; i++) {
    await writeResource(store, baseUrl, `/big/f${String(i).padStart(5, '0')}.txt`, await binaryContent(store, 'text/plain', body), now)
  }
}

export interface ListingBenchResult { readonly members: number; readonly requests: number; readonly p50Ms: number; readonly maxMs: number }

export async function benchDashboardListing(opts: { requests?: number; print?: boolean } = {}): Promise<ListingBenchResult> {
  setLogLevel('silent')
  const dir = mkdtempSync(join(tmpdir(), 'solopod-bench-dash-'))
  const store = await openStore(dir)
  try {
    await seedBigFolder(store, BASE)
    const deps = makeDeps(buildConfig(['--data', dir, '--base-url', BASE], {}), store, Date.now)
    const handler = makeRequestHandler(buildApp(deps), deps)
    const { setCookie } = await createLoginSession(store, BASE, ownerWebIdOf(BASE) as WebId, 'bench', Date.now())
    const cookie = setCookie.split(';')[0]!
    const times: number[] = []
    const requests = opts.requests ?? 50
    for (let i = 0; i < requests + 5; i++) {
      const after = `/big/f${String((i * 1237) % MEMBERS).padStart(5, '0')}.txt` // pages from all over the container
      const started = performance.now()
      const res = await handler(new Request(`${BASE}/.admin/api/browse?path=/big/&after=${encodeURIComponent(after)}`, { headers: { cookie } }))
      const page = await res.json() as { count: number; items: unknown[] }
      if (res.status !== 200 || page.count !== MEMBERS || page.items.length === 0) throw new Error(`browse answered ${res.status} with ${page.items.length} of ${page.count}`)
      if (i >= 5) times.push(performance.now() - started) // the first few warm the caches
    }
    times.sort((a, b) => a - b)
    const result = { members: MEMBERS, requests, p50Ms: times[Math.floor(times.length / 2)]!, maxMs: times[times.length - 1]! }
    if (opts.print !== false) {
      console.log(`dashboard: one page (100 rows) of a ${MEMBERS}-member container over ${requests} requests: p50 ${result.p50Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms (aim < 100 ms)`)
    }
    return result
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) await benchDashboardListing()
