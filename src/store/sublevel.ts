// A typed key space (sublevel) of the one classic-level database, and routing batch operations into one.

import type { ClassicLevel } from 'classic-level'

/** A typed key space inside the one database; `sync` reaches LevelDB through it. */
export interface Sub<V> {
  get(key: string, options?: ReadOptions): Promise<V | undefined>
  /** Many keys in one call, answered in their order (undefined where absent): far cheaper than a get each. */
  getMany(keys: readonly string[], options?: ReadOptions): Promise<(V | undefined)[]>
  put(key: string, value: V, options?: { sync?: boolean }): Promise<void>
  del(key: string, options?: { sync?: boolean }): Promise<void>
  keys(options?: RangeOptions): KeyIterator
  iterator(options?: RangeOptions): AsyncIterable<[string, V]>
  batch(): { put(key: string, value: V): unknown; del(key: string): unknown; write(options?: { sync?: boolean }): Promise<void> }
  clear(): Promise<void>
}
/**
 * Batch options that route one operation of a database batch into one of our sublevels. The
 * classic-level batch types know nothing of the `Sub<V>` view above, so the cast is made here, once.
 */
export const inSublevel = <V>(sub: Sub<V>): { sublevel: never } => ({ sublevel: sub as never })

/** `snapshot` (from `db.snapshot()`) reads the database as it was when the snapshot was taken. */
interface ReadOptions {
  snapshot?: unknown
}
interface RangeOptions extends ReadOptions {
  gt?: string
  gte?: string
  lt?: string
  lte?: string
  limit?: number
  reverse?: boolean
}

/** classic-level's key iterator: `nextv` hands over up to `size` keys per call (fewer promises than one `next` each). */
export interface KeyIterator extends AsyncIterable<string> {
  nextv(size: number): Promise<string[]>
  close(): Promise<void>
}

/** One sublevel seen through `Sub<V>`: classic-level's own types do not carry V into every method. */
export const sublevel = <V>(db: ClassicLevel<string, unknown>, name: string, valueEncoding: 'json' | 'view' | 'utf8' | ValueEncoding<V>): Sub<V> =>
  db.sublevel<string, V>(name, { valueEncoding: valueEncoding as never }) as unknown as Sub<V>

/** A value encoding of our own (level-transcoder's shape): values stored as the UTF-8 text `encode` makes. */
export interface ValueEncoding<V> {
  readonly name: string
  readonly format: 'utf8'
  encode(value: V): string
  decode(text: string): V
}
