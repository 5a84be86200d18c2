// Opens the one classic-level database of a data directory: quadstore plus the pod's sublevels.

import { mkdirSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { Quadstore } from 'quadstore'
import { DataFactory } from 'n3'
import type { ResourceMeta } from './resource-meta.ts'
import { closeDrainedIterators } from './close-drained-iterators.ts'
import { makeGroupCommit, type WriteOp } from './group-commit.ts'
import { log, describeCause } from '../log.ts'

/** Bump only together with an explicit migration; a binary never opens a newer format. */
export const FORMAT_VERSION = 1
const FORMAT_KEY = 'format-version'

/** A typed key space inside the one database; `sync` reaches LevelDB through it. */
export interface Sub<V> {
  get(key: string, options?: ReadOptions): Promise<V | undefined>
  put(key: string, value: V, options?: { sync?: boolean }): Promise<void>
  del(key: string, options?: { sync?: boolean }): Promise<void>
  keys(options?: RangeOptions): AsyncIterable<string>
  iterator(options?: RangeOptions): AsyncIterable<[string, V]>
  batch(): { put(key: string, value: V): unknown; del(key: string): unknown; write(options?: { sync?: boolean }): Promise<void> }
  clear(): Promise<void>
}
/** `snapshot` (from `db.snapshot()`) reads the database as it was when the snapshot was taken. */
interface ReadOptions { snapshot?: unknown }
interface RangeOptions extends ReadOptions { gt?: string; gte?: string; lt?: string; lte?: string; limit?: number }

export interface Store {
  readonly db: ClassicLevel<string, unknown>
  readonly quads: Quadstore
  /** path → ResourceMeta */
  readonly meta: Sub<ResourceMeta>
  /** path → bytes of a binary resource */
  readonly blobs: Sub<Uint8Array>
  /** `${containerPath}\0${childPath}` → '' (membership index, DESIGN §4) */
  readonly contains: Sub<string>
  /** `${kind}\0${key}` → { v, exp } : OP/AS state with expiry */
  readonly records: Sub<{ v: unknown; exp: number }>
  /** data-directory facts: format version, owner, setup */
  readonly system: Sub<unknown>
  /**
   * Rewrites the whole key range, so the data directory holds the live data and not the overwritten
   * versions LevelDB has not merged yet. LevelDB does this in a background thread; reads and writes go on.
   */
  compact(): Promise<void>
  /**
   * Writes the operations of one resource write in one atomic, synced batch, merged with the
   * writes that arrive meanwhile (group-commit.ts); resolves once they are on disk.
   */
  commit(ops: readonly WriteOp[]): Promise<void>
  /** Batches written and resource writes they held since the store was opened. */
  readonly commitStats: { readonly batches: number; readonly writes: number }
  close(): Promise<void>
}

/**
 * LevelDB merges overwritten versions away on its own schedule; a full compaction every so many
 * resource writes (and once per start, main.ts) keeps the data directory near the size of the
 * live data on a pod that mostly overwrites the same documents.
 */
export const COMPACT_EVERY_WRITES = 10_000

// Every read is "the graph of one resource" (or a full scan for export): one graph-first index
// serves both, and a write costs one key per quad instead of quadstore's default six.
// Changing this list changes the on-disk format: bump FORMAT_VERSION with a migration.
export const QUAD_INDEXES = [['graph', 'subject', 'predicate', 'object']]

export class StoreFormatError extends Error {}

export async function openStore(dataDir: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true })
  const dbDir = join(dataDir, 'db')
  const fresh = !existsSync(dbDir) || readdirSync(dbDir).length === 0
  const db = new ClassicLevel<string, unknown>(dbDir, { valueEncoding: 'json' })
  await db.open()
  closeDrainedIterators(db)
  const system = db.sublevel<string, unknown>('system', { valueEncoding: 'json' }) as unknown as Sub<unknown>
  const found = await system.get(FORMAT_KEY)
  if (found === undefined && !fresh) {
    await db.close()
    throw new StoreFormatError(`${dbDir} holds a database without a solopod format version; refusing to touch it`)
  }
  if (found !== undefined && found !== FORMAT_VERSION) {
    await db.close()
    throw new StoreFormatError(
      `${dbDir} has data format ${JSON.stringify(found)}, this solopod understands format ${FORMAT_VERSION}; ` +
      'use the solopod version that wrote it (or a newer one that migrates it explicitly)')
  }
  if (found === undefined) await system.put(FORMAT_KEY, FORMAT_VERSION, { sync: true })

  const quads = new Quadstore({ backend: db as never, dataFactory: DataFactory as never, indexes: QUAD_INDEXES as never })
  await quads.open()
  // close() waits for a running compaction: LevelDB must not be closed under its compaction thread.
  let compacting: Promise<void> | undefined
  const compact = () => compacting ??= db.compactRange(Buffer.alloc(0) as never, Buffer.from([0xff]) as never, { keyEncoding: 'buffer' })
    .finally(() => { compacting = undefined })
  const group = makeGroupCommit(db)
  const commit = async (ops: readonly WriteOp[]) => {
    await group.commit(ops)
    if (group.stats.writes % COMPACT_EVERY_WRITES === 0) {
      compact().catch((err: unknown) => log.warn('store.compaction_failed', { cause: describeCause(err) }))
    }
  }
  return {
    db,
    commit,
    commitStats: group.stats,
    quads,
    meta: db.sublevel<string, ResourceMeta>('meta', { valueEncoding: 'json' }) as unknown as Sub<ResourceMeta>,
    blobs: db.sublevel<string, Uint8Array>('blobs', { valueEncoding: 'view' }) as unknown as Sub<Uint8Array>,
    contains: db.sublevel<string, string>('contains', { valueEncoding: 'utf8' }) as unknown as Sub<string>,
    records: db.sublevel<string, { v: unknown; exp: number }>('records', { valueEncoding: 'json' }) as unknown as Sub<{ v: unknown; exp: number }>,
    system,
    // UTF-8 keys never hold the byte 0xff, so [empty, 0xff) is every key of the database.
    compact,
    close: async () => { await compacting?.catch(() => undefined); await quads.close(); if (db.status === 'open') await db.close() },
  }
}
