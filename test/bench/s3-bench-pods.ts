// What the object-store CPU benches (s3-upload-cpu.ts, s3-download-cpu.ts) share: their arguments
// (`[MiB] [ROUNDS] [ROOT …]`) and one pod per source tree on one Ceph RGW, each with its own prefix in the bucket,
// under Bun's sampling profiler when PROFILE_DIR is set.

import { join, resolve } from 'node:path'
import { s3Args } from '../s3/pod-on-ceph.ts'
import type { CephRgw } from '../s3/ceph-rgw.ts'
import { MIB } from '../e2e/large-bodies.ts'
import type { RunningPod, StartOptions } from '../e2e/start-server.ts'

export function s3BenchArgs(argv: readonly string[]) {
  const [mibArg = '256', roundsArg = '3', ...rootArgs] = argv
  const mib = Number(mibArg)
  return {
    mib,
    rounds: Number(roundsArg),
    bytes: mib * MIB,
    roots: rootArgs.length > 0 ? rootArgs.map(r => resolve(r)) : [resolve(import.meta.dir, '..', '..')],
  }
}

/** A pod of each source tree (its own start-server.ts and seeds), `/files/` public; the pod of roots[i] stores under `p${i}/`. */
export async function startPodsPerRoot(engine: CephRgw, roots: readonly string[]): Promise<{ root: string; pod: RunningPod; prefix: string }[]> {
  const profileDir = process.env.PROFILE_DIR
  const pods: { root: string; pod: RunningPod; prefix: string }[] = []
  try {
    for (const [i, root] of roots.entries()) await startOne(i, root)
  } catch (err) {
    // The pods started before the failure would outlive the bench.
    for (const { pod } of pods) await pod.dispose()
    throw err
  }
  return pods

  async function startOne(i: number, root: string) {
    const { startPod } = (await import(join(root, 'test/e2e/start-server.ts'))) as { startPod: (o: StartOptions) => Promise<RunningPod> }
    const { seedPublicContainer } = (await import(join(root, 'test/e2e/seed-store.ts'))) as typeof import('../e2e/seed-store.ts')
    if (profileDir) process.env.BUN_OPTIONS = `--cpu-prof --cpu-prof-md --cpu-prof-dir=${join(profileDir, String(i))}`
    const prefix = `p${i}/`
    try {
      pods.push({
        root,
        prefix,
        pod: await startPod({
          extraArgs: [...s3Args(engine, prefix), '--log-level', 'warn', '--keep-versions-days', '0'],
          seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']),
        }),
      })
    } finally {
      delete process.env.BUN_OPTIONS
    }
  }
}
