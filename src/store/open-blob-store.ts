// Which blob store a data directory's bytes live in: its own `files/` directory (the default) or an S3 bucket.

import type { BlobStore } from './blob-store.ts'
import { openLocalBlobStore } from './local-blob-store.ts'
import type { S3BlobConfig } from '../config.ts'
import { UserError } from '../lib/user-error.ts'
import { getRecordedLocation, locationOf, s3ConfigOf } from './blob-location.ts'
import { openPodBlobStore, type PodBlobStore } from './moving-blob-store.ts'
import type { Sub } from './sublevel.ts'

/**
 * The keys come from the variables every S3 tool reads, never from a flag (a command line is visible to every
 * user of the machine) and never into the config or the log. The S3 store's modules (and its client library) are
 * imported only for a bucket: a pod that keeps its files on its own disk does not read them at each start.
 */
export async function openBlobStore(dataDir: string, s3: S3BlobConfig | undefined, env: Record<string, string | undefined> = process.env): Promise<BlobStore> {
  if (s3 === undefined) return openLocalBlobStore(dataDir)
  const accessKeyId = env.AWS_ACCESS_KEY_ID
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY
  if (!accessKeyId || !secretAccessKey) {
    throw new UserError(`--blob-store s3://${s3.bucket} needs the bucket's keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`)
  }
  const { openS3BlobStore } = await import('./s3-blob-store.ts')
  return openS3BlobStore(dataDir, s3, { accessKeyId, secretAccessKey })
}

/** The store the pod's records say its bytes are in (both ends while a move copies), checked against the flags. */
export async function openRecordedBlobStore(dataDir: string, system: Sub<unknown>, moved: Sub<string>, s3: S3BlobConfig | undefined): Promise<PodBlobStore> {
  const recorded = await getRecordedLocation(system, locationOf(s3))
  const current = await openBlobStore(dataDir, s3ConfigOf(recorded.current, s3))
  if (recorded.from === undefined) return openPodBlobStore(current)
  return openPodBlobStore(current, { from: await openBlobStore(dataDir, s3ConfigOf(recorded.from, s3)), moved })
}
