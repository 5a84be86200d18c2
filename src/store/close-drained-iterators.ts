// Closes every LevelDB iterator of the database as soon as it has been read to its end.

import type { ClassicLevel } from 'classic-level'
import { log, describeCause } from '../log.ts'

/**
 * quadstore 15 (get/leveliterator.js) reads each query with `db.iterator().nextv()` until it gets
 * an empty page and then closes only its own wrapper, never the LevelDB iterator. An open LevelDB
 * iterator pins the database version it started on — memtables and table files the database would
 * otherwise free or delete — so every quadstore read kept ~11 KB of native memory and every
 * overwrite ~30 KB, for ever, and compaction could not delete superseded table files (measured:
 * one still-attached iterator per `quads.get()`, RSS growing linearly, JS heap flat).
 *
 * An iterator that has returned its empty page has nothing more to give, so closing it then is
 * safe for every reader: abstract-level's `close()` is idempotent, so readers that close it
 * themselves (`for await`, sublevels) are unaffected. A reader that abandons an iterator before
 * its end must still close it itself; nothing in solopod does.
 */
export function closeDrainedIterators(db: ClassicLevel<string, unknown>): void {
  const open = db.iterator.bind(db)
  db.iterator = ((options?: object) => {
    const it = open(options as never)
    const nextv = it.nextv.bind(it)
    it.nextv = (async (size: number, opts?: object) => {
      const items = await nextv(size, opts as never)
      if (items.length === 0) {
        it.close().catch((err: unknown) => log.error('store.iterator_close_failed', { cause: describeCause(err) }))
      }
      return items
    }) as typeof it.nextv
    return it
  }) as typeof db.iterator
}
