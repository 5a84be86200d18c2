// The files strangers added through share links (issue 38), for the owner's Activity page. A new file replaces
// nothing, so no version records it (store/versions.ts keeps what a change replaced); this keeps which link each
// upload came through — its id and the name the owner gave it ("for the plumber") — as long as versions are kept.

import type { Store } from '../store/open-store.ts'
import { keyOf, putRecord } from '../store/records.ts'
import { padTime } from '../store/version-record.ts'
import { randomBase64url } from '../lib/client-secret.ts'

const KIND = 'link-upload'

export interface LinkUpload {
  /** The stored path of the new file. */
  readonly path: string
  readonly at: number
  readonly link: { readonly id: string; readonly name: string }
}

/** Records one upload, kept `keepMs` (the pod's versions' time): the record's key sorts by time. */
export async function recordLinkUpload(store: Store, upload: LinkUpload, keepMs: number): Promise<void> {
  await putRecord<LinkUpload>(store, KIND, `${padTime(upload.at)}\0${randomBase64url(6)}`, upload, upload.at + keepMs)
}

/** The newest uploads first, at most `limit`, only those at or under `folder` when given. */
export async function recentLinkUploads(store: Store, now: number, limit: number, folder?: string): Promise<LinkUpload[]> {
  const out: LinkUpload[] = []
  const prefix = keyOf(KIND, '')
  for await (const [, rec] of store.records.iterator({ gt: prefix, lt: `${prefix}\uffff`, reverse: true })) {
    const u = rec.v as LinkUpload
    if (rec.exp <= now || (folder !== undefined && !u.path.startsWith(folder))) continue
    out.push(u)
    if (out.length >= limit) break
  }
  return out
}
