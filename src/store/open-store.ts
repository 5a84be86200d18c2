// Opens the one classic-level database of a data directory: quadstore plus the pod's sublevels.

import { mkdirSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { Quadstore } from 'quadstore'
import { DataFactory } from '../lib/n3.ts'
import type { ResourceMeta } from './resource-meta.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { makeSerialQueue, type SerialQueue } from '../lib/serial-queue.ts'
import { closeDrainedIterators } from './close-drained-iterators.ts'
import { makeChangeFeed, type ChangeFeed } from './change-feed.ts'
import { makeGroupCommit, type WriteOp } from './group-commit.ts'
import { log, describeCause } from '../log.ts'
import { UserError } from '../lib/user-error.ts'
import { sublevel, type Sub } from './sublevel.ts'
import { openRecordedBlobStore } from './open-blob-store.ts'
import type { PodBlobStore } from './moving-blob-store.ts'
import type { S3BlobConfig } from '../config.ts'
import { moveBlobsToFiles, sweepBlobs } from './migrate-blobs.ts'
import type { VersionRecord } from './version-record.ts'
import { versionRecordEncoding } from './version-encoding.ts'
import { memoryShares, type MemoryShares } from '../lib/memory-budget.ts'

/**
 * Bump only together with an explicit migration; a binary never opens a newer format.
 * 1 → 2: binary bodies moved from the `blobs` sublevel into files (migrate-blobs.ts), here, at open.
 * 2 → 3: the owner's preferences file and type indexes (src/migrations/), before anything else uses the store.
 * 3 → 4: the name index (name-index.ts) of the resources already there (src/migrations/name-index.ts).
 * 4 → 5: the time index of the versions already there (src/migrations/version-times.ts), once, not at every open.
 */
export const FORMAT_VERSION = 5
/**
 * The last format whose migration is the database's own layout, made by `openStore`; the later ones write
 * documents, which needs the layers above the store (src/migrations/data-format.ts runs them).
 */
export const STORE_LAYOUT_FORMAT = 2
const FORMAT_KEY = 'format-version'

/** The data format the directory's contents are in (a new one: FORMAT_VERSION). */
export const getFormatVersion = async (store: Store) => (await store.system.get(FORMAT_KEY)) as number
/** Synced: a migration is recorded only once what it wrote is on disk, and the record survives a crash. */
export const recordFormatVersion = (store: Store, version: number) => store.system.put(FORMAT_KEY, version, { sync: true })

export { inSublevel, type Sub } from './sublevel.ts'

/**
 * What this process keeps in memory about the database it opened: built once with the handle, kept
 * up to date by the functions that write through it (one process per database, so nothing else does).
 */
export interface StoreCaches {
  /**
   * path → metadata, null when known absent (store/resources.ts). Metadata is read on every request,
   * often several times; a LevelDB read costs ~100 µs, a hit nothing. Writes drop the entries they
   * touch after their batch lands; `generation` keeps a read that raced a write from caching what it
   * saw before the write. Known-absent paths have their own, smaller cache: names that do not exist
   * (deleted notes, their ACLs, 404 probes) are endless in variety, and under churn they filled the
   * whole cache over a quarter of an hour (seen in an hour-long soak), while those that exist are bounded by the data.
   */
  readonly meta: { readonly entries: LruCache<string, ResourceMeta>; readonly absent: LruCache<string, true>; generation: number }
  /** Read-modify-write of one record runs alone (store/records.ts): single-use codes stay single-use. */
  readonly recordQueue: SerialQueue
}

const META_CACHE_ENTRIES = 20_000
/**
 * What one metadata entry holds beyond its path, as an estimate (the cache bounds bytes, not entries): the object
 * and its strings (content type, ETag, blob id, digest) measured at ~300 bytes with heapStats; the prefixes apart.
 */
const META_ENTRY_BYTES = 300
/** Bytes of one metadata entry, for the cache's share of the memory budget: UTF-16 strings, two bytes a character. */
export function metaEntryBytes(path: string, meta: ResourceMeta): number {
  let bytes = META_ENTRY_BYTES + 2 * path.length
  for (const [prefix, ns] of Object.entries(meta.prefixes ?? {})) bytes += 2 * (prefix.length + ns.length) + 32
  return bytes
}
/** Enough for the ACL paths an inheritance walk asks about (the ancestors' `.acl`s that do not exist) on a busy pod. */
const ABSENT_CACHE_ENTRIES = 2000

export interface Store {
  readonly db: ClassicLevel<string, unknown>
  readonly quads: Quadstore
  /** path → ResourceMeta */
  readonly meta: Sub<ResourceMeta>
  /** The bytes of binary resources (metadata names them by `blob` id) */
  readonly blobs: PodBlobStore
  /** blob id → '' : the blobs a move under way has in its target already (move-blobs.ts) */
  readonly movedBlobs: Sub<string>
  /** blob id → path of the resource that names it: the start-up sweep keeps exactly these files */
  readonly blobRefs: Sub<string>
  /** `${containerPath}\0${childPath}` → UNREAD_VALUE (membership index, docs/architecture.md, Storage) */
  readonly contains: Sub<string>
  /** `${kind}\0${key}` → { v, exp } : OP/AS state with expiry */
  readonly records: Sub<{ v: unknown; exp: number }>
  /** data-directory facts: format version, owner, setup */
  readonly system: Sub<unknown>
  /** `${folded word}\0${path}` → UNREAD_VALUE: the name index the owner's search reads (name-index.ts) */
  readonly names: Sub<string>
  /** What the dashboard deleted, kept 30 days to be restored (trash.ts): `item\0id` → summary, `content\0id` → the resources */
  readonly trash: Sub<unknown>
  /** The states changes replaced (versions.ts): `${path}\0${from}\0${until}` → VersionRecord */
  readonly versions: Sub<VersionRecord>
  /** `${blob}\0${version key}` → UNREAD_VALUE: the blobs versions hold, which the blob sweeps keep */
  readonly versionBlobs: Sub<string>
  /** `${until}\0${version key}` → UNREAD_VALUE: the versions in the order of the changes that made them (the activity's pages) */
  readonly versionTimes: Sub<string>
  /** Whether changes keep the states they replace (`--keep-versions-days` above 0). */
  readonly versioning: { readonly keep: boolean }
  readonly caches: StoreCaches
  /**
   * Rewrites the whole key range, so the data directory holds the live data and not the overwritten
   * versions LevelDB has not merged yet. LevelDB does this in a background thread; reads and writes go on.
   */
  compact(): Promise<void>
  /**
   * Writes LevelDB's table of recent writes (its memtable, up to the write buffer) out to a table file, so the
   * native memory it held can go back to the system: for an idle pod (lib/memory-reclaimer.ts). Nothing is lost:
   * the writes were already in the log, now they are in a table as they would be once the buffer filled.
   * Never rejects (a failure is logged); skipped while a full compaction runs, which begins with the same.
   */
  flushWrites(): Promise<void>
  /**
   * Writes the operations of one resource write in one atomic, synced batch, merged with the
   * writes that arrive meanwhile (group-commit.ts); resolves once they are on disk.
   */
  commit(ops: readonly WriteOp[]): Promise<void>
  /** What each resource write changed, for the notification channels (change-feed.ts). */
  readonly changes: ChangeFeed
  /** Batches written and resource writes they held since the store was opened. */
  readonly commitStats: { readonly batches: number; readonly writes: number }
  close(): Promise<void>
}

/**
 * LevelDB merges overwritten versions away on its own schedule; a full compaction every so many
 * resource writes (and once per start, server/serve-pod.ts) keeps the data directory near the size of the
 * live data on a pod that mostly overwrites the same documents. With versions on, the version sweep compacts instead.
 */
export const COMPACT_EVERY_WRITES = 10_000

/** A key no key of the database reaches (UTF-8 never holds the byte 0xff): the empty range of flushWrites. */
const NO_KEY = Buffer.from([0xff, 0xff])

// Every read is "the graph of one resource" (or a full scan for export): one graph-first index
// serves both, and a write costs one key per quad instead of quadstore's default six.
// Changing this list changes the on-disk format: bump FORMAT_VERSION with a migration.
export const QUAD_INDEXES = [['graph', 'subject', 'predicate', 'object']]

export class StoreFormatError extends UserError {}

export interface StoreOptions {
  /** Changes keep the states they replace as versions (versions.ts); off unless asked. */
  readonly keepVersions?: boolean
  /** The bytes of files in an S3 bucket; in the data directory's `files/` without it. */
  readonly s3?: S3BlobConfig
  /**
   * Removes at open the blobs nothing names (default): `blobs check` opens without it, to list them first.
   */
  readonly sweepBlobs?: boolean
  /** The bytes LevelDB's caches and the metadata cache may hold (lib/memory-budget.ts); the default budget's without it. */
  readonly memory?: MemoryShares
}

export async function openStore(dataDir: string, opts: StoreOptions = {}): Promise<Store> {
  mkdirSync(dataDir, { recursive: true })
  const dbDir = join(dataDir, 'db')
  const fresh = !existsSync(dbDir) || readdirSync(dbDir).length === 0
  const memory = opts.memory ?? memoryShares()
  const db = new ClassicLevel<string, unknown>(dbDir, {
    valueEncoding: 'json',
    cacheSize: memory.leveldbBlockCache,
    writeBufferSize: memory.leveldbWriteBuffer,
  })
  await db.open()
  closeDrainedIterators(db)
  const contains = sublevel<string>(db, 'contains', 'utf8')
  const system = sublevel<unknown>(db, 'system', 'json')
  const found = await system.get(FORMAT_KEY)
  if (found === undefined && !fresh) {
    await db.close()
    throw new StoreFormatError(`${dbDir} holds a database without a solopod format version; refusing to touch it`)
  }
  if (found !== undefined && (typeof found !== 'number' || found > FORMAT_VERSION || found < 1)) {
    await db.close()
    throw new StoreFormatError(
      `${dbDir} has data format ${JSON.stringify(found)}, this solopod understands format ${FORMAT_VERSION}; ` +
        'use the solopod version that wrote it (or a newer one that migrates it explicitly)',
    )
  }
  if (found === undefined) await system.put(FORMAT_KEY, FORMAT_VERSION, { sync: true })
  const meta = sublevel<ResourceMeta>(db, 'meta', 'json')
  const blobRefs = sublevel<string>(db, 'blob-refs', 'utf8')
  const versionBlobs = sublevel<string>(db, 'version-blobs', 'utf8')
  const versions = sublevel<VersionRecord>(db, 'versions', versionRecordEncoding)
  const versionTimes = sublevel<string>(db, 'version-times', 'utf8')
  const movedBlobs = sublevel<string>(db, 'blob-moved', 'utf8')
  let blobs
  try {
    blobs = await openRecordedBlobStore(dataDir, system, movedBlobs, opts.s3)
  } catch (err) {
    await db.close()
    throw err
  }
  try {
    if (found === 1) {
      await moveBlobsToFiles({ db, meta, blobRefs, blobs, legacy: sublevel<Uint8Array>(db, 'blobs', 'view') })
      await system.put(FORMAT_KEY, STORE_LAYOUT_FORMAT, { sync: true })
    }
    // Files of writes a crash cut short, or of versions replaced just before one, are named by no resource.
    const swept = opts.sweepBlobs === false ? 0 : await sweepBlobs(blobs, blobRefs, versionBlobs)
    if (swept > 0) log.info('store.blobs_swept', { files: swept })
  } catch (err) {
    await db.close()
    throw err
  }

  const quads = new Quadstore({ backend: db as never, dataFactory: DataFactory as never, indexes: QUAD_INDEXES as never })
  await quads.open()
  // close() waits for a running compaction: LevelDB must not be closed under its compaction thread.
  let compacting: Promise<void> | undefined
  const compact = () =>
    (compacting ??= db.compactRange(Buffer.alloc(0) as never, Buffer.from([0xff]) as never, { keyEncoding: 'buffer' }).finally(() => {
      compacting = undefined
    }))
  // LevelDB's CompactRange writes the memtable out first whatever the range; over a range no key lies in
  // ([0xff 0xff]: UTF-8 keys never hold 0xff) that is all it does.
  let flushing: Promise<void> | undefined
  const flushWrites = () =>
    compacting
      ? Promise.resolve()
      : (flushing ??= db
          .compactRange(NO_KEY as never, NO_KEY as never, { keyEncoding: 'buffer' })
          .catch((err: unknown) => log.warn('store.flush_failed', { cause: describeCause(err) }))
          .finally(() => {
            flushing = undefined
          }))
  const group = makeGroupCommit(db)
  // Counted per write, not read off the merged total: a batch of 14 writes steps over a multiple of
  // COMPACT_EVERY_WRITES without landing on it, and under load compaction then never ran.
  let writesSinceCompaction = 0
  // With versions kept, the states writes replace are live data (versions), not garbage, and a full compaction
  // rewrites all of them: every 10,000 writes that grew with the pod's history (docs/versions.md, "The cost of a
  // version"). The version sweep compacts instead, once it has removed versions (version-sweep.ts).
  const compactsByWrites = opts.keepVersions !== true
  const commit = async (ops: readonly WriteOp[]) => {
    await group.commit(ops)
    if (compactsByWrites && ++writesSinceCompaction >= COMPACT_EVERY_WRITES) {
      writesSinceCompaction = 0
      compact().catch((err: unknown) => log.warn('store.compaction_failed', { cause: describeCause(err) }))
    }
  }
  return {
    db,
    commit,
    commitStats: group.stats,
    changes: makeChangeFeed(),
    quads,
    meta,
    blobs,
    movedBlobs,
    blobRefs,
    contains,
    records: sublevel<{ v: unknown; exp: number }>(db, 'records', 'json'),
    system,
    names: sublevel<string>(db, 'names', 'utf8'),
    trash: sublevel<unknown>(db, 'trash', 'json'),
    versions,
    versionBlobs,
    versionTimes,
    versioning: { keep: opts.keepVersions === true },
    caches: {
      meta: {
        entries: forgetWhenIdle(new LruCache(META_CACHE_ENTRIES, { maxWeight: memory.metadata })),
        absent: forgetWhenIdle(new LruCache(ABSENT_CACHE_ENTRIES)),
        generation: 0,
      },
      recordQueue: makeSerialQueue(),
    },
    // UTF-8 keys never hold the byte 0xff, so [empty, 0xff) is every key of the database.
    compact,
    flushWrites,
    close: async () => {
      await compacting?.catch(() => undefined)
      await flushing
      await quads.close()
      if (db.status === 'open') await db.close()
    },
  }
}
