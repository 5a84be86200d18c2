// `bun test/bench/dpop-jit-watch.ts [ROUNDS] [ROUND-SECONDS]`: over HTTP, a pod started with JSC's compile log
// (`BUN_JSC_reportCompileTimes=1`) serves public and DPoP GETs in alternating rounds; each round prints the pod's CPU per
// request thread by thread (JS thread, JIT workers, the rest) and what JSC compiled meanwhile (tier and function), to see
// which of the DPoP path's functions are still being compiled, and how often again, long after start (docs/performance.md,
// sixth pass).
import { readFileSync } from 'node:fs'
import { runLoad } from './load.ts'
import { startDpopWorkloadPod } from './dpop-workload-pod.ts'
import { threadNanoseconds } from './process-cpu.ts'

const ROUNDS = Number(process.argv[2] ?? 10)
const ROUND_MS = Number(process.argv[3] ?? 1) * 1000
// The pod inherits the environment: its JSC logs each compilation to its stderr.
process.env.BUN_JSC_reportCompileTimes = '1'
const { pod, publicGet, dpopGet, dispose } = await startDpopWorkloadPod(0)
delete process.env.BUN_JSC_reportCompileTimes
/** Thread CPU ns summed by kind: the JS thread (named after the executable), JIT workers, everything else. */
function byKind(before: Map<string, number>, after: Map<string, number>) {
  const kinds = { js: 0, jit: 0, other: 0 }
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0)
    if (Number(k) === pod.proc.pid) kinds.js += d
    else if (threadName(k).startsWith('JITWorker')) kinds.jit += d
    else kinds.other += d
  }
  return kinds
}
const names = new Map<string, string>()
/** A thread's name (`comm`), read once: JSC names its compiler threads `JITWorker`. */
function threadName(tid: string): string {
  let name = names.get(tid)
  if (name === undefined) {
    try {
      name = readFileSync(`/proc/${pod.proc.pid}/task/${tid}/comm`, 'utf8').trim()
    } catch {
      name = '' // the thread ended meanwhile
    }
    names.set(tid, name)
  }
  return name
}
/** Compile-log lines since `from`: "Optimized foo#ABC using FTLMode ..." and the like, counted by tier and function. */
function compiled(from: number): { lines: number; top: string } {
  const lines = pod
    .stderr()
    .slice(from)
    .split('\n')
    .filter(l => /Optimized|Compiled/.test(l))
  const counts = new Map<string, number>()
  for (const l of lines) {
    const m = /(?:Optimized|Compiled) (\S+?)#\S* .*?using (\w+)/.exec(l)
    const key = m ? `${m[2]} ${m[1]}` : l.slice(0, 60)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([k, n]) => `${k}${n > 1 ? `×${n}` : ''}`)
  return { lines: lines.length, top: top.join(', ') }
}
try {
  const ops = [publicGet, dpopGet]
  const total = [0, 0]
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, op] of ops.entries()) {
      const t0 = threadNanoseconds(pod.proc.pid)
      const log0 = pod.stderr().length
      const r = await runLoad(op, { concurrency: 32, durationMs: ROUND_MS, warmupMs: 0 })
      const k = byKind(t0, threadNanoseconds(pod.proc.pid))
      total[i]! += r.requests
      const per = (ns: number) => (ns / 1e3 / r.requests).toFixed(0)
      const c = compiled(log0)
      console.log(
        `round ${round} ${i === 0 ? 'public' : 'DPoP  '} ${r.requests} req (${total[i]} so far), µs/req JS ${per(k.js)} JIT ${per(k.jit)} other ${per(k.other)}; ${c.lines} compilations${c.lines ? `: ${c.top}` : ''}`,
      )
    }
  }
} finally {
  await dispose()
}
