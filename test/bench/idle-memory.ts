// `bun test/bench/idle-memory.ts [SECONDS] [--only TEXT] [--hold SECONDS]`: runs the bench's pod workloads as
// `bun run bench` does (bench-pods.ts: the same pod, seeds, workloads and DPoP CPU rounds; without the in-process
// benches, which do not touch the pod), SECONDS each (the bench's 5 by default), then reads the idle pod's memory
// 10 and 30 s later by kind of mapping (/proc/PID/smaps), so the bench's "RSS after 30 s idle" can be told apart.

import { readFileSync } from 'node:fs'
import { requestMemoryReport } from '../../src/server/control-socket.ts'
import { WORKLOADS } from './workloads.ts'
import { runPodWorkloads, startBenchPods } from './bench-pods.ts'
import { largestMappings, smapsByKind } from './smaps.ts'

const argv = process.argv.slice(2)
const flag = (name: string) => {
  const i = argv.indexOf(name)
  return i < 0 ? undefined : argv[i + 1]
}
const seconds = Number(argv.find(a => /^\d+$/.test(a)) ?? 5)
const only = flag('--only')
const workloads = WORKLOADS.filter(w => !only || w.name.includes(only) || w.name.startsWith('bare'))

const mb = (kb: number) => (kb / 1024).toFixed(1)
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)

function print(label: string, pid: number) {
  const kinds = smapsByKind(pid)
  const parts = [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, kb]) => `${kind} ${mb(kb)}`)
  console.log(`${label}: RSS ${mb(rssKb(pid))} MB = ${parts.join(', ')}`)
}

const pods = await startBenchPods(workloads, 32)
const pid = pods.pod.proc.pid
try {
  print('started', pid)
  const { results, dpopCpu } = await runPodWorkloads(pods, workloads, { durationMs: seconds * 1000, warmupMs: 1000, concurrency: 32 })
  for (const { workload, result } of results) console.log(`${workload.name}: ${result.rps.toFixed(0)} req/s, ${result.failures} failed`)
  if (dpopCpu)
    console.log(`DPoP CPU rounds: ${dpopCpu.rounds.length}, public ${dpopCpu.publicUs.toFixed(0)} µs, DPoP ${dpopCpu.dpopUs.toFixed(0)} µs per request`)
  print('end of load', pid)
  await Bun.sleep(10_000)
  print('10 s idle', pid)
  const heap = await requestMemoryReport(pods.pod.dataDir)
  await Bun.sleep(20_000)
  print('30 s idle', pid)
  for (const line of largestMappings(pid)) console.log(`  ${line}`)
  const live = await requestMemoryReport(pods.pod.dataDir, { gc: true })
  console.log(`JS heap at 10 s ${heap?.heapMb.toFixed(1)} MB (capacity ${heap?.heapCapacityMb.toFixed(1)}), live at 30 s ${live?.heapMb.toFixed(1)} MB`)
  if (flag('--hold')) {
    console.log(`hold: ${pid} ${pods.pod.dataDir}`)
    await Bun.sleep(Number(flag('--hold')) * 1000)
  }
} finally {
  await pods.dispose()
}
