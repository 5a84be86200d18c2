// `bun test/bench/idle-memory.ts [SECONDS] [--only TEXT] [--env K=V …]`: runs the bench's pod workloads (as
// `bun run bench` does, without the in-process benches), then reads the idle pod's memory 10 and 30 s later
// by kind of mapping (/proc/PID/smaps), so the bench's "RSS after 30 s idle" can be told apart.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod } from '../e2e/start-server.ts'
import { runLoad } from './load.ts'
import { requestMemoryReport } from '../../src/server/control-socket.ts'
import { BENCH_CONTAINER, WORKLOADS, type BenchContext } from './workloads.ts'
import { startBare } from './bare-process.ts'
import { largestMappings, smapsByKind } from './smaps.ts'

const argv = process.argv.slice(2)
const flag = (name: string) => {
  const i = argv.indexOf(name)
  return i < 0 ? undefined : argv[i + 1]
}
const seconds = Number(argv.find(a => /^\d+$/.test(a)) ?? 3)
const only = flag('--only')
const workloads = WORKLOADS.filter(w => !only || w.name.includes(only) || w.name.startsWith('bare'))

const mb = (kb: number) => (kb / 1024).toFixed(1)
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)

function print(label: string, pid: number) {
  const kinds = smapsByKind(pid)
  const parts = [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, kb]) => `${kind} ${mb(kb)}`)
  console.log(`${label}: RSS ${mb(rssKb(pid))} MB = ${parts.join(', ')}`)
}

const scratch = mkdtempSync(join(tmpdir(), 'solopod-idle-'))
const cleanups: (() => Promise<void>)[] = []
const pod = await startPod({
  extraArgs: ['--log-level', 'warn'],
  seed: (dataDir, baseUrl) =>
    seedPublicContainer(dataDir, baseUrl, BENCH_CONTAINER, ['Read', 'Write'], async store => {
      for (const w of workloads) await w.seed?.(store, baseUrl)
    }),
})
const bare = await startBare('bare-server.ts')
try {
  const ctx: BenchContext = {
    pod: { origin: `http://127.0.0.1:${pod.port}`, baseUrl: pod.baseUrl },
    bare: { origin: bare.origin },
    tempDir: () => mkdtempSync(join(scratch, 'w-')),
    onCleanup: fn => {
      cleanups.push(fn)
    },
    concurrency: 32,
  }
  print('started', pod.proc.pid)
  for (const w of workloads) {
    const r = await runLoad(await w.prepare(ctx), { durationMs: seconds * 1000, warmupMs: 1000, concurrency: w.concurrency ?? 32 })
    console.log(`${w.name}: ${r.rps.toFixed(0)} req/s, ${r.failures} failed`)
  }
  print('end of load', pod.proc.pid)
  await Bun.sleep(10_000)
  print('10 s idle', pod.proc.pid)
  const heap = await requestMemoryReport(pod.dataDir)
  await Bun.sleep(20_000)
  print('30 s idle', pod.proc.pid)
  for (const line of largestMappings(pod.proc.pid)) console.log(`  ${line}`)
  const live = await requestMemoryReport(pod.dataDir, { gc: true })
  console.log(`JS heap at 10 s ${heap?.heapMb.toFixed(1)} MB (capacity ${heap?.heapCapacityMb.toFixed(1)}), live at 30 s ${live?.heapMb.toFixed(1)} MB`)
  if (flag('--hold')) {
    console.log(`hold: ${pod.proc.pid} ${pod.dataDir}`)
    await Bun.sleep(Number(flag('--hold')) * 1000)
  }
} finally {
  for (const fn of cleanups) await fn()
  rmSync(scratch, { recursive: true, force: true })
  await bare.stop()
  await pod.dispose()
}
