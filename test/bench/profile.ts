// `bun test/bench/profile.ts NAME [SECONDS]`: one workload against a pod started with Bun's CPU profiler; the profile
// (Markdown, grep-friendly) is written to --cpu-prof-dir when the pod exits. Noise-free where req/s on a shared machine is not.

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod } from '../e2e/start-server.ts'
import { runLoad } from './load.ts'
import { cpuSeconds, threadSeconds } from './process-cpu.ts'
import { BENCH_CONTAINER, WORKLOADS, type BenchContext } from './workloads.ts'

const [name, seconds = '5', where] = process.argv.slice(2)
// `--cpu-only`: no profiler (its sampling costs the pod too), only the CPU time per request
const profile = where !== '--cpu-only'
const dir = where && profile ? where : mkdtempSync(join(tmpdir(), 'solopod-profile-'))
// The exact name first; else the first pod workload naming it ("GET 1 KB" would otherwise pick the bare server's,
// which this script does not start: its origin here is a closed port).
const workload = WORKLOADS.find(w => w.name === name) ?? WORKLOADS.find(w => name !== undefined && w.name.includes(name) && !w.name.startsWith('bare '))
if (!workload) throw new Error(`usage: bun test/bench/profile.ts NAME [SECONDS] [DIR]; known: ${WORKLOADS.map(w => w.name).join('; ')}`)
// The pod alone is profiled: BUN_OPTIONS reaches the process startPod spawns, not this one.
if (profile) process.env.BUN_OPTIONS = `--cpu-prof --cpu-prof-md --cpu-prof-dir=${dir}`
const pod = await startPod({
  extraArgs: ['--log-level', 'warn'],
  seed: (dataDir, baseUrl) => seedPublicContainer(dataDir, baseUrl, BENCH_CONTAINER, ['Read', 'Write'], async store => workload.seed?.(store, baseUrl)),
})
delete process.env.BUN_OPTIONS
const cleanups: (() => Promise<void>)[] = []
try {
  const ctx: BenchContext = {
    pod: { origin: `http://127.0.0.1:${pod.port}`, baseUrl: pod.baseUrl },
    bare: { origin: 'http://127.0.0.1:9' },
    tempDir: () => mkdtempSync(join(dir, 'w-')),
    onCleanup: fn => void cleanups.push(fn),
    concurrency: 32,
  }
  const op = await workload.prepare(ctx)
  const podCpu0 = cpuSeconds(pod.proc.pid)
  const threads0 = threadSeconds(pod.proc.pid)
  const self0 = process.cpuUsage()
  const result = await runLoad(op, { concurrency: workload.concurrency ?? 32, durationMs: Number(seconds) * 1000, warmupMs: 1000 })
  const self = process.cpuUsage(self0)
  // CPU time per request, which a busy shared machine changes far less than req/s (the warm-up's requests are counted by rate)
  const requests = result.requests * (1 + 1000 / (Number(seconds) * 1000))
  const us = (s: number) => ((s / requests) * 1e6).toFixed(0)
  console.log(
    `${workload.name}: ${result.rps.toFixed(0)} req/s, ${result.failures} failed; CPU per request: pod ${us(cpuSeconds(pod.proc.pid) - podCpu0)} µs, ` +
      `load generator ${us((self.user + self.system) / 1e6)} µs; ${profile ? `profile in ${dir}` : 'not profiled'}`,
  )
  const threads = [...threadSeconds(pod.proc.pid)].map(([thread, s]) => [thread, s - (threads0.get(thread) ?? 0)] as const).filter(([, s]) => s > 0)
  console.log(`pod threads, CPU µs per request: ${threads.map(([thread, s]) => `${thread} ${us(s)}`).join(', ')}`)
} finally {
  for (const fn of cleanups) await fn()
  await pod.dispose()
}
