// The bench's servers and its pod workloads, as `bun run bench` (run.ts) runs them and idle-memory.ts repeats them:
// the pod with every chosen workload's seeds below the public /bench/ container, the bare Bun.serve ceiling beside it,
// then the workloads in order, the public GET against the bare ceiling in alternating rounds (public-ceiling-paired.ts)
// and the DPoP CPU rounds (dpop-cpu-bound.ts), so what the idle pod holds afterwards is
// what the bench's "RSS after 30 s idle" reads.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { runLoad, type LoadOptions, type LoadResult } from './load.ts'
import { BENCH_CONTAINER, type BenchContext, type Workload } from './workloads.ts'
import { startBare } from './bare-process.ts'
import { measureDpopCpuBound, type DpopCpuBound } from './dpop-cpu-bound.ts'
import { measurePublicAgainstBare, type CeilingRound } from './public-ceiling-paired.ts'

export const PUBLIC_GET = 'public GET 1 KB Turtle'
export const DPOP_GET = 'DPoP GET 1 KB Turtle (owner)'

export interface BenchPods {
  readonly pod: RunningPod
  readonly ctx: BenchContext
  /** Runs the workloads' cleanups, stops both servers and removes the scratch directory. */
  dispose(): Promise<void>
}

/** Starts the pod, seeded for `workloads`, and the bare ceiling; `concurrency` is the context's (--concurrency). */
export async function startBenchPods(workloads: readonly Workload[], concurrency: number): Promise<BenchPods> {
  const scratch = mkdtempSync(join(tmpdir(), 'solopod-bench-'))
  const cleanups: (() => Promise<void>)[] = []
  let pod: RunningPod | undefined
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  const dispose = async () => {
    for (const fn of cleanups) await fn()
    rmSync(scratch, { recursive: true, force: true })
    await bare?.stop()
    await pod?.dispose()
  }
  try {
    pod = await startPod({
      extraArgs: ['--log-level', 'warn'],
      seed: (dataDir, baseUrl) =>
        seedPublicContainer(dataDir, baseUrl, BENCH_CONTAINER, ['Read', 'Write'], async store => {
          for (const w of workloads) await w.seed?.(store, baseUrl)
        }),
    })
    bare = await startBare('bare-server.ts')
  } catch (err) {
    await dispose()
    throw err
  }
  const ctx: BenchContext = {
    pod: { origin: `http://127.0.0.1:${pod.port}`, baseUrl: pod.baseUrl },
    bare: { origin: bare.origin },
    tempDir: () => mkdtempSync(join(scratch, 'w-')),
    onCleanup: fn => {
      cleanups.push(fn)
    },
    concurrency,
  }
  return { pod, ctx, dispose }
}

export interface PodWorkloadRun {
  readonly results: readonly { workload: Workload; result: LoadResult }[]
  /** The DPoP CPU rounds, when both GETs they alternate were among the workloads. */
  readonly dpopCpu?: DpopCpuBound
  /** The public GET against its bare ceiling in alternating rounds, when both were among the workloads. */
  readonly publicPaired?: readonly CeilingRound[]
}

/**
 * Each workload in turn at `load`'s duration (its own concurrency where it names one), then, when the public GET and
 * its bare ceiling both ran, their alternating rounds; when the public and DPoP GETs both ran, the alternating CPU
 * rounds of dpop-cpu-bound.ts with a fresh DPoP operation (its proofs
 * presigned and no older than the pod accepts). `progress` hears what starts.
 */
export async function runPodWorkloads(
  { pod, ctx }: BenchPods,
  workloads: readonly Workload[],
  load: LoadOptions,
  progress: (what: string) => void = () => {},
): Promise<PodWorkloadRun> {
  const results: { workload: Workload; result: LoadResult }[] = []
  for (const workload of workloads) {
    progress(`running ${workload.name} …`)
    results.push({ workload, result: await runLoad(await workload.prepare(ctx), { ...load, concurrency: workload.concurrency ?? load.concurrency }) })
    if (pod.proc.exitCode !== null) throw new Error(`the pod exited during "${workload.name}":\n${pod.output()}`)
  }
  const publicWorkload = workloads.find(w => w.name === PUBLIC_GET)
  const dpopWorkload = workloads.find(w => w.name === DPOP_GET)
  const bareWorkload = workloads.find(w => w.name === publicWorkload?.ceiling)
  let publicPaired: readonly CeilingRound[] | undefined
  if (publicWorkload && bareWorkload) {
    progress('measuring the public GET against its bare ceiling, alternating rounds …')
    publicPaired = await measurePublicAgainstBare(await bareWorkload.prepare(ctx), await publicWorkload.prepare(ctx), load.concurrency)
  }
  const paired = publicPaired ? { publicPaired } : {}
  if (!publicWorkload || !dpopWorkload) return { results, ...paired }
  progress("measuring the pod's CPU per public and DPoP GET, alternating rounds …")
  return {
    results,
    ...paired,
    dpopCpu: await measureDpopCpuBound(pod.proc.pid, await publicWorkload.prepare(ctx), await dpopWorkload.prepare(ctx), load.concurrency),
  }
}
