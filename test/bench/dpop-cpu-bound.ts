// Issue 41 read from the pod's CPU: what a DPoP GET costs the pod against a public GET plus one ES256 verification,
// measured in alternating rounds (as test/bench/versions.ts does for PUTs), so the load generator's own work and a
// neighbour's burst weigh on neither side.

import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { mainThreadNanoseconds, nanosecondsBetween, threadNanoseconds } from './process-cpu.ts'
import { runLoad, type Operation } from './load.ts'

export interface DpopCpuRound {
  /** The pod's CPU (every thread) per request over the round, µs. */
  readonly publicUs: number
  readonly dpopUs: number
  /** Of it, the pod's JavaScript thread (where the request handling and the verification run; the rest is JIT, collector and I/O threads). */
  readonly publicJsUs: number
  readonly dpopJsUs: number
  /** This process's CPU per ES256 verification, each a different signature, µs. */
  readonly verifyUs: number
  /** req/s of each arm in this round. */
  readonly publicRps: number
  readonly dpopRps: number
  /**
   * The public GET again, paced to this round's DPoP GET rate (`pacedPublicRps`): the pod's CPU per request grows as its
   * rate falls (more wake-ups and per-second work per request), and the generator's work per DPoP request holds those to a
   * third or a quarter of the public GET's rate (docs/performance.md, sixth pass).
   */
  readonly pacedPublicUs: number
  readonly pacedPublicJsUs: number
  readonly pacedPublicRps: number
}

export interface DpopCpuBound {
  readonly rounds: readonly DpopCpuRound[]
  /** Each round's (public GET CPU + one verification) / DPoP GET CPU, in round order. */
  readonly ratios: readonly number[]
  /** The median of `ratios`: what the aim is judged on. */
  readonly medianRatio: number
  /** The medians of each column, for the report. */
  readonly publicUs: number
  readonly dpopUs: number
  readonly verifyUs: number
  /** The req/s ratio of the same rounds against the same bound, median: the req/s reading, steadied. */
  readonly medianRpsRatio: number
  /** Each round's (public GET CPU at the DPoP GET's rate + one verification) / DPoP GET CPU; printed beside, not instead. */
  readonly rateMatchedRatios: readonly number[]
  readonly medianRateMatchedRatio: number
  readonly pacedPublicUs: number
}

/**
 * Odd, so the median is one round's. 7 × 0.7 s of DPoP GETs stay within the workload's presigned proofs at ~6.5k req/s
 * (workloads.ts; past them the generator signs on the fly, which slows it, not the pod's CPU per request).
 */
const ROUNDS = 7
const ROUND_MS = 700
const WARMUP_MS = 300
/** Verifications per round, timed on this process (~50 µs each: ~0.1 s, thousands of 1 µs getrusage steps). */
const VERIFICATIONS = 2000

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!

/** `op` started at most `rps` times a second, however many loops drive it. */
export function paced(op: Operation, rps: number): Operation {
  const t0 = performance.now()
  let slot = 0
  return async i => {
    const wait = t0 + (slot++ * 1000) / rps - performance.now()
    if (wait > 0) await Bun.sleep(wait)
    return op(i)
  }
}

/** The pod's CPU per request of one op over one round, and its req/s. */
async function podRound(pid: number, op: Operation, concurrency: number): Promise<{ us: number; jsUs: number; rps: number }> {
  const cpu0 = threadNanoseconds(pid)
  const js0 = mainThreadNanoseconds(pid)
  const r = await runLoad(op, { concurrency, durationMs: ROUND_MS, warmupMs: 0 })
  if (r.failures > 0) throw new Error(`a request failed: ${r.firstFailure}`)
  return { us: nanosecondsBetween(cpu0, threadNanoseconds(pid)) / 1e3 / r.requests, jsUs: (mainThreadNanoseconds(pid) - js0) / 1e3 / r.requests, rps: r.rps }
}

/**
 * CPU of one ES256 verification on this process, as the pod verifies a proof (node:crypto, a KeyObject, IEEE P1363
 * signatures), of different signatures in turn: getrusage's CPU, not wall time, so a neighbour taking the core
 * between two calls is not counted.
 */
function verifier(): () => number {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const signed = Buffer.from('x'.repeat(600))
  const signatures = Array.from({ length: 1024 }, () => sign('sha256', signed, { key: privateKey, dsaEncoding: 'ieee-p1363' }))
  let n = 0
  const once = () => {
    if (!verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signatures[n++ % signatures.length]!)) throw new Error('ES256 did not verify')
  }
  for (let i = 0; i < 200; i++) once()
  return () => {
    const u0 = process.cpuUsage()
    for (let i = 0; i < VERIFICATIONS; i++) once()
    const u = process.cpuUsage(u0)
    return (u.user + u.system) / VERIFICATIONS
  }
}

/**
 * Public and DPoP GETs take turns in short rounds, public-DPoP then DPoP-public (a drift in the machine's load falls
 * on both), each round with its own timing of the verification. The ops should be warm (the bench's own runs of the
 * two workloads are).
 */
