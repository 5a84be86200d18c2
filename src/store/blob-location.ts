// Where a pod's bytes are, as the pod itself records it once `solopod blobs move` has moved them: the data
// directory or a bucket. A pod never moved records nothing and is where its flags say.

import type { S3BlobConfig } from '../config.ts'
import { UserError } from '../lib/user-error.ts'
import type { Sub } from './sublevel.ts'

/** A bucket as recorded: what names it, never the keys, nor the time limits (those stay the flags'). */
export type BlobLocation =
  | { readonly kind: 'local' }
  | { readonly kind: 's3'; readonly bucket: string; readonly prefix: string; readonly endpoint: string; readonly region: string }

/** A move under way (`copying`: both stores serve) or switched and leaving old copies to delete (`deleting`). */
export interface BlobMoveState {
  readonly from: BlobLocation
  readonly to: BlobLocation
  readonly phase: 'copying' | 'deleting'
}

/** In the `system` key space. */
export const LOCATION_KEY = 'blob-store'
export const MOVE_KEY = 'blob-move'

export const LOCAL: BlobLocation = Object.freeze({ kind: 'local' })

export const locationOf = (s3: S3BlobConfig | undefined): BlobLocation =>
  s3 === undefined ? LOCAL : { kind: 's3', bucket: s3.bucket, prefix: s3.prefix, endpoint: s3.endpoint, region: s3.region }

/** The region only signs requests: the same bucket and prefix at the same endpoint is the same place. */
export const sameLocation = (a: BlobLocation, b: BlobLocation) =>
  a.kind === 'local' ? b.kind === 'local' : b.kind === 's3' && a.bucket === b.bucket && a.prefix === b.prefix && a.endpoint === b.endpoint

/** As the flags spell it. */
export const flagsOf = (l: BlobLocation) =>
  l.kind === 'local' ? '--blob-store local' : `--blob-store s3://${l.bucket}/${l.prefix} --s3-endpoint ${l.endpoint}`

export const describeBlobLocation = (l: BlobLocation) => (l.kind === 'local' ? 'the data directory' : `s3://${l.bucket}/${l.prefix} at ${l.endpoint}`)

/** The S3 settings of a recorded bucket, with the time limits of the configured one (or the defaults). */
/** How old an object no record names must be before a bucket's sweep removes it, unless the flags say otherwise. */
export const DEFAULT_SWEEP_GRACE_MS = 3_600_000

export function s3ConfigOf(l: BlobLocation, like: S3BlobConfig | undefined): S3BlobConfig | undefined {
  if (l.kind === 'local') return undefined
  return {
    bucket: l.bucket,
    prefix: l.prefix,
    endpoint: l.endpoint,
    region: l.region,
    timeoutMs: like?.timeoutMs ?? 15_000,
    sweepGraceMs: like?.sweepGraceMs ?? DEFAULT_SWEEP_GRACE_MS,
  }
}

export class BlobLocationError extends UserError {}

export interface RecordedLocation {
  /** Where the pod serves its bytes from (the target while a move copies: new bytes go there). */
  readonly current: BlobLocation
  /** While a move copies: where the bytes not yet moved are. */
  readonly from?: BlobLocation
  readonly move?: BlobMoveState
}

/**
 * What the records say against what the flags say. A pod whose bytes were moved starts only with flags naming
 * where they are now (a move left half way: either end), never serving from a place that lacks them.
 */
export async function getRecordedLocation(system: Sub<unknown>, configured: BlobLocation): Promise<RecordedLocation> {
  const move = (await system.get(MOVE_KEY)) as BlobMoveState | undefined
  const recorded = (await system.get(LOCATION_KEY)) as BlobLocation | undefined
  if (move?.phase === 'copying') {
    if (!sameLocation(configured, move.from) && !sameLocation(configured, move.to))
      throw new BlobLocationError(
        `this pod's files are being moved from ${describeBlobLocation(move.from)} to ${describeBlobLocation(move.to)}; start it with ${flagsOf(move.to)}`,
      )
    return { current: move.to, from: move.from, move }
  }
  const current = move?.to ?? recorded
  if (current !== undefined && !sameLocation(configured, current))
    throw new BlobLocationError(`this pod's files were moved to ${describeBlobLocation(current)} (solopod blobs move); start it with ${flagsOf(current)}`)
  return { current: current ?? configured, ...(move ? { move } : {}) }
}
