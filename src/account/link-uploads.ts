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

/**
 * The uploads that made `paths`, newest first for each path (a name freed and uploaded again has two). The records
 * are keyed by time, so this reads them all: they are few (one per file a stranger added, kept as long as versions).
 */
export async function linkUploadsOf(store: Store, now: number, paths: ReadonlySet<string>): Promise<Map<string, LinkUpload[]>> {
  const out = new Map<string, LinkUpload[]>()
  if (paths.size === 0) return out
  const prefix = keyOf(KIND, '')
  for await (const [, rec] of store.records.iterator({ gt: prefix, lt: `${prefix}\uffff`, reverse: true })) {
    const u = rec.v as LinkUpload
    if (rec.exp <= now || !paths.has(u.path)) continue
    out.set(u.path, [...(out.get(u.path) ?? []), u])
  }
  return out
}