export async function measureDpopCpuBound(pid: number, publicGet: Operation, dpopGet: Operation, concurrency: number): Promise<DpopCpuBound> {
  const verifyUs = verifier()
  // The DPoP op may be new (its token's first verification, its proofs' keys): a short unmeasured run of each first.
  for (const op of [publicGet, dpopGet]) await runLoad(op, { concurrency, durationMs: WARMUP_MS, warmupMs: 0 })
  const rounds: DpopCpuRound[] = []
  for (let i = 0; i < ROUNDS; i++) {
    let pub = { us: 0, jsUs: 0, rps: 0 }
    let dpop = { us: 0, jsUs: 0, rps: 0 }
    for (const arm of i % 2 === 0 ? (['public', 'dpop'] as const) : (['dpop', 'public'] as const)) {
      if (arm === 'public') pub = await podRound(pid, publicGet, concurrency)
      else dpop = await podRound(pid, dpopGet, concurrency)
    }
    // After the two arms, so the old reading's rounds are as they were
    const pacedPublic = await podRound(pid, paced(publicGet, dpop.rps), concurrency)
    rounds.push({
      publicUs: pub.us,
      dpopUs: dpop.us,
      publicJsUs: pub.jsUs,
      dpopJsUs: dpop.jsUs,
      verifyUs: verifyUs(),
      publicRps: pub.rps,
      dpopRps: dpop.rps,
      pacedPublicUs: pacedPublic.us,
      pacedPublicJsUs: pacedPublic.jsUs,
      pacedPublicRps: pacedPublic.rps,
    })
  }
  const ratios = rounds.map(r => (r.publicUs + r.verifyUs) / r.dpopUs)
  const rateMatchedRatios = rounds.map(r => (r.pacedPublicUs + r.verifyUs) / r.dpopUs)
  return {
    rounds,
    ratios,
    medianRatio: median(ratios),
    publicUs: median(rounds.map(r => r.publicUs)),
    dpopUs: median(rounds.map(r => r.dpopUs)),
    verifyUs: median(rounds.map(r => r.verifyUs)),
    // The bound in req/s with the verification at this round's CPU cost (a rate of 1e6/µs on one core).
    medianRpsRatio: median(rounds.map(r => r.dpopRps / (1 / (1 / r.publicRps + r.verifyUs / 1e6)))),
    rateMatchedRatios,
    medianRateMatchedRatio: median(rateMatchedRatios),
    pacedPublicUs: median(rounds.map(r => r.pacedPublicUs)),
  }
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-')

/** The report's line: the CPU ratio the aim is judged on, and why. */
export function formatDpopCpuBound(m: DpopCpuBound, aim: number): string {
  return (
    `DPoP GET / signature-check bound, pod CPU per request: ${fmt(m.medianRatio, 2)} (aim ≥ ${aim}: ${m.medianRatio >= aim ? 'met' : 'not met'}; ` +
    `the reading the aim is judged on: the pod's own cost, which the load generator sharing its cores does not enter) = ` +
    `(${fmt(m.publicUs)} µs public GET + ${fmt(m.verifyUs, 1)} µs one ES256 verification) / ${fmt(m.dpopUs)} µs DPoP GET, ` +
    `median of ${m.ratios.length} alternating rounds of ${ROUND_MS / 1000} s each, CPU of every pod thread (${fmt(Math.min(...m.ratios), 2)}–${fmt(Math.max(...m.ratios), 2)}); ` +
    `req/s in the same rounds against the same bound: ${fmt(m.medianRpsRatio, 2)}`
  )
}

/**
 * A second reading beside the first (which stays the line the aim was set on): the public GET's CPU taken at the DPoP
 * GET's own request rate in the same round, so the two sides of the ratio are served at the same rate.
 */
export function formatDpopCpuBoundRateMatched(m: DpopCpuBound, aim: number): string {
  return (
    `DPoP GET / signature-check bound, pod CPU per request, the public GET at the DPoP GET's rate: ${fmt(m.medianRateMatchedRatio, 2)} ` +
    `(aim ≥ ${aim}, printed beside the line above, not instead of it) = (${fmt(m.pacedPublicUs)} µs public GET paced to the DPoP GET's req/s + ` +
    `${fmt(m.verifyUs, 1)} µs one ES256 verification) / ${fmt(m.dpopUs)} µs DPoP GET, median of the same ${m.rateMatchedRatios.length} rounds ` +
    `(${fmt(Math.min(...m.rateMatchedRatios), 2)}–${fmt(Math.max(...m.rateMatchedRatios), 2)})`
  )
}

/** `bun test/bench/dpop-cpu-bound.ts [SECONDS]`: a pod with the two workloads alone, each run warm for SECONDS, then the rounds. */
async function main() {
  const { startDpopWorkloadPod } = await import('./dpop-workload-pod.ts')
  const { pod, publicGet, dpopGet, dispose } = await startDpopWorkloadPod(Number(process.argv[2] ?? 2) * 1000)
  try {
    const m = await measureDpopCpuBound(pod.proc.pid, publicGet, dpopGet, 32)
    console.log(formatDpopCpuBound(m, 0.8))
    console.log(formatDpopCpuBoundRateMatched(m, 0.8))
    console.log(
      `rounds (public µs (JS thread), DPoP µs (JS thread), verify µs, ratio, req/s; public paced to the DPoP rate µs (JS thread), ratio, req/s): ${m.rounds.map((r, i) => `${fmt(r.publicUs)}(${fmt(r.publicJsUs)})/${fmt(r.dpopUs)}(${fmt(r.dpopJsUs)})/${fmt(r.verifyUs, 1)}/${fmt(m.ratios[i]!, 2)} ${fmt(r.publicRps)}/${fmt(r.dpopRps)} req/s; ${fmt(r.pacedPublicUs)}(${fmt(r.pacedPublicJsUs)})/${fmt(m.rateMatchedRatios[i]!, 2)} ${fmt(r.pacedPublicRps)} req/s`).join(' ')}`,
    )
  } finally {
    await dispose()
  }
}

if (import.meta.main) await main()
