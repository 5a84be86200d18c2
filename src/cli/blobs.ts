// `solopod blobs check [--repair]`: every record's blob exists with its size and sha256, and the blobs nothing names (pod stopped).
// `solopod blobs move --to …`: the pod's bytes into another store, by the running server when there is one.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { BLOBS_USAGE, ConfigError, type Config } from '../config.ts'
import { openDataDir } from '../pod.ts'
import { checkBlobs } from '../store/check-blobs.ts'
import { moveBlobs, type MoveReport } from '../store/move-blobs.ts'
import { describeBlobLocation, locationOf, s3ConfigOf, type BlobLocation } from '../store/blob-location.ts'
import { openBlobStore } from '../store/open-blob-store.ts'
import { requestBlobsMove } from '../server/control-socket.ts'
import { UserError } from '../lib/user-error.ts'

class BlobsMoveError extends UserError {}

export async function blobsCommand(cfg: Config): Promise<void> {
  if (cfg.args[0] === 'move' && cfg.moveTo) return moveCommand(cfg, locationOf(cfg.moveTo === 'local' ? undefined : cfg.moveTo))
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

/** Progress on stderr; on stdout the one summary line a script reads. */
async function moveCommand(cfg: Config, to: BlobLocation): Promise<void> {
  // The command's own keys go to the running server over its private socket: it may have none (a local pod).
  const [accessKeyId, secretAccessKey] = [process.env.AWS_ACCESS_KEY_ID, process.env.AWS_SECRET_ACCESS_KEY]
  const keys = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined
  if (to.kind === 's3' && !keys) throw new BlobsMoveError(`--to s3://${to.bucket} needs the bucket's keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`)
  let report: MoveReport | undefined
  let refused: string | undefined
  const remote = await requestBlobsMove(cfg.dataDir, to, keys, line => {
    if ('progress' in line) console.error(`solopod: ${line.progress}`)
    else if ('report' in line) report = line.report
    else if ('error' in line) refused = line.error
  })
  if (remote === undefined) {
    if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first, see --data)`)
    const store = await openDataDir(cfg.dataDir, Date.now(), cfg.s3 ? { s3: cfg.s3 } : {})
    try {
      report = await moveBlobs(store, to, {
        configured: locationOf(cfg.s3),
        open: at => openBlobStore(cfg.dataDir, s3ConfigOf(at, cfg.s3)),
        // No server, no reader: the old copies go at once.
        settleMs: 0,
        reserveBytes: cfg.diskReserveBytes,
        progress: line => console.error(`solopod: ${line}`),
      })
    } finally {
      await store.close()
    }
  }
  if (refused !== undefined) throw new BlobsMoveError(refused)
  if (!report) throw new BlobsMoveError('the running server ended the move without a report; run the move again (it resumes)')
  if (report.already) {
    console.log(`solopod: the pod's files are already in ${describeBlobLocation(to)}; nothing to move`)
    return
  }
  for (const id of report.missing) console.error(`solopod: missing: ${id} is named by the pod's records and was in neither store (solopod blobs check)`)
  console.error(`solopod: the pod serves its files from ${describeBlobLocation(to)}; ${report.deleted} old copies deleted`)
  console.log(`moved ${report.files} files, ${(report.bytes / 1024 / 1024).toFixed(1)} MB, verified`)
  if (report.missing.length > 0) process.exitCode = 1
}
