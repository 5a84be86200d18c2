// `bun test/bench/s3-upload-cpu.ts [MiB] [ROUNDS] [ROOT …]`: where a pod's CPU goes while it uploads a file into a
// real Ceph RGW (test/s3/ceph-rgw.ts), per thread of the pod, per MiB: the measure a busy shared machine changes far
// less than MB/s. One engine, one pod per source tree ROOT (default: this checkout; another tree, e.g. `git archive
// main | tar -x -C /tmp/before`, measures before and after in the same run), the pods' PUTs alternating round by round,
// with Bun's S3Client straight to the engine in each round for scale. With PROFILE_DIR set, each pod runs under Bun's
// sampling profiler (`--cpu-prof-md`) and leaves its profile there when it stops.

import { s3BenchArgs, startPodsPerRoot } from './s3-bench-pods.ts'
import { startCeph, stopCeph } from '../s3/pod-on-ceph.ts'
import { generatedBody } from '../e2e/large-bodies.ts'
import { upload } from './large-files.ts'
import { threadSeconds } from './process-cpu.ts'
import type { RunningPod } from '../e2e/start-server.ts'

const { mib, rounds, bytes, roots } = s3BenchArgs(process.argv.slice(2))

const engine = await startCeph({ memstoreBytes: 6 * 1024 ** 3 })
const pods: { root: string; pod: RunningPod }[] = []
try {
  pods.push(...(await startPodsPerRoot(engine, roots)))
  await Bun.sleep(2000)
  for (let round = 0; round < rounds; round++) {
    for (const { root, pod } of pods) {
      const pid = pod.proc.pid
      const before = threadSeconds(pid)
      const up = await upload(pod, bytes)
      const after = threadSeconds(pid)
      const perMib = [...after].map(([name, s]) => [name, ((s - (before.get(name) ?? 0)) * 1000) / mib] as const).filter(([, ms]) => ms >= 0.05)
      const total = perMib.reduce((sum, [, ms]) => sum + ms, 0)
      console.log(
        `${root}: ${up.mbps.toFixed(0)} MB/s, pod CPU ${total.toFixed(1)} ms/MiB (${perMib
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
          .join(', ')})`,
      )
      await Bun.sleep(500)
    }
    const body = generatedBody(bytes, { hashed: false })
    const started = performance.now()
    await engine.client.write('direct/film.bin', new Response(body.stream))
    console.log(`Bun's S3Client straight to the engine: ${(mib / ((performance.now() - started) / 1000)).toFixed(0)} MB/s`)
  }
} finally {
  for (const { pod } of pods) await pod.dispose()
  await stopCeph(engine)
}
