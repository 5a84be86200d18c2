// Issue 41 read from the pod's CPU: what a DPoP GET costs the pod against a public GET plus one ES256 verification,
// measured in alternating rounds (as test/bench/versions.ts does for PUTs), so the load generator's own work and a
// neighbour's burst weigh on neither side.

import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { cpuNanoseconds } from './process-cpu.ts'
import { runLoad, type Operation } from './load.ts'

export interface DpopCpuRound {
  /** The pod's CPU (every thread) per request over the round, µs. */
  readonly publicUs: number
  readonly dpopUs: number
  /** This process's CPU per ES256 verification, each a different signature, µs. */
  readonly verifyUs: number
  /** req/s of each arm in this round. */
  readonly publicRps: number
  readonly dpopRps: number
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

/** The pod's CPU per request of one op over one round, and its req/s. */
async function podRound(pid: number, op: Operation, concurrency: number): Promise<{ us: number; rps: number }> {
  const cpu0 = cpuNanoseconds(pid)
  const r = await runLoad(op, { concurrency, durationMs: ROUND_MS, warmupMs: 0 })
  if (r.failures > 0) throw new Error(`a request failed: ${r.firstFailure}`)
  return { us: (cpuNanoseconds(pid) - cpu0) / 1e3 / r.requests, rps: r.rps }
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
    let pub = { us: 0, rps: 0 }
    let dpop = { us: 0, rps: 0 }
    for (const arm of i % 2 === 0 ? (['public', 'dpop'] as const) : (['dpop', 'public'] as const)) {
      if (arm === 'public') pub = await podRound(pid, publicGet, concurrency)
      else dpop = await podRound(pid, dpopGet, concurrency)
    }
    rounds.push({ publicUs: pub.us, dpopUs: dpop.us, verifyUs: verifyUs(), publicRps: pub.rps, dpopRps: dpop.rps })
  }
  const ratios = rounds.map(r => (r.publicUs + r.verifyUs) / r.dpopUs)
  return {
    rounds,
    ratios,
    medianRatio: median(ratios),
    publicUs: median(rounds.map(r => r.publicUs)),
    dpopUs: median(rounds.map(r => r.dpopUs)),
    verifyUs: median(rounds.map(r => r.verifyUs)),
    // The bound in req/s with the verification at this round's CPU cost (a rate of 1e6/µs on one core).
    medianRpsRatio: median(rounds.map(r => r.dpopRps / (1 / (1 / r.publicRps + r.verifyUs / 1e6)))),
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
