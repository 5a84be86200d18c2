// The setup the S3 tests share: a Ceph RADOS Gateway (ceph-rgw.ts) whose keys are in this process's environment, as
// an operator's would be (the pod and `solopod` commands inherit them: keys only ever come from the environment), and
// pods that keep their files in its bucket.

import { startCephRgw, type CephRgw } from './ceph-rgw.ts'
import { startPod, type RunningPod, type StartOptions } from '../e2e/start-server.ts'
import { seedPublicContainer } from '../e2e/seed-store.ts'

/** Starts the engine and puts its keys in the environment; `stopCeph` takes both away. */
export async function startCeph(opts?: Parameters<typeof startCephRgw>[0]): Promise<CephRgw> {
  const engine = await startCephRgw(opts)
  process.env.AWS_ACCESS_KEY_ID = engine.accessKeyId
  process.env.AWS_SECRET_ACCESS_KEY = engine.secretAccessKey
  return engine
}

export async function stopCeph(engine: CephRgw | undefined): Promise<void> {
  await engine?.stop()
  delete process.env.AWS_ACCESS_KEY_ID
  delete process.env.AWS_SECRET_ACCESS_KEY
}

/** The flags of a pod whose files are in the engine's bucket under `prefix`. */
export const s3Args = (engine: CephRgw, prefix: string) => ['--blob-store', `s3://${engine.bucket}/${prefix}`, '--s3-endpoint', engine.endpoint]

/**
 * A pod whose files are in the engine's bucket under `prefix`, with a public read-write `/files/` (then `seed`, if
 * given); `extraArgs` after the bucket's flags.
 */
export function podOnCeph(engine: CephRgw, { prefix, extraArgs = [], seed, ...rest }: StartOptions & { prefix: string }): Promise<RunningPod> {
  return startPod({
    ...rest,
    seed: async (dir, base) => {
      await seedPublicContainer(dir, base, '/files/', ['Read', 'Write'])
      await seed?.(dir, base)
    },
    extraArgs: [...s3Args(engine, prefix), ...extraArgs],
  })
}
