// When the pod's last backup was made (dashboard download or `solopod export`), kept in the database.

import type { Store } from './open-store.ts'

/** A `system` key of this data directory only: export and import leave it out (export-pod.ts DIRECTORY_KEYS). */
export const LAST_BACKUP_KEY = 'last-backup'

export interface BackupRecord {
  /** ISO time of the snapshot the backup was taken from. */
  readonly at: string
  /** `download`: the dashboard's archive, delivered to the browser; `export`: `solopod export` to a folder. */
  readonly via: 'download' | 'export'
  readonly resources: number
}

/** Synced: "your last backup was …" must not claim a backup a crash forgot, nor forget one. */
export async function recordBackup(store: Store, record: BackupRecord): Promise<void> {
  await store.system.put(LAST_BACKUP_KEY, record, { sync: true })
}

export async function getLastBackup(store: Store): Promise<BackupRecord | undefined> {
  const value = await store.system.get(LAST_BACKUP_KEY)
  return value === undefined ? undefined : (value as BackupRecord)
}
