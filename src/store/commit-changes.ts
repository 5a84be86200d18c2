// The one ending of every resource write: journal, commit, remember, publish — in the order that keeps an acknowledged write whole.

import { metaEntryBytes, type Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { ResourceChange } from './change-feed.ts'
import type { WriteOp } from './group-commit.ts'
import { releaseBlobs } from './versions.ts'
import { nameIndexOps } from './name-index.ts'
import { describeCause, log } from '../log.ts'

/** Metadata a batch writes (null: deleted), recorded so the cache can take the new values once the batch has landed. */
export type MetaWrites = Map<string, ResourceMeta | null>

/** One resource write, built in full before anything of it is written. */
export interface ResourceWrite {
  /** Its operations: quads, metadata, membership, blob references, trash records. */
  readonly batch: readonly WriteOp[]
  /** The metadata `batch` writes (resources.ts `putMeta` records both). */
  readonly writes: MetaWrites
  /** What it changed, for the change feed's journals and listeners (change-feed.ts). */
  readonly changes: readonly ResourceChange[]
}

/** The blob files a write hands over: bytes live outside LevelDB (blob-store.ts), so they are not in the batch. */
export interface BlobHandover {
  /** A blob written and fsynced ahead of the batch that names it: dropped at once if that batch is not written. */
  readonly added?: string | undefined
  /** Blobs the batch stops naming: their files go once the write is done. */
  readonly released?: readonly string[]
}

/** The blob ids of resources (binary ones name one), for `BlobHandover.released`. */
export const blobIds = (metas: readonly (ResourceMeta | undefined)[]): string[] => metas.flatMap(m => (m?.blob !== undefined ? [m.blob] : []))

/**
 * Commits one resource write and makes it seen. Every write of a resource (resources.ts, move-resource.ts,
 * delete-tree.ts, trash.ts) ends here, so the order below holds for all of them:
 *
 * 1. The journals' records (webhook deliveries' outbox, change-feed.ts) join the write's own batch: LevelDB
 *    applies a batch atomically, so after `kill -9` the write and its deliveries are both there or both
 *    absent — an acknowledged write never loses a delivery, and no delivery tells of a write that never was.
 * 2. The batch is written with `sync: true` (group-commit.ts) and this resolves only once it is on disk; the
 *    caller answers the request only after that, so an acknowledged write survives a crash. If the batch
 *    fails, nothing below happens: no cache shows it, no listener hears of it, and a blob written for it
 *    alone is dropped (no resource names it), and the error goes to the caller.
 * 3. The metadata cache takes the new values after the batch is on disk (it never shows what a crash could
 *    undo, nor what a failed batch never wrote) and before the change is published, with no await between:
 *    a listener that reads the resource on hearing of it (a notification channel deciding access, a cache
 *    of ACLs) finds the store already showing the change. LevelDB shows the quads once the batch is written.
 * 4. The listeners hear the change only now that it is durable, in commit order.
 * 5. Blob files the batch stopped naming go last: before the batch is on disk the old resource still names
 *    them, and a crash must find its bytes. (`remove` waits a little more, for a GET that read the old metadata.)
 *    A file a version (or the trash) still holds stays (versions.ts `releaseBlobs`).
 */
export async function commitChanges(store: Store, write: ResourceWrite, blobs: BlobHandover = {}): Promise<void> {
  const { batch, writes, changes } = write
  try {
    // The name index and the journals join the write's batch: a path is found by name exactly while it exists.
    const joined = [...nameIndexOps(store, changes), ...store.changes.opsFor(changes)]
    await store.commit(joined.length === 0 ? batch : [...batch, ...joined])
  } catch (err) {
    if (blobs.added !== undefined) store.blobs.discard(blobs.added)
    throw err
  }
  rememberMeta(store, writes)
  store.changes.publish(changes)
  // The write is done: a failed look-up leaves the file to the next start's sweep.
  if (blobs.released?.length) await releaseBlobs(store, blobs.released).catch((err: unknown) => log.warn('blob.release_failed', { cause: describeCause(err) }))
}

// A deleted resource leaves no entry: paths made and deleted all day (an inbox's notifications) would
// otherwise fill the caches with the names of things that are gone (seen in an hour-long soak).
// `generation` moves so that a read which raced this write does not cache what it saw before it (resources.ts getMeta).
function rememberMeta(store: Store, writes: MetaWrites) {
  const c = store.caches.meta
  c.generation++
  for (const [p, m] of writes) {
    c.absent.delete(p)
    if (m) c.entries.set(p, m, undefined, metaEntryBytes(p, m))
    else c.entries.delete(p)
  }
}
