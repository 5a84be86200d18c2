// Opens the one classic-level database of a data directory: quadstore plus the pod's sublevels.

import { mkdirSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { Quadstore } from 'quadstore'
import { DataFactory } from 'n3'
import type { ResourceMeta } from './resource-meta.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { makeSerialQueue, type SerialQueue } from '../lib/serial-queue.ts'

/** Bump only together with an explicit migration; a binary never opens a newer format. */
export const FORMAT_VERSION = 1
const FORMAT_KEY = 'format-version'

/** A typed key space inside the one database; `sync` reaches LevelDB through it. */
export interface Sub<V> {
  get(key: string): Promise<V | undefined>
  put(key: string, value: V, options?: { sync?: boolean }): Promise<void>
  del(key: string, options?: { sync?: boolean }): Promise<void>
  keys(options?: RangeOptions): AsyncIterable<string>
  iterator(options?: RangeOptions): AsyncIterable<[string, V]>
  batch(): { put(key: string, value: V): unknown; del(key: string): unknown; write(options?: { sync?: boolean }): Promise<void> }
  clear(): Promise<void>
}
/**
 * Batch options that route one operation of a database batch into one of our sublevels. The
 * classic-level batch types know nothing of the `Sub<V>` view above, so the cast is made here, once.
 */
export const inSublevel = <V>(sub: Sub<V>): { sublevel: never } => ({ sublevel: sub as never })

interface RangeOptions { gt?: string; gte?: string; lt?: string; lte?: string; limit?: number }

/**
 * What this process keeps in memory about the database it opened: built once with the handle, kept
 * up to date by the functions that write through it (one process per database, so nothing else does).
 */
export interface StoreCaches {
  /**
   * path → metadata, null when known absent (store/resources.ts). Metadata is read on every request,
   * often several times; a LevelDB read costs ~100 µs, a hit nothing. Writes drop the entries they
   * touch after their batch lands; `generation` keeps a read that raced a write from caching what it
   * saw before the write.
   */
  readonly meta: { readonly entries: LruCache<string, ResourceMeta | null>; generation: number }
  /** Read-modify-write of one record runs alone (store/records.ts): single-use codes stay single-use. */
  readonly recordQueue: SerialQueue
}

const META_CACHE_ENTRIES = 20_000

export interface Store {
  readonly db: ClassicLevel<string, unknown>
  readonly quads: Quadstore
  /** path → ResourceMeta */
  readonly meta: Sub<ResourceMeta>
  /** path → bytes of a binary resource */
  readonly blobs: Sub<Uint8Array>
  /** `${containerPath}\0${childPath}` → '' (membership index, docs/architecture.md, Storage) */
  readonly contains: Sub<string>
  /** `${kind}\0${key}` → { v, exp } : OP/AS state with expiry */
  readonly records: Sub<{ v: unknown; exp: number }>
  /** data-directory facts: format version, owner, setup */
  readonly system: Sub<unknown>
  readonly caches: StoreCaches
  close(): Promise<void>
}

export class StoreFormatError extends Error {}

/** One sublevel seen through `Sub<V>`: classic-level's own types do not carry V into every method. */
const sublevel = <V>(db: ClassicLevel<string, unknown>, name: string, valueEncoding: 'json' | 'view' | 'utf8'): Sub<V> =>
  db.sublevel<string, V>(name, { valueEncoding }) as unknown as Sub<V>

export async function openStore(dataDir: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true })
  const dbDir = join(dataDir, 'db')
  const fresh = !existsSync(dbDir) || readdirSync(dbDir).length === 0
  const db = new ClassicLevel<string, unknown>(dbDir, { valueEncoding: 'json' })
  await db.open()
  const system = sublevel<unknown>(db, 'system', 'json')
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

  // Every read is "the graph of one resource" (or a full scan for export): one graph-first index
  // serves both, and a write costs one key per quad instead of quadstore's default six.
  // Changing this list changes the on-disk format: bump FORMAT_VERSION with a migration.
  const quads = new Quadstore({ backend: db as never, dataFactory: DataFactory as never, indexes: [['graph', 'subject', 'predicate', 'object']] as never })
  await quads.open()
  return {
    db,
    quads,
    meta: sublevel<ResourceMeta>(db, 'meta', 'json'),
    blobs: sublevel<Uint8Array>(db, 'blobs', 'view'),
    contains: sublevel<string>(db, 'contains', 'utf8'),
    records: sublevel<{ v: unknown; exp: number }>(db, 'records', 'json'),
    system,
    caches: { meta: { entries: new LruCache(META_CACHE_ENTRIES), generation: 0 }, recordQueue: makeSerialQueue() },
    close: async () => { await quads.close(); if (db.status === 'open') await db.close() },
  }
}
