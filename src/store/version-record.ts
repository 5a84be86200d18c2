// What a version is: its record, its keys, and the blobs versions hold (versions.ts writes and reads them).

import type { ResourceMeta } from './resource-meta.ts'
import type { Sub } from './sublevel.ts'

/** Who made a change, as the operations layer knows it: absent for the pod itself (first start, migrations, the CLI). */
export interface ChangeAuthor {
  /** The agent's WebID; absent for the public (or a key without one). */
  readonly agent?: string
  /** The app (client id) the agent used. */
  readonly client?: string
  /** The face and credential it came through: the principal's scheme (`DPoP`, `HttpSig`, `session` for the owner's pages …). */
  readonly via: string
}

/** How a state stopped being current: replaced by a write, deleted, moved or renamed away, or moved to the trash. */
export type VersionEnd = 'update' | 'delete' | 'move' | 'trash'

/**
 * A graph as the keys quadstore stored it under (open-store.ts QUAD_INDEXES, one index), the part every key
 * shares once: copying the keys costs no decoding and no serialization on the write path, which already read
 * them to compute its changed keys (quad-ops.ts). Read back with quadstore's own key reader.
 */
export interface PackedGraph {
  readonly prefix: string
  readonly rest: readonly string[]
}

export interface VersionRecord {
  /** When the state was written (its `modified`): the memento's Memento-Datetime and its id. */
  readonly from: number
  /** When the change that ended it was made. */
  readonly until: number
  readonly end: VersionEnd
  /** A move's destination: where the state went (the path it has there). */
  readonly to?: string
  /** Who made that change. */
  readonly by?: ChangeAuthor
  /** The state's metadata: a file's names its blob, which the version holds (version-blobs). */
  readonly meta: ResourceMeta
  /** RDF documents and containers: their own statements. */
  readonly graph?: PackedGraph
  /**
   * Instead of `graph`, when a write replaced the state with the very same statements: they are those of the state
   * written at this time at the same path (a later version, or the current state). No second copy is kept;
   * `dropVersions` hands the statements down before it removes the state this names (docs/versions.md).
   */
  readonly sameAs?: number
}

/** A version's place in time, read from its key alone (a TimeMap reads no record). */
export interface VersionSpan {
  readonly from: number
  readonly until: number
  readonly key: string
}

// Decimal, zero-padded: keys sort by time as strings, and `${path}\0` never prefixes another path's keys.
export const padTime = (ms: number) => String(Math.max(0, Math.trunc(ms))).padStart(15, '0')
export const versionKey = (path: string, from: number, until: number) => `${path}\0${padTime(from)}\0${padTime(until)}`

export function spanOf(key: string): VersionSpan {
  const [, from, until] = key.split('\0')
  return { from: Number(from), until: Number(until), key }
}

/** The path a version key belongs to. */
export const pathOfVersionKey = (key: string) => key.slice(0, key.indexOf('\0'))

/**
 * version-times key: the change's time first, then the version's key, so the pod's changes read newest first as one
 * range (the activity's page reads only its page). It is also the activity's cursor.
 */
export const versionTimeKey = (key: string) => `${padTime(spanOf(key).until)}\0${key}`
/**
 * A creation in the time index: it has no earlier state, so no version; who created what (its first state's
 * metadata) is the index entry's value (`CreationRecord`), kept as long as versions are (the sweep expires it).
 */
export const creationTimeKey = (path: string, at: number) => `${padTime(at)}\0${path}\0created`
export const isCreationTimeKey = (timeKey: string) => timeKey.endsWith('\0created')
export interface CreationRecord {
  readonly by?: ChangeAuthor
  readonly meta: ResourceMeta
}

/** The version key a version-times key names (for a creation, `{path}\0created`: its path is pathOfVersionKey's). */
export const versionKeyOfTimeKey = (timeKey: string) => timeKey.slice(timeKey.indexOf('\0') + 1)

/** version-blobs key: the blob first, so "does any version hold this blob?" is one short range. */
export const versionBlobKey = (blob: string, key: string) => `${blob}\0${key}`

/** True when a version holds the blob (its file must stay). */
export async function isHeldByVersion(versionBlobs: Sub<string>, blob: string): Promise<boolean> {
  for await (const _ of versionBlobs.keys({ gt: `${blob}\0`, lt: `${blob}\0\uffff`, limit: 1 })) return true
  return false
}
