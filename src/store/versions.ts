// The previous states of resources: one record per state a change replaced or removed, written in the change's own batch.

import { DataFactory } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import type { Quadstore } from 'quadstore'
import { writePattern } from 'quadstore/dist/serialization/patterns.js'
import { quadReader } from 'quadstore/dist/serialization/quads.js'
import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { WriteOp } from './group-commit.ts'
import { inSublevel } from './sublevel.ts'
import { UNREAD_VALUE } from './quad-ops.ts'
import {
  isHeldByVersion,
  padTime,
  spanOf,
  versionBlobKey,
  versionKey,
  versionTimeKey,
  creationTimeKey,
  type ChangeAuthor,
  type CreationRecord,
  type PackedGraph,
  type VersionEnd,
  type VersionRecord,
  type VersionSpan,
} from './version-record.ts'

export {
  spanOf,
  pathOfVersionKey,
  versionBlobKey,
  versionKey,
  versionKeyOfTimeKey,
  versionTimeKey,
  isCreationTimeKey,
  type CreationRecord,
  type ChangeAuthor,
  type VersionRecord,
  type VersionSpan,
} from './version-record.ts'

const { namedNode, quad, defaultGraph } = DataFactory
const pathRange = (path: string) => ({ gt: `${path}\0`, lt: `${path}\0\uffff` })

/**
 * The operations that keep `meta` (the state at `path` that this change replaces or removes, stored under
 * `keys`) as a version (a move's names where it went, `to`); none when versions are off. They join the change's batch: after a crash the change and
 * its version are both there or neither.
 */
export function versionOps(
  store: Store,
  baseUrl: string,
  path: string,
  meta: ResourceMeta,
  keys: readonly string[],
  end: VersionEnd,
  now: number,
  by?: ChangeAuthor,
  to?: string,
): WriteOp[] {
  if (!store.versioning.keep) return []
  const key = versionKey(path, meta.modified, now)
  const record: VersionRecord = {
    from: meta.modified,
    until: now,
    end,
    ...(to !== undefined ? { to } : {}),
    ...(by ? { by } : {}),
    meta,
    ...(meta.kind !== 'binary' ? { graph: packGraph(store.quads, baseUrl + path, keys) } : {}),
  }
  const ops: WriteOp[] = [
    { type: 'put', key, value: record, ...inSublevel(store.versions) },
    // versionTimeKey(key), without splitting the key it was just made from
    { type: 'put', key: `${padTime(now)}\0${key}`, value: UNREAD_VALUE, ...inSublevel(store.versionTimes) },
  ]
  if (meta.blob !== undefined) ops.push({ type: 'put', key: versionBlobKey(meta.blob, key), value: UNREAD_VALUE, ...inSublevel(store.versionBlobs) })
  return ops
}

function graphKeyPrefix(quads: Quadstore, url: string): string {
  const p = writePattern({ graph: namedNode(url) } as never, quads.indexes[0]!, quads.prefixes)
  if (p === null) throw new Error('the quad index cannot range over one graph')
  return p.gt
}

export function packGraph(quads: Quadstore, url: string, keys: readonly string[]): PackedGraph {
  const prefix = graphKeyPrefix(quads, url)
  return { prefix, rest: keys.filter(k => k.startsWith(prefix)).map(k => k.slice(prefix.length)) }
}

/** A version's statements, in the default graph (as store/resources.ts readTriples answers). */
export function unpackGraph(quads: Quadstore, packed: PackedGraph): Quad[] {
  const index = quads.indexes[0]!
  return packed.rest.map(rest => {
    const q = quadReader.read(packed.prefix + rest, index.prefix.length, index.terms, DataFactory as never, quads.prefixes) as Quad
    return quad(q.subject, q.predicate, q.object, defaultGraph()) as Quad
  })
}

/** Records who created `path` (its first state `meta`) in the creation's batch; none when versions are off. */
export function creationOps(store: Store, path: string, meta: ResourceMeta, by?: ChangeAuthor): WriteOp[] {
  if (!store.versioning.keep) return []
  const record: CreationRecord = { ...(by ? { by } : {}), meta }
  return [{ type: 'put', key: creationTimeKey(path, meta.modified), value: JSON.stringify(record), ...inSublevel(store.versionTimes) }]
}

/** Every version of `path`, oldest first, from the keys alone. */
export async function readVersionSpans(store: Store, path: string): Promise<VersionSpan[]> {
  const out: VersionSpan[] = []
  for await (const span of versionSpans(store, path)) out.push(span)
  return out
}

/** Every version of `path`, oldest first, from the keys alone, read as they are consumed (a TimeMap streams them). */
export async function* versionSpans(store: Store, path: string): AsyncIterable<VersionSpan> {
  const keys = store.versions.keys(pathRange(path))
  try {
    for (;;) {
      const step = await keys.nextv(1000)
      if (step.length === 0) return
      for (const key of step) yield spanOf(key)
    }
  } finally {
    await keys.close()
  }
}

/** The oldest version of `path` kept. */
export async function firstVersionSpan(store: Store, path: string): Promise<VersionSpan | undefined> {
  for await (const key of store.versions.keys({ ...pathRange(path), limit: 1 })) return spanOf(key)
  return undefined
}

/** The newest version of `path` kept (by when its state was written). */
export async function lastVersionSpan(store: Store, path: string): Promise<VersionSpan | undefined> {
  for await (const key of store.versions.keys({ ...pathRange(path), limit: 1, reverse: true })) return spanOf(key)
  return undefined
}

/** The version of `path` written at `from` (the memento's id); of two with one `from` (a move there and back), the later. */
export async function getVersion(store: Store, path: string, from: number): Promise<VersionRecord | undefined> {
  const prefix = `${path}\0${padTime(from)}\0`
  for await (const [, record] of store.versions.iterator({ gt: prefix, lt: `${prefix}\uffff`, reverse: true, limit: 1 })) return record
  return undefined
}

/** The latest version of `path` written at or before `at`. */
export async function latestVersionBefore(store: Store, path: string, at: number): Promise<VersionRecord | undefined> {
  for await (const [, record] of store.versions.iterator({ gt: `${path}\0`, lt: `${path}\0${padTime(at + 1)}`, reverse: true, limit: 1 })) return record
  return undefined
}

/** Removes these versions in one synced batch, then the files only they held. */
export async function dropVersions(store: Store, keys: readonly string[]): Promise<void> {
  const records = await store.versions.getMany([...keys])
  const blobs: string[] = []
  const ops: WriteOp[] = []
  for (const [i, key] of keys.entries()) {
    ops.push({ type: 'del', key, ...inSublevel(store.versions) }, { type: 'del', key: versionTimeKey(key), ...inSublevel(store.versionTimes) })
    const blob = records[i]?.meta.blob
    if (blob !== undefined) {
      blobs.push(blob)
      ops.push({ type: 'del', key: versionBlobKey(blob, key), ...inSublevel(store.versionBlobs) })
    }
  }
  await store.commit(ops)
  await releaseBlobs(store, blobs)
}

/**
 * Removes the files of blobs a committed batch stopped naming, unless something still names them: a resource or
 * the trash (blob-refs) or a version (version-blobs). Asked after the batch, so two removers racing (a trash
 * purge and the version sweep) each see the other's commit and the file goes once nothing holds it.
 */
export async function releaseBlobs(store: Store, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  const named = await store.blobRefs.getMany(ids)
  for (const [i, id] of ids.entries()) {
    if (named[i] === undefined && !(await isHeldByVersion(store.versionBlobs, id))) store.blobs.remove(id)
  }
}
