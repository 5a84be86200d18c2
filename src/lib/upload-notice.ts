// What an upload says when it is done: one line, however many files ("150 files uploaded to Holiday Photos ·
// 412 MB"), not a list of names. The owner's upload form and the dashboard script send the Files page the same
// query; the page turns it into the line. Pure: shared by src/admin and static/admin.

import { formatBytes } from './format-bytes.ts'
import { SEPARATOR } from './separator.ts'

export interface Uploaded {
  /** The names the files got (as people read them), in upload order. */
  readonly names: readonly string[]
  readonly bytes: number
  /** How many got a numbered name because theirs was taken (`photo (2).jpg`). */
  readonly renamed: number
}

/** The Files page's query part (after `path=`) that says what landed. */
export const uploadedQuery = (u: Uploaded): string =>
  new URLSearchParams({
    done: 'upload',
    name: u.names[0] ?? '',
    count: String(u.names.length),
    bytes: String(u.bytes),
    renamed: String(u.renamed),
  }).toString()

const whole = (raw: unknown): number | undefined => (typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined)

/** The notice for an upload's query into `folder` (its name as people read it); undefined when the query says no upload. */
export function uploadNotice(folder: string, query: Record<string, unknown>): string | undefined {
  if (query.done !== 'upload' || typeof query.name !== 'string') return undefined
  const count = whole(query.count) ?? 1
  const renamed = whole(query.renamed) ?? 0
  const bytes = whole(query.bytes)
  if (count <= 1) return `Uploaded ${query.name}${renamed > 0 ? ' (a file of that name was already here, so the new one got a number)' : ''}`
  return (
    `${count.toLocaleString('en')} files uploaded to ${folder}${bytes === undefined ? '' : `${SEPARATOR}${formatBytes(bytes)}`}` +
    (renamed > 0 ? `${SEPARATOR}${renamed.toLocaleString('en')} got a number, ${renamed === 1 ? 'its name was' : 'their names were'} taken` : '')
  )
}
