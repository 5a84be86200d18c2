// The dashboard's "Pod status" as the owner API answers it (GET /.admin/api/status): version, uptime, the
// data directory's disk and the biggest folders, the certificate, the last backup, where files' bytes are when not on this disk and whether that store answers. The Pod status page words it with pod-status-rows.ts.

import type { Deps } from '../deps.ts'
import { VERSION } from '../lib/version.ts'
import { certificateHealth } from '../acme/certificate-status.ts'
import type { PodStatus } from './pod-status-rows.ts'
import { biggestFolders } from './folder-sizes.ts'

type StatusDeps = Pick<Deps, 'backups' | 'now' | 'startedAt' | 'diskUsage' | 'certificate'> & Partial<Pick<Deps, 'cfg' | 'resources' | 'store'>>

const problemOf = async (blobs: Deps['store']['blobs']) => {
  const problem = await blobs.problem()
  return problem === undefined ? {} : { problem }
}

export async function readPodStatus(deps: StatusDeps): Promise<PodStatus> {
  const now = deps.now()
  const iso = (ms: number) => new Date(ms).toISOString()
  const disk = await deps.diskUsage()
  const cert = deps.certificate.current()
  const blobs = deps.store?.blobs
  return {
    version: VERSION,
    now: iso(now),
    startedAt: iso(deps.startedAt),
    disk: { usedBytes: disk.usedBytes, freeBytes: disk.freeBytes },
    ...(deps.cfg && deps.resources ? { biggestFolders: await biggestFolders({ cfg: deps.cfg, resources: deps.resources }) } : {}),
    certificate: cert
      ? {
          source: cert.source,
          names: cert.info.names,
          issuer: cert.info.issuer,
          notAfter: iso(cert.info.notAfter),
          health: certificateHealth(cert, now),
          ...(cert.nextAttemptAt !== undefined ? { nextAttemptAt: iso(cert.nextAttemptAt) } : {}),
          ...(cert.lastFailure ? { lastFailure: { at: iso(cert.lastFailure.at), reason: cert.lastFailure.reason } } : {}),
        }
      : null,
    lastBackup: (await deps.backups.last()) ?? null,
    // Only an object store is worth a line: local files are the disk above, and the database's disk answers for them.
    ...(blobs?.remote ? { blobStore: { location: blobs.location, ...(await problemOf(blobs)) } } : {}),
  }
}
