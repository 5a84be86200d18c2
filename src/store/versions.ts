// The previous states of resources: one record per state a change replaced or removed, written in the change's own batch.

import { DataFactory } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import type { Quadstore } from 'quadstore'
import { writePattern } from 'quadstore/dist/serialization/patterns.js'
import { quadReader } from 'quadstore/dist/serialization/quads.js'
import type { Store } from './open-store.ts'
import { stateTime, type ResourceMeta } from './resource-meta.ts'
import type { WriteOp } from './group-commit.ts'
import { inSublevel } from './sublevel.ts'
import { UNREAD_VALUE } from './quad-ops.ts'
import {
  isHeldByVersion,
  padTime,
  pathOfVersionKey,
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
 * The statements a version keeps: the replaced graph's stored keys, or, when the change wrote the very same
 * statements back, the time of the state it wrote (which holds them: no second copy).
 */
export type KeptStatements = readonly string[] | { readonly sameAs: number }

/**
 * The operations that keep `meta` (the state at `path` that this change replaces or removes, its statements
 * `keys`) as a version (a move's names where it went, `to`); none when versions are off. They join the change's batch: after a crash the change and
 * its version are both there or neither.
 */
export function versionOps(
  store: Store,
  baseUrl: string,
  path: string,
  meta: ResourceMeta,
  keys: KeptStatements,
  end: VersionEnd,
  now: number,
  by?: ChangeAuthor,
  to?: string,
): WriteOp[] {
  if (!store.versioning.keep) return []
  const from = stateTime(meta)
  const key = versionKey(path, from, now)
  const record: VersionRecord = {
    from,
    until: now,
    end,
    ...(to !== undefined ? { to } : {}),
    ...(by ? { by } : {}),
    meta,
    ...(meta.kind === 'binary' ? {} : 'sameAs' in keys ? { sameAs: keys.sameAs } : { graph: packGraph(store.quads, baseUrl + path, keys) }),
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

/**
 * A version's statements (default graph): its own, or, for an identical rewrite's (`sameAs`), those of the state
 * that holds them, followed forward (a later version, or the current state). Undefined for a file's version, or
 * when the chain no longer leads anywhere (a read racing the sweep).
 */
export async function versionStatements(store: Store, baseUrl: string, path: string, record: VersionRecord): Promise<Quad[] | undefined> {
  let at = record
  for (;;) {
    if (at.graph) return unpackGraph(store.quads, at.graph)
    if (at.sameAs === undefined) return undefined
    const next = await getVersion(store, path, at.sameAs)
    if (next) {
      at = next
      continue
    }
    // Not a version yet: the current state, unless a write replaced it meanwhile (its version is then written).
    const { items } = await store.quads.get({ graph: namedNode(baseUrl + path) })
    const triples = items.map(q => quad(q.subject, q.predicate, q.object, defaultGraph()) as Quad)
    const current = await store.meta.get(path)
    if (current && stateTime(current) === at.sameAs) return triples
    const replaced = await getVersion(store, path, at.sameAs)
    if (!replaced) return undefined
    at = replaced
  }
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

/**
 * Removes these versions in one synced batch, then the files only they held. A version kept whose statements are
 * those of one removed here (`sameAs`, an identical rewrite) is given them in the same batch: what the removed one
 * held, or where it pointed.
 */
export async function dropVersions(store: Store, keys: readonly string[]): Promise<void> {
  const records = await store.versions.getMany([...keys])
  const blobs: string[] = []
  const ops = await handDownStatements(store, keys, records)
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
 * The rewritten records of the versions kept that name (`sameAs`) one of `keys`, about to be removed: each is given
 * what the removed one held, or where it pointed. Newest first, so a removed pointer passes on what it was handed.
 */
async function handDownStatements(store: Store, keys: readonly string[], records: readonly (VersionRecord | undefined)[]): Promise<WriteOp[]> {
  const updated = new Map<string, VersionRecord>()
  const removed = keys
    .map((key, i) => [key, records[i]] as const)
    .filter((e): e is readonly [string, VersionRecord] => e[1] !== undefined && e[1].meta.kind !== 'binary')
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
  for (const [key, record] of removed) {
    const gone = updated.get(key) ?? record
    const before = await stateBefore(store, key, gone.from)
    if (!before) continue
    const named = updated.get(before[0]) ?? before[1]
    if (named.sameAs !== gone.from) continue
    const { sameAs: _, graph: __, ...rest } = named
    updated.set(before[0], { ...rest, ...(gone.graph ? { graph: gone.graph } : gone.sameAs !== undefined ? { sameAs: gone.sameAs } : {}) })
  }
  const dropped = new Set(keys)
  return [...updated].filter(([key]) => !dropped.has(key)).map(([key, value]) => ({ type: 'put', key, value, ...inSublevel(store.versions) }))
}

/**
 * The only version that can name the state written at `from` (the version `key`): the state just before it at its
 * path, which ended when it was written. Read back from `key`, past versions of states that came there later by a
 * move (they keep their older `from`, so sort before it, but ended after it): usually one record read.
 */
async function stateBefore(store: Store, key: string, from: number): Promise<[string, VersionRecord] | undefined> {
  for await (const [k, record] of store.versions.iterator({ gt: `${pathOfVersionKey(key)}\0`, lt: key, reverse: true })) {
    if (record.until <= from) return [k, record]
  }
  return undefined
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
