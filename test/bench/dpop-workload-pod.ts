// A pod seeded for the public and the DPoP GET workloads of workloads.ts alone, with the two prepared: what the DPoP
// CPU tools (dpop-cpu-bound.ts, dpop-rate-matched.ts, dpop-jit-watch.ts) measure against, started one way.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { runLoad, type Operation } from './load.ts'
import { BENCH_CONTAINER, WORKLOADS } from './workloads.ts'

export interface DpopWorkloadPod {
  readonly pod: RunningPod
  readonly publicGet: Operation
  readonly dpopGet: Operation
  /** Stops the pod and removes what the workloads made. */
  dispose(): Promise<void>
}

/** Starts the pod, runs each of the two workloads for `warmMs` (none with 0), and prepares both for the caller's rounds. */
export async function startDpopWorkloadPod(warmMs: number): Promise<DpopWorkloadPod> {
  const chosen = ['public GET 1 KB Turtle', 'DPoP GET 1 KB Turtle (owner)'].map(name => WORKLOADS.find(w => w.name === name)!)
  const scratch = mkdtempSync(join(tmpdir(), 'solopod-dpop-pod-'))
  const cleanups: (() => Promise<void>)[] = []
  const pod = await startPod({
    extraArgs: ['--log-level', 'warn'],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, BENCH_CONTAINER, ['Read', 'Write'], async store => {
        for (const w of chosen) await w.seed?.(store, baseUrl)
      }),
  })
  const dispose = async () => {
    for (const fn of cleanups) await fn()
    await pod.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
  try {
    const ctx = {
      pod: { origin: `http://127.0.0.1:${pod.port}`, baseUrl: pod.baseUrl },
      bare: { origin: 'http://127.0.0.1:9' },
      tempDir: () => mkdtempSync(join(scratch, 'w-')),
      onCleanup: (fn: () => Promise<void>) => void cleanups.push(fn),
      concurrency: 32,
    }
    if (warmMs > 0) for (const w of chosen) await runLoad(await w.prepare(ctx), { concurrency: 32, durationMs: warmMs, warmupMs: 0 })
    return { pod, publicGet: await chosen[0]!.prepare(ctx), dpopGet: await chosen[1]!.prepare(ctx), dispose }
  } catch (err) {
    await dispose()
    throw err
  }
}
