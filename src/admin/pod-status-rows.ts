// The wording of the dashboard's "Pod status" page.

import { formatBytes } from '../lib/format-bytes.ts'
import { readablePath } from '../lib/readable-path.ts'
import type { BackupRecord } from '../store/last-backup.ts'
import { countOf } from '../lib/count-words.ts'
import { SEPARATOR } from '../lib/separator.ts'

export interface PodStatus {
  readonly version: string
  /** ISO instants; the page works out uptime and days left from `now`. */
  readonly now: string
  readonly startedAt: string
  readonly disk: { readonly usedBytes: number; readonly freeBytes: number }
  /** The biggest folders under the root, biggest first (folder-sizes.ts). */
  readonly biggestFolders?: readonly { readonly path: string; readonly bytes: number; readonly atLeast: boolean }[]
  /** null: the pod serves plain http (behind a reverse proxy that holds the certificate, or on localhost). */
  readonly certificate: {
    readonly source: 'acme' | 'files'
    readonly names: readonly string[]
    readonly issuer: string
    readonly notAfter: string
    readonly health: 'ok' | 'warning' | 'expired'
    readonly nextAttemptAt?: string
    readonly lastFailure?: { readonly at: string; readonly reason: string }
  } | null
  readonly lastBackup: BackupRecord | null
  /** Present when files' bytes are in an object store (--blob-store s3://…): where, and what is wrong when it does not answer. */
  readonly blobStore?: { readonly location: string; readonly problem?: string }
}

/** One line of the panel; `warning` lines are shown as warnings. Dates go through the page's own formatter. */
export interface StatusRow {
  readonly label: string
  readonly text: string
  readonly warning?: boolean
}

export function podStatusRows(s: PodStatus, formatDate: (iso: string) => string): StatusRow[] {
  const now = Date.parse(s.now)
  const rows: StatusRow[] = [
    { label: 'Version', text: `solopod ${s.version}` },
    { label: 'Running for', text: `${duration(now - Date.parse(s.startedAt))}, since ${formatDate(s.startedAt)}` },
    { label: 'Disk', text: `${formatBytes(s.disk.usedBytes)} used by the pod, ${formatBytes(s.disk.freeBytes)} free` },
  ]
  if (s.blobStore) {
    rows.push(
      s.blobStore.problem
        ? {
            label: 'Files',
            warning: true,
            text: `${s.blobStore.problem}: files cannot be read or written now (they answer 503 and nothing is lost); RDF documents work. The pod asks again at every request.`,
          }
        : { label: 'Files', text: `in ${s.blobStore.location}` },
    )
  }
  if (s.biggestFolders?.length) {
    rows.push({
      label: 'Biggest folders',
      text: s.biggestFolders.map(f => `${readablePath(f.path)} ${f.atLeast ? 'at least ' : ''}${formatBytes(f.bytes)}`).join(SEPARATOR),
    })
  }
  const c = s.certificate
  if (!c) {
    rows.push({ label: 'Certificate', text: 'None served by the pod: plain http (a reverse proxy may hold one)' })
  } else {
    const left = Date.parse(c.notAfter) - now
    const by = c.source === 'acme' ? `renewed by the pod, from ${c.issuer}` : `from --tls-cert (${c.issuer}), renewed by you`
    rows.push({
      label: 'Certificate',
      warning: c.health !== 'ok',
      text:
        c.health === 'expired'
          ? `${c.names.join(', ')}: expired ${formatDate(c.notAfter)}; browsers refuse the pod (${by})`
          : `${c.names.join(', ')}: valid until ${formatDate(c.notAfter)}, ${duration(left)} left (${by})`,
    })
    if (c.lastFailure) {
      rows.push({
        label: 'Renewal',
        warning: true,
        text: `failed ${formatDate(c.lastFailure.at)}: ${c.lastFailure.reason}. The pod serves the certificate it has and tries again${c.nextAttemptAt ? ` ${formatDate(c.nextAttemptAt)}` : ''}.`,
      })
    } else if (c.nextAttemptAt) {
      rows.push({ label: 'Renewal', text: `next ${formatDate(c.nextAttemptAt)}` })
    }
  }
  const b = s.lastBackup
  rows.push({
    label: 'Last backup',
    text: b ? `${formatDate(b.at)} (${b.via === 'download' ? 'downloaded here' : 'with solopod export'}, ${b.resources} resources)` : 'none yet',
  })
  return rows
}

/** "3 days", "5 hours", "12 minutes": the largest whole unit, as people say how long. */
function duration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const [n, unit] = minutes >= 2 * 1440 ? [Math.floor(minutes / 1440), 'day'] : minutes >= 120 ? [Math.floor(minutes / 60), 'hour'] : [minutes, 'minute']
  return countOf(n, unit)
}
