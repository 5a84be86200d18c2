// `solopod blobs check`: the blob store against the records that name its blobs, like a file system check: every
// named blob is there with the size and the SHA-256 its record says (all its bytes read back).

import type { BlobStore } from './blob-store.ts'
import type { Store } from './open-store.ts'

export interface BlobProblem {
  readonly id: string
  readonly named: string
  readonly expected?: number | string
  readonly found?: number | string
}

export interface BlobCheck {
  /** Blobs the store holds. */
  readonly stored: number
  /** Blobs some record names (a resource, the trash, a version). */
  readonly named: number
  /** Named and not in the store: bytes lost. */
  readonly missing: readonly BlobProblem[]
  /** In the store with another size than the record says. */
  readonly wrongSize: readonly BlobProblem[]
  /** In the store with the right size and other bytes: their SHA-256 (expected, found) is not the record's. */
  readonly wrongSha256: readonly BlobProblem[]
  /** In the store and named by nothing (a write cut short); removed with `repair`. */
  readonly orphans: readonly string[]
  readonly removed: number
}

/**
 * What names each blob, and the size it says, collected whole: one entry per file of the pod (a million files
 * are a few hundred MB for this command, run with the pod stopped).
 */
interface Named {
  readonly named: string
  readonly size?: number
  readonly sha256?: string
}

const expectedOf = (meta: { size: number; sha256?: string }) => ({ size: meta.size, ...(meta.sha256 ? { sha256: meta.sha256 } : {}) })

async function namedBlobs(store: Store): Promise<Map<string, Named>> {
  const named = new Map<string, Named>()
  for await (const [id, ref] of store.blobRefs.iterator()) {
    const meta = ref.startsWith('trash:') ? undefined : await store.meta.get(ref)
    named.set(id, { named: ref, ...(meta?.blob === id ? expectedOf(meta) : {}) })
  }
  for await (const key of store.versionBlobs.keys()) {
    const [id, versionKey] = key.split('\0', 2) as [string, string]
    if (named.has(id)) continue
    const record = await store.versions.get(key.slice(id.length + 1))
    named.set(id, { named: `version ${versionKey.split('\0')[0]}`, ...(record?.meta.blob === id ? expectedOf(record.meta) : {}) })
  }
  return named
}

/** Runs with the pod stopped (no write in flight), so an unnamed blob is an orphan, not one about to be named. */
export async function checkBlobs(store: Store, { repair }: { repair: boolean }): Promise<BlobCheck> {
  const named = await namedBlobs(store)
  const seen = new Set<string>()
  const wrongSize: BlobProblem[] = []
  const wrongSha256: BlobProblem[] = []
  const orphans: string[] = []
  let stored = 0
  for await (const { id, size } of store.blobs.list()) {
    stored++
    const record = named.get(id)
    if (!record) {
      orphans.push(id)
      continue
    }
    seen.add(id)
    if (record.size !== undefined && record.size !== size) wrongSize.push({ id, named: record.named, expected: record.size, found: size })
    else if (record.sha256 !== undefined) {
      // Every byte read back: what a disk or a bucket changed behind the pod's back shows only so.
      const found = await sha256Of(store.blobs, id)
      if (found !== record.sha256) wrongSha256.push({ id, named: record.named, expected: record.sha256, found })
    }
  }
  const missing = [...named].filter(([id]) => !seen.has(id)).map(([id, r]) => ({ id, named: r.named, ...(r.size !== undefined ? { expected: r.size } : {}) }))
  let removed = 0
  if (repair)
    for (const id of orphans) {
      await store.blobs.discard(id)
      removed++
    }
  return { stored, named: named.size, missing, wrongSize, wrongSha256, orphans, removed }
}

/** Every byte of the blob read back and hashed. */
export async function sha256Of(blobs: BlobStore, id: string): Promise<string> {
  const opened = await blobs.open(id)
  const hash = new Bun.CryptoHasher('sha256')
  const stream: ReadableStream<Uint8Array> = opened instanceof Blob ? opened.stream() : opened
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
  return hash.digest('hex')
}
