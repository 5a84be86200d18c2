// Issue 41 "Public GET stays ≥ 0.5 × bare", as a paired measure: the public GET and the bare Bun.serve ceiling in
// alternating rounds, the order turned each round, the aim judged on the median of the rounds' ratios. The line before
// it (one 5 s run each, minutes apart) stays printed: in one CI run it read 49.6 % where alternating rounds on this box
// read 0.54–0.62 for the same code, a neighbour's burst falling on one arm.

import { runLoad, type Operation } from './load.ts'
import { median } from './median.ts'

export interface CeilingRound {
  readonly podRps: number
  readonly bareRps: number
}

export const CEILING_ROUNDS = 5
const ROUND_MS = 2000
const WARMUP_MS = 300

/** `rounds` pairs, each arm `ROUND_MS` at `concurrency`; even rounds the bare server first, odd rounds the pod. */
export async function measurePublicAgainstBare(bare: Operation, pod: Operation, concurrency: number, rounds = CEILING_ROUNDS): Promise<CeilingRound[]> {
  const load = { durationMs: ROUND_MS, warmupMs: WARMUP_MS, concurrency }
  const out: CeilingRound[] = []
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      const bareRps = (await runLoad(bare, load)).rps
      out.push({ bareRps, podRps: (await runLoad(pod, load)).rps })
    } else {
      const podRps = (await runLoad(pod, load)).rps
      out.push({ podRps, bareRps: (await runLoad(bare, load)).rps })
    }
  }
  return out
}

/** One line: each round's ratio, their median against `aim` (a share, 0.5 for 50 %). */
export function formatCeilingPaired(rounds: readonly CeilingRound[], aim: number, podName: string, bareName: string): string {
  const ratios = rounds.map(r => r.podRps / r.bareRps)
  const m = median(ratios)
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`
  return (
    `${podName} / ${bareName}, paired: ${rounds.length} rounds in turn, ${ratios.map(pct).join(', ')}, ` +
    `median ${pct(m)} (aim ≥ ${Math.round(aim * 100)}%: ${m >= aim ? 'met' : 'not met'}; the line above is one run each)`
  )
}
