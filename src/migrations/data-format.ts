// Brings a data directory's contents to the current data format, one recorded version at a time.

import { FORMAT_VERSION, getFormatVersion, recordFormatVersion, type Store } from '../store/open-store.ts'
import { log } from '../log.ts'
import { addTypeIndexes } from './type-indexes.ts'
import { buildNameIndex } from './name-index.ts'
import { indexVersionTimes } from './version-times.ts'

export interface Migration {
  /** The format a directory is in once this has run; the one before is `to - 1`. */
  readonly to: number
  /** What it does, for the log. */
  readonly name: string
  /** Idempotent: it may have run in part before a crash, and runs whole again. Returns what it added. */
  run(store: Store, now: number): Promise<string[]>
}

/**
 * In format order. Formats up to STORE_LAYOUT_FORMAT are the database's own layout, migrated by openStore;
 * each one after it is here. Add a migration with FORMAT_VERSION's bump (store/open-store.ts).
 */
export const MIGRATIONS: readonly Migration[] = [
  { to: 3, name: 'type_indexes', run: addTypeIndexes },
  { to: 4, name: 'name_index', run: buildNameIndex },
  { to: 5, name: 'version_times', run: indexVersionTimes },
]

/**
 * Runs every migration past the directory's recorded format, recording each new format only after its writes
 * are synced: a crash leaves the old format recorded, and the next open runs that migration again.
 * Every command opens the store through here (pod.ts `openDataDir`), so none sees an older format.
 */
export async function migrateDataFormat(store: Store, now: number, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  let at = await getFormatVersion(store)
  for (const m of migrations) {
    if (m.to <= at) continue
    if (m.to !== at + 1) throw new Error(`data format ${at} has no migration to ${at + 1}`)
    const added = await m.run(store, now)
    await recordFormatVersion(store, m.to)
    log.info('store.migrated', { from: at, to: m.to, migration: m.name, added })
    at = m.to
  }
  if (at !== FORMAT_VERSION) throw new Error(`data format ${at} has no migration to ${FORMAT_VERSION}`)
}
