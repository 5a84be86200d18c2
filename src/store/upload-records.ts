// The state of resumable uploads (one record each, with its expiry) and the sweep of abandoned ones.

import { deleteRecord, getRecord, putRecord } from './records.ts'
import type { Store } from './open-store.ts'

const KIND = 'upload'

/** An upload resource: what the creation request asked for, who started it, how far it got. */
export interface UploadRecord {
  /** The creation request: its method, target path and the headers the write needs again at the end. */
  readonly method: 'PUT' | 'POST'
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** Who started it (rs/upload-agent.ts); nobody else may append, query or cancel. */
  readonly agent: string
  /** Bytes stored and fsynced: the offset the pod acknowledged. */
  readonly offset: number
  /** The length the client announced (Upload-Length, or Content-Length with Upload-Complete: ?1). */
  readonly length?: number
  /** Set once the upload completed: the status and Location the write answered. */
  readonly completed?: { readonly status: number; readonly location?: string }
}

export interface StoredUpload {
  readonly upload: UploadRecord
  readonly expiresAt: number
}

export async function getUpload(store: Store, id: string, now: number): Promise<StoredUpload | undefined> {
  const rec = await store.records.get(`${KIND}\0${id}`)
  if (!rec || rec.exp <= now) return undefined
  return { upload: rec.v as UploadRecord, expiresAt: rec.exp }
}

/** Written synced: an offset is acknowledged to the client only once its record is on disk. */
export const putUpload = (store: Store, id: string, upload: UploadRecord, expiresAt: number) => putRecord(store, KIND, id, upload, expiresAt)

/** Uploads in progress (not completed, not expired) that `agent` started. */
export async function openUploadsOf(store: Store, agent: string, now: number): Promise<number> {
  let n = 0
  for await (const [, rec] of store.records.iterator({ gt: `${KIND}\0`, lt: `${KIND}\0\uffff` })) {
    const u = rec.v as UploadRecord
    if (rec.exp > now && u.agent === agent && u.completed === undefined) n++
  }
  return n
}

export async function deleteUpload(store: Store, id: string) {
  await deleteRecord(store, KIND, id)
  store.blobs.removePartial(id)
}

/**
 * Removes the bytes of every upload whose record has expired or is gone (abandoned, completed or
 * cancelled), and the expired records. Run at start and then on a timer; `getRecord` checks the expiry
 * anyway, so an expired upload is never resumed meanwhile.
 */
export async function sweepExpiredUploads(store: Store, now: number): Promise<number> {
  const expired: string[] = []
  const removed = await store.blobs.sweepPartials(async ids => {
    const live = await Promise.all(ids.map(id => getRecord<UploadRecord>(store, KIND, id, now)))
    return live.map(u => u !== undefined && u.completed === undefined)
  })
  for await (const [k, rec] of store.records.iterator({ gt: `${KIND}\0`, lt: `${KIND}\0\uffff` })) if (rec.exp <= now) expired.push(k)
  if (expired.length > 0) {
    const batch = store.records.batch()
    for (const k of expired) batch.del(k)
    await batch.write()
  }
  return removed
}
