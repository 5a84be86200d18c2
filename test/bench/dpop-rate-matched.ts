// `bun test/bench/dpop-rate-matched.ts [ROUNDS] [--perf]`: how much of a DPoP GET's cost over a public GET (beyond the
// verification) is the request's, and how much the rate's. Over HTTP, in rounds of 0.7 s: a DPoP GET, then a public GET
// paced to arrive at the rate the DPoP GET just had (the load generator's work per DPoP request slows those to a third or
// a quarter of the public GET's rate), then a public GET at full speed; the pod's CPU per request (every thread, and its
// JS thread) and req/s of each. `--perf`: after the rounds, `perf record` of the pod's JS thread over one 4 s run of each
// arm, split by where the samples fall (the EC verification's code, the rest of Bun, JIT code, the kernel's task switch,
// the rest of the kernel); needs `perf` (docs/performance.md, sixth pass).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runLoad, type Operation } from './load.ts'
import { paced } from './dpop-cpu-bound.ts'
import { startDpopWorkloadPod } from './dpop-workload-pod.ts'
import { mainThreadNanoseconds, nanosecondsBetween, threadNanoseconds } from './process-cpu.ts'

const ROUNDS = Number(process.argv[2] ?? 7)
const withPerf = process.argv.includes('--perf')
const ROUND_MS = 700
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!

interface Arm {
  readonly us: number[]
  readonly js: number[]
  readonly rps: number[]
}

/** Where `--perf` keeps its recordings. */
const scratch = mkdtempSync(join(tmpdir(), 'solopod-rate-matched-'))
const { pod, publicGet, dpopGet, dispose } = await startDpopWorkloadPod(2000)
const pid = pod.proc.pid
async function measure(op: Operation, into: Arm): Promise<number> {
  const t0 = threadNanoseconds(pid)
  const js0 = mainThreadNanoseconds(pid)
  const r = await runLoad(op, { concurrency: 32, durationMs: ROUND_MS, warmupMs: 0 })
  if (r.failures > 0) throw new Error(`a request failed: ${r.firstFailure}`)
  into.us.push(nanosecondsBetween(t0, threadNanoseconds(pid)) / 1e3 / r.requests)
  into.js.push((mainThreadNanoseconds(pid) - js0) / 1e3 / r.requests)
  into.rps.push(r.rps)
  return r.rps
}
try {
  const arms: [string, Arm][] = [
    ['DPoP GET', { us: [], js: [], rps: [] }],
    ["public GET at the DPoP GET's rate", { us: [], js: [], rps: [] }],
    ['public GET at full speed', { us: [], js: [], rps: [] }],
  ]
  for (let round = 0; round < ROUNDS; round++) {
    const dpopRps = await measure(dpopGet, arms[0]![1])
    await measure(paced(publicGet, dpopRps), arms[1]![1])
    await measure(publicGet, arms[2]![1])
  }
  for (const [name, s] of arms)
    console.log(
      `${name}: pod ${median(s.us).toFixed(0)} µs/req (JS thread ${median(s.js).toFixed(0)}), ${median(s.rps).toFixed(0)} req/s, medians of ${ROUNDS}; ` +
        `rounds ${s.us.map((u, i) => `${u.toFixed(0)}(${s.js[i]!.toFixed(0)})@${s.rps[i]!.toFixed(0)}`).join(' ')}`,
    )
  // Paced operations are made when their run starts: pacing counts from the moment it is made
  if (withPerf)
    await perfSplit(
      () => dpopGet,
      () => paced(publicGet, median(arms[0]![1].rps)),
      () => publicGet,
    )
} finally {
  await dispose()
  rmSync(scratch, { recursive: true, force: true })
}

/** One `perf record` of the pod's JS thread per arm, its samples per request by where they fall. */
async function perfSplit(...ops: (() => Operation)[]) {
  const names = ['DPoP GET', 'public GET, DPoP rate', 'public GET, full speed']
  const split: Map<string, number>[] = []
  for (const op of ops) {
    const data = join(scratch, `arm-${split.length}.perf`)
    const perf = Bun.spawn(['perf', 'record', '-F', '2000', '-t', String(pid), '-o', data], { stdout: 'ignore', stderr: 'ignore' })
    await Bun.sleep(300)
    const r = await runLoad(op(), { concurrency: 32, durationMs: 4000, warmupMs: 0 })
    perf.kill('SIGINT')
    await perf.exited
    const report = Bun.spawnSync(['perf', 'report', '-i', data, '--no-children', '--sort', 'dso,sym', '-n', '-q', '-g', 'none']).stdout.toString()
    const m = new Map<string, number>()
    for (const line of report.split('\n')) {
      const [, , samples, dso, , sym] = line.split(/\s+/)
      if (!samples || !dso || !sym) continue
      const where =
        dso === 'bun.exe'
          ? // Bun is stripped: its P-256 arithmetic is the one code range a verification loop alone spends ~92 % of its samples in
            sym.startsWith('0x') && Number.parseInt(sym, 16) >>> 20 === 0x25
            ? 'Bun: EC verification (0x25xxxxx)'
            : 'Bun: everything else'
          : dso.startsWith('[JIT]')
            ? 'JIT code'
            : dso === '[kernel.kallsyms]'
              ? sym.startsWith('finish_task_switch')
                ? 'kernel: task switch'
                : 'kernel: the rest'
              : 'libc, vdso'
      m.set(where, (m.get(where) ?? 0) + (Number(samples) * 500) / r.requests)
    }
    split.push(m)
  }
  const rows = [...new Set(split.flatMap(m => [...m.keys()]))].sort()
  console.log(`perf, µs of the JS thread per request: ${names.join(' | ')}`)
  for (const row of [...rows, 'total'])
    console.log(`  ${row}: ${split.map(m => (row === 'total' ? [...m.values()].reduce((a, b) => a + b, 0) : (m.get(row) ?? 0)).toFixed(1)).join(' | ')}`)
}
