// A disk share for versions and the trash together: past it the sweep removes the oldest versions, then old trash items.

import type { Store } from './open-store.ts'
import { deleteTrashed, readTrash, trashBlobRef, trashedMetas } from './trash.ts'
import { dropVersions } from './versions.ts'

/** Versions removed per synced batch (as the thinning sweep's). */
const CAP_BATCH = 500

const DAY_MS = 24 * 60 * 60_000

/** What one capping sweep removed, for its one log line. */
export interface CapResult {
  readonly versions: number
  readonly trashItems: number
  /** The bytes those held alone (as counted: a file another version or trash item still holds is not freed). */
  readonly bytes: number
  /** What versions and the trash held before. */
  readonly heldBytes: number
}

interface Candidate {
  readonly key: string
  readonly until: number
  /** RDF bytes of the version; its file's are counted per blob. */
  readonly rdf: number
  readonly blob?: string
}

/**
 * Brings what versions and the trash hold alone under `shareBytes`: the oldest versions first (by when the
 * change that ended them was made), `batchSize` per synced batch, then trash items deleted more than a day
 * before `now`, oldest first. The accounting is a bounded scan at sweep time (docs/versions.md): one pass over
 * the version records and the trash, an hour apart, nothing on the write path. A file counts once, and only
 * when no resource names it; the current state of a resource is never removed (versions and trash items are not it).
 */
export async function capVersions(store: Store, now: number, shareBytes: number, batchSize = CAP_BATCH): Promise<CapResult> {
  const blobSize = new Map<string, number>()
  const holders = new Map<string, number>()
  const trashBlobs = new Set<string>()
  const candidates: Candidate[] = []
  let held = 0
  const countBlob = async (blob: string, size: number) => {
    if (blobSize.has(blob)) return
    const ref = await store.blobRefs.get(blob)
    if (ref !== undefined && !ref.startsWith(trashBlobRef(''))) return // a resource names it: not the versions'
    blobSize.set(blob, size)
    held += size
  }
  for await (const [key, record] of store.versions.iterator()) {
    const blob = record.meta.blob
    if (blob !== undefined) {
      holders.set(blob, (holders.get(blob) ?? 0) + 1)
      await countBlob(blob, record.meta.size)
    }
    // An identical rewrite's version holds no statements of its own (sameAs): nothing to count, nothing freed.
    const rdf = blob === undefined && record.sameAs === undefined ? record.meta.size : 0
    held += rdf
    candidates.push({ key, until: record.until, rdf, ...(blob !== undefined ? { blob } : {}) })
  }
  const items = (await readTrash(store)).sort((a, b) => a.deletedAt - b.deletedAt) // oldest first
  for (const item of items) {
    for (const meta of await trashedMetas(store, item.id)) {
      if (meta.blob === undefined) held += meta.size
      else {
        trashBlobs.add(meta.blob)
        await countBlob(meta.blob, meta.size)
      }
    }
  }
  const heldBytes = held
  let versions = 0
  let trashItems = 0
  if (shareBytes <= 0 || held <= shareBytes) return { versions, trashItems, bytes: 0, heldBytes }

  candidates.sort((a, b) => a.until - b.until || (a.key < b.key ? -1 : 1))
  let batch: string[] = []
  for (const c of candidates) {
    if (held <= shareBytes) break
    batch.push(c.key)
    held -= c.rdf
    if (c.blob !== undefined) {
      const left = (holders.get(c.blob) ?? 1) - 1
      holders.set(c.blob, left)
      if (left === 0 && !trashBlobs.has(c.blob)) held -= blobSize.get(c.blob) ?? 0
    }
    if (batch.length >= batchSize) {
      await dropVersions(store, batch)
      versions += batch.length
      batch = []
    }
  }
  if (batch.length > 0) {
    await dropVersions(store, batch)
    versions += batch.length
  }
  // The trash is what the owner deleted on purpose: only past its first day, and only once no version is left to go.
  for (const item of items) {
    if (held <= shareBytes) break
    if (item.deletedAt > now - DAY_MS) break
    held -= (await deleteTrashed(store, item.id)).bytes
    trashItems++
  }
  return { versions, trashItems, bytes: heldBytes - held, heldBytes }
}
