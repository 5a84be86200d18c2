// Data format 5: the time index of versions (store/version-record.ts versionTimeKey) for versions kept before it existed.

import type { Store } from '../store/open-store.ts'
import { versionTimeKey } from '../store/version-record.ts'
import { inSublevel } from '../store/sublevel.ts'
import { UNREAD_VALUE } from '../store/quad-ops.ts'

/** Versions per synced batch: a pod of a year of versions is indexed without holding all their keys at once. */
const VERSIONS_PER_BATCH = 1000

/**
 * Puts every kept version in the time index the activity page reads. Since the index was added, each version and its
 * index entry are written in one batch; this covers those kept by earlier builds. Putting a key twice changes
 * nothing, so a run cut short by a crash is run whole again at the next start. Returns a count for the log.
 */
export async function indexVersionTimes(store: Store): Promise<string[]> {
  let count = 0
  const it = store.versions.keys()
  try {
    for (let keys = await it.nextv(VERSIONS_PER_BATCH); keys.length > 0; keys = await it.nextv(VERSIONS_PER_BATCH)) {
      const batch = store.db.batch()
      for (const key of keys) batch.put(versionTimeKey(key), UNREAD_VALUE, inSublevel(store.versionTimes))
      await batch.write({ sync: true })
      count += keys.length
    }
  } finally {
    await it.close()
  }
  return [`${count} versions indexed by time`]
}
