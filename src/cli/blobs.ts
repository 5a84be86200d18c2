// `solopod blobs check [--repair]`: every record's blob exists with its size and sha256, and the blobs nothing names (pod stopped).

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, type Config } from '../config.ts'
import { openDataDir } from '../pod.ts'
import { checkBlobs } from '../store/check-blobs.ts'

export const BLOBS_USAGE = 'usage: solopod blobs check [--repair] --data DIR [--blob-store s3://BUCKET[/prefix] --s3-endpoint URL]'

export async function blobsCommand(cfg: Config): Promise<void> {
  if (cfg.args[0] !== 'check' || cfg.args.length !== 1) throw new ConfigError(BLOBS_USAGE)
  if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first, see --data)`)
  // Opened without the start-up sweep: it would remove the orphans before they are listed.
  const store = await openDataDir(cfg.dataDir, Date.now(), { sweepBlobs: false, ...(cfg.s3 ? { s3: cfg.s3 } : {}) })
  let check
  try {
    check = await checkBlobs(store, { repair: cfg.repair })
  } finally {
    await store.close()
  }
  const lines = [`solopod: ${check.stored} blob(s) in ${store.blobs.location}, ${check.named} named by the pod's records`]
  for (const p of check.missing) lines.push(`missing: ${p.id} (${p.named}${p.expected !== undefined ? `, ${p.expected} bytes` : ''})`)
  for (const p of check.wrongSize) lines.push(`wrong size: ${p.id} (${p.named}): ${p.found} bytes, the record says ${p.expected}`)
  for (const p of check.wrongSha256) lines.push(`wrong sha256: ${p.id} (${p.named}): ${p.found}, the record says ${p.expected}`)
  for (const id of check.orphans) lines.push(`orphan: ${id}${cfg.repair ? ' (removed)' : ''}`)
  const damaged = check.missing.length + check.wrongSize.length + check.wrongSha256.length
  // The bytes-changed count only when there are some: the summary reads as it always did otherwise.
  const changed = check.wrongSha256.length > 0 ? `, ${check.wrongSha256.length} with other bytes than their sha256` : ''
  lines.push(
    damaged + check.orphans.length === 0
      ? 'solopod: all blobs are in order'
      : `solopod: ${check.missing.length} missing, ${check.wrongSize.length} of the wrong size${changed}, ${check.orphans.length} orphan(s)` +
          (cfg.repair ? `, ${check.removed} removed` : check.orphans.length > 0 ? ' (--repair removes orphans)' : ''),
  )
  console.log(lines.join('\n'))
  // Lost bytes are not repaired by anything here: the exit code says so to a script.
  if (damaged > 0) process.exitCode = 1
}
