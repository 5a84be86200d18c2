// `bun run soak [--minutes N] [--rate R]`: a mixed load at a fixed rate on loopback, printing the pod's RSS as it goes.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { startPod } from '../e2e/start-server.ts'
import { dpopProof } from '../op/op-fixture.ts'
import { requestTokens } from '../e2e/oidc-client.ts'
import { openAppSessions } from './app-sessions.ts'
import { BENCH_CONTAINER, type BenchContext } from './workloads.ts'
import { DOC_1K } from './documents.ts'
import { requestMemoryReport } from '../../src/server/control-socket.ts'

const USAGE = 'usage: bun run soak [--minutes N (1-1440, default 10)] [--rate REQUESTS_PER_SECOND (1-2000, default 200)]'
const TURTLE = 'text/turtle'
/** Overwritten in rotation: the live data stays the same size however long the run. */
const DOCS = 500
const INBOX = `${BENCH_CONTAINER}inbox/`
const PRIVATE_DOC = '/private/soak-doc'
/** Requests in flight at most: a stalled pod slows the load instead of piling it up. */
const MAX_IN_FLIGHT = 64
/** Access tokens live 300 s; the soak's session refreshes well before. */
const REFRESH_EVERY_MS = 120_000

function parseFlags(argv: readonly string[]) {
  const number = (flag: string, fallback: number, max: number) => {
    const i = argv.indexOf(flag)
    const n = i < 0 ? fallback : Number(argv[i + 1])
    if (!(n >= 1 && n <= max)) throw new Error(`${flag} must be a number from 1 to ${max}\n${USAGE}`)
    return n
  }
  return { minutes: number('--minutes', 10, 1440), rate: number('--rate', 200, 2000) }
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
const dirMb = (dir: string): number =>
  readdirSync(dir).reduce((sum, f) => {
    const st = statSync(join(dir, f))
    return sum + (st.isDirectory() ? dirMb(join(dir, f)) * 1e6 : st.size)
  }, 0) / 1e6

/** Samples before this are warm-up (caches filling, JIT): the first minute, or the first fifth of a short run. */
const warmupMinutes = (minutes: number) => Math.min(1, minutes / 5)
/** Issue 9 "Memory": RSS stays within ± this of its settled level through the soak. */
const FLAT_AIM_PERCENT = 10

/**
 * Flat means: every RSS sample after the warm-up lies within ± FLAT_AIM_PERCENT of the first one
 * after it. Growth shows up as the last sample (or the highest) leaving that band.
 */
export function flatness(samples: readonly { minute: number; rss: number }[], warmup: number): string {
  const settled = samples.filter(s => s.minute >= warmup)
  if (settled.length < 2) return 'RSS: too few samples after the warm-up to judge flatness'
  const first = settled[0]!.rss
  const last = settled[settled.length - 1]!.rss
  const min = Math.min(...settled.map(s => s.rss))
  const max = Math.max(...settled.map(s => s.rss))
  const pct = (v: number) => `${v >= first ? '+' : ''}${(((v - first) / first) * 100).toFixed(1)} %`
  const flat = max <= first * (1 + FLAT_AIM_PERCENT / 100) && min >= first * (1 - FLAT_AIM_PERCENT / 100)
  return (
    `RSS after the ${warmup.toFixed(1)} min warm-up: first ${first.toFixed(1)} MB, last ${last.toFixed(1)} MB (${pct(last)}), ` +
    `min ${min.toFixed(1)} MB (${pct(min)}), max ${max.toFixed(1)} MB (${pct(max)}); ` +
    `flat (every sample within ± ${FLAT_AIM_PERCENT} % of the first): ${flat ? 'met' : 'not met'}`
  )
}

async function main() {
  const { minutes, rate } = parseFlags(process.argv.slice(2))
  const pod = await startPod({
    extraArgs: ['--log-level', 'warn'],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, BENCH_CONTAINER, ['Read', 'Write'], async store => {
        await writeTurtle(store, baseUrl, INBOX, '')
        await writeTurtle(store, baseUrl, PRIVATE_DOC, DOC_1K)
        for (let i = 0; i < DOCS; i++) await writeTurtle(store, baseUrl, `${BENCH_CONTAINER}doc-${i}`, DOC_1K)
      }),
  })
  const cleanups: (() => Promise<void>)[] = []
  try {
    const origin = `http://127.0.0.1:${pod.port}`
    const ctx: BenchContext = {
      pod: { origin, baseUrl: pod.baseUrl },
      bare: { origin },
      tempDir: () => pod.dataDir,
      onCleanup: fn => {
        cleanups.push(fn)
      },
      concurrency: 1,
    }
    const {
      client,
      sessions: [session],
    } = await openAppSessions(ctx, 1)
    let refreshedAt = Date.now()
    const refresh = async () => {
      const res = await requestTokens(
        `${origin}/.oidc/token`,
        session!.key,
        { grant_type: 'refresh_token', refresh_token: session!.tokens.refresh_token as string, client_id: client.clientId },
        `${pod.baseUrl}/.oidc/token`,
      )
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}`)
      session!.tokens = await res.json()
      refreshedAt = Date.now()
    }

    const posted: string[] = []
    let n = 0
    // One request of the mix: 40% GET, 25% PUT, 10% DPoP GET, 10% POST, 10% DELETE of a POSTed note, 5% listing.
    const one = async (): Promise<string | undefined> => {
      const i = n++
      const pick = i % 20
      const doc = `${origin}${BENCH_CONTAINER}doc-${i % DOCS}`
      let res: Response
      if (pick < 8) res = await fetch(doc, { headers: { accept: TURTLE } })
      else if (pick < 13) res = await fetch(doc, { method: 'PUT', headers: { 'content-type': TURTLE }, body: DOC_1K })
      else if (pick < 15) {
        const token = session!.tokens.access_token as string
        const proof = await dpopProof(session!.key, 'GET', `${pod.baseUrl}${PRIVATE_DOC}`, Date.now(), { accessToken: token })
        res = await fetch(`${origin}${PRIVATE_DOC}`, { headers: { accept: TURTLE, authorization: `DPoP ${token}`, dpop: proof } })
      } else if (pick < 17) {
        res = await fetch(`${origin}${INBOX}`, { method: 'POST', headers: { 'content-type': TURTLE }, body: `<#it> <http://example.org/n> ${i}.` })
        const location = res.headers.get('location')
        if (location) posted.push(location.slice(pod.baseUrl.length))
      } else if (pick < 19) {
        const path = posted.shift()
        if (!path) return undefined
        res = await fetch(`${origin}${path}`, { method: 'DELETE' })
      } else res = await fetch(`${origin}${INBOX}`, { headers: { accept: TURTLE } })
      await res.arrayBuffer()
      return res.status < 400 ? undefined : `${res.status}`
    }

    const startedAt = Date.now()
    const endAt = startedAt + minutes * 60_000
    const sampleEveryMs = Math.max(10_000, Math.min(60_000, minutes * 3_000))
    let inFlight = 0
    let sent = 0
    let failed = 0
    let skipped = 0
    let firstFailure: string | undefined
    const samples: { minute: number; rss: number }[] = []
    const sample = async () => {
      const s = { minute: (Date.now() - startedAt) / 60_000, rss: rssMb(pod.proc.pid) }
      samples.push(s)
      // The JS heap as the pod counts it (no collection forced): what is not heap is native memory.
      const mem = await requestMemoryReport(pod.dataDir)
      const heap = mem ? `JS heap ${mem.heapMb.toFixed(1).padStart(6)} MB (${mem.heapObjects} objects)` : 'JS heap ?'
      console.log(
        `${s.minute.toFixed(1).padStart(6)} min  RSS ${s.rss.toFixed(1).padStart(7)} MB  ${heap}  data ${dirMb(pod.dataDir).toFixed(1).padStart(6)} MB  requests ${sent}  failed ${failed}  skipped ${skipped}`,
      )
    }
    console.log(`soak: ${minutes} min at ${rate} req/s (40% GET, 25% PUT, 10% DPoP GET, 10% POST, 10% DELETE, 5% listing), loopback, pod pid ${pod.proc.pid}`)
    await sample()
    let nextSample = startedAt + sampleEveryMs
    // Ticks of 10 ms, each sending its share of the rate; a tick that finds MAX_IN_FLIGHT busy skips.
    for (let tick = 0; Date.now() < endAt; tick++) {
      if (pod.proc.exitCode !== null) throw new Error(`the pod exited during the soak:\n${pod.output()}`)
      if (Date.now() - refreshedAt > REFRESH_EVERY_MS) await refresh()
      const due = Math.floor(((tick + 1) * rate) / 100) - Math.floor((tick * rate) / 100)
      for (let k = 0; k < due; k++) {
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped++
          continue
        }
        inFlight++
        sent++
        one()
          .then(
            f => {
              if (f) {
                failed++
                firstFailure ??= f
              }
            },
            (err: unknown) => {
              failed++
              firstFailure ??= String(err)
            },
          )
          .finally(() => {
            inFlight--
          })
      }
      if (Date.now() >= nextSample) {
        await sample()
        nextSample += sampleEveryMs
      }
      await Bun.sleep(Math.max(0, startedAt + (tick + 1) * 10 - Date.now()))
    }
    while (inFlight > 0) await Bun.sleep(10)
    await sample()
    console.log('')
    console.log(flatness(samples, warmupMinutes(minutes)))
    console.log(`requests ${sent}, failed ${failed}${firstFailure ? ` (first: ${firstFailure})` : ''}, skipped (pod busy) ${skipped}`)
    if (failed > 0) process.exitCode = 1
  } finally {
    for (const fn of cleanups) await fn()
    await pod.dispose()
  }
}

main().catch(err => {
  console.error(`soak: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
