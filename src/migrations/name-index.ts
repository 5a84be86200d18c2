// Data format 4: the name index (store/name-index.ts) of the resources a pod held before it, so search finds them too.

import type { Store } from '../store/open-store.ts'
import { inSublevel } from '../store/sublevel.ts'
import { nameIndexEntries } from '../store/name-index.ts'
import { UNREAD_VALUE } from '../store/quad-ops.ts'

/** Paths per synced batch: a pod of 100,000 files is indexed without holding all their keys at once. */
const PATHS_PER_BATCH = 2000

/**
 * Puts every stored path's words in the index. Each batch is synced and putting a key twice changes nothing, so a
 * run cut short by a crash is run whole again at the next start. Returns a count for the log.
 */
export async function buildNameIndex(store: Store): Promise<string[]> {
  let batch = store.db.batch()
  let inBatch = 0
  let paths = 0
  const it = store.meta.keys()
  try {
    for (let keys = await it.nextv(PATHS_PER_BATCH); keys.length > 0; keys = await it.nextv(PATHS_PER_BATCH)) {
      for (const path of keys) {
        for (const key of nameIndexEntries(path)) batch.put(key, UNREAD_VALUE, inSublevel(store.names))
        paths++
        inBatch++
      }
      if (inBatch >= PATHS_PER_BATCH) {
        await batch.write({ sync: true })
        batch = store.db.batch()
        inBatch = 0
      }
    }
  } finally {
    await it.close()
  }
  await batch.write({ sync: true })
  return [`${paths} names indexed`]
}
