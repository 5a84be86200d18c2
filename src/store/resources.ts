// Reading and writing pod resources: quads in the resource's named graph, metadata, bodies, membership.

import { DataFactory } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import { inSublevel, metaEntryBytes, type Store, type Sub } from './open-store.ts'
import { defaultEtag, newEtag, withListingChanged, type ResourceKind, type ResourceMeta } from './resource-meta.ts'
import type { ChangeType, ResourceChange } from './change-feed.ts'
import { ancestorPaths, isAuxiliaryPath, parentPath } from './paths.ts'
import { aclOf } from './acl-names.ts'
import type { WriteOp } from './group-commit.ts'
import { graphChangeOps, readGraphKeys, UNREAD_VALUE } from './quad-ops.ts'
import { blobIds, commitChanges, type MetaWrites } from './commit-changes.ts'
import type { StoredBlob } from './blob-store.ts'
import { creationOps, versionOps, type ChangeAuthor } from './versions.ts'

const { namedNode, quad, defaultGraph } = DataFactory

export interface NewContent {
  readonly kind: ResourceKind
  readonly contentType: string
  /** RDF documents and containers: the complete new set of triples (default graph). */
  readonly triples?: readonly Quad[]
  /** Binary resources: the blob holding the exact bytes, already durable (store.blobs.put). */
  readonly blob?: StoredBlob
  readonly size: number
  /** RDF: the prefixes the document was written with, to serve it back with them. */
  readonly prefixes?: Record<string, string>
  /** RDF: `triples` also describe the document's own named graphs (rdf/graph-statements.ts). */
  readonly namedGraphs?: true
}

export interface WriteResult {
  readonly meta: ResourceMeta
  readonly created: boolean
  /** Intermediate containers this write created (Solid Protocol: PUT/PATCH create them). */
  readonly createdContainers: readonly string[]
}

/** The operations of one resource write, committed together (Store.commit). */
export type Batch = WriteOp[]

export const graphOf = (baseUrl: string, path: string) => namedNode(baseUrl + path)
export const memberKey = (container: string, child: string) => `${container}\0${child}`

// The metadata cache lives with the store handle (StoreCaches in open-store.ts).
export async function getMeta(store: Store, path: string): Promise<ResourceMeta | undefined> {
  const c = store.caches.meta
  const hit = c.entries.get(path)
  if (hit !== undefined || c.absent.get(path)) return hit
  const generation = c.generation
  const meta = await store.meta.get(path)
  if (generation === c.generation) {
    if (meta) c.entries.set(path, meta, undefined, metaEntryBytes(path, meta))
    else c.absent.set(path, true)
  }
  return meta
}

export function putMeta(batch: Batch, store: Store, writes: MetaWrites, path: string, meta: ResourceMeta | null) {
  if (meta) batch.push({ type: 'put', key: path, value: meta, ...inSublevel(store.meta) })
  else batch.push({ type: 'del', key: path, ...inSublevel(store.meta) })
  writes.set(path, meta)
}

export const put = <V>(sub: Sub<V>, key: string, value: V): WriteOp => ({ type: 'put', key, value, ...inSublevel(sub) })
export const del = <V>(sub: Sub<V>, key: string): WriteOp => ({ type: 'del', key, ...inSublevel(sub) })

export async function readTriples(store: Store, baseUrl: string, path: string): Promise<Quad[]> {
  const { items } = await store.quads.get({ graph: graphOf(baseUrl, path) })
  return items.map(q => quad(q.subject, q.predicate, q.object, defaultGraph()) as Quad)
}

export const readKeys = (store: Store, baseUrl: string, path: string) => readGraphKeys(store.quads, graphOf(baseUrl, path))

/** The bytes of a binary resource, read from its blob as needed (slice it for a range). */
export const bodyOf = (store: Store, meta: ResourceMeta): Blob | undefined =>
  meta.kind === 'binary' && meta.blob !== undefined ? store.blobs.read(meta.blob) : undefined

/** Direct members of a container with their metadata, in path order. */
export async function readChildren(store: Store, path: string): Promise<{ path: string; meta: ResourceMeta }[]> {
  const prefix = `${path}\0`
  const out: { path: string; meta: ResourceMeta }[] = []
  for await (const key of store.contains.keys({ gt: prefix, lt: `${prefix}\uffff` })) {
    const child = key.slice(prefix.length)
    const meta = await getMeta(store, child)
    if (meta) out.push({ path: child, meta })
  }
  return out
}

export async function hasChildren(store: Store, path: string): Promise<boolean> {
  const prefix = `${path}\0`
  for await (const _ of store.contains.keys({ gt: prefix, lt: `${prefix}\uffff`, limit: 1 })) return true
  return false
}

function containerMeta(now: number, previous?: ResourceMeta): ResourceMeta {
  return { kind: 'container', contentType: 'text/turtle', etag: newEtag(), size: previous?.size ?? 0, modified: now }
}

/**
 * Listings show each member's dcterms:modified and stat:size, so a container's strong ETag changes
 * whenever a member does (RFC 9110 §8.8.3). Its Last-Modified follows containment only (Solid
 * Protocol §5.1); when that changes, the grandparent's listing changes too, so its ETag follows.
 */
export function touchContainers(
  batch: Batch,
  store: Store,
  writes: MetaWrites,
  member: string,
  containmentChanged: boolean,
  metaOf: Map<string, ResourceMeta>,
  now: number,
) {
  const parent = parentPath(member)
  const parentMeta = parent === undefined ? undefined : metaOf.get(parent)
  if (parent === undefined || !parentMeta) return
  putMeta(batch, store, writes, parent, containmentChanged ? withListingChanged(parentMeta, now) : { ...parentMeta, etag: newEtag() })
  if (containmentChanged) touchContainers(batch, store, writes, parent, false, metaOf, now)
}

/**
 * Creates or replaces one resource and any missing ancestor containers in one synced batch.
 * Callers check names and preconditions under the resource locks (resource-locks.ts) before calling.
 */
export async function writeResource(store: Store, baseUrl: string, path: string, content: NewContent, now: number, by?: ChangeAuthor): Promise<WriteResult> {
  const previous = await getMeta(store, path)
  const missing: string[] = []
  const known = new Map<string, ResourceMeta>()
  for (const ancestor of ancestorPaths(path)) {
    const m = await getMeta(store, ancestor)
    if (m) known.set(ancestor, m)
    else missing.push(ancestor)
  }
  const oldKeys = previous ? await readKeys(store, baseUrl, path) : []
  const graph = graphOf(baseUrl, path)
  const newQuads = (content.triples ?? []).map(t => quad(t.subject, t.predicate, t.object, graph) as Quad)
  const blob = content.kind === 'binary' ? content.blob : undefined
  // With versions, each state of a path is a memento named by when it was written: two writes within one
  // millisecond must not share that name, so a state is always written at least a millisecond after the one it replaces.
  const writtenAt = previous && store.versioning.keep ? Math.max(now, previous.modified + 1) : now
  const meta: ResourceMeta = {
    kind: content.kind,
    contentType: content.contentType,
    etag: newEtag(),
    size: blob?.size ?? content.size,
    modified: writtenAt,
    ...(blob ? { blob: blob.id, sha256: blob.sha256 } : {}),
    ...(content.prefixes ? { prefixes: content.prefixes } : {}),
    ...(content.namedGraphs ? { namedGraphs: true as const } : {}),
  }

  const writes: MetaWrites = new Map()
  const batch = graphChangeOps(store.quads, oldKeys, newQuads)
  // The very same statements written again: the version names the new state for them rather than copy them.
  const kept = previous && previous.kind !== 'binary' && content.kind !== 'binary' && batch.length === 0 ? { sameAs: writtenAt } : oldKeys
  for (const dir of missing) {
    const made = containerMeta(now)
    putMeta(batch, store, writes, dir, made)
    batch.push(...creationOps(store, dir, made, by))
    const parent = parentPath(dir)
    if (parent) batch.push(put(store.contains, memberKey(parent, dir), UNREAD_VALUE))
  }
  putMeta(batch, store, writes, path, meta)
  // The blob becomes the resource's in this batch; the replaced one is removed once the batch is on disk.
  if (blob) batch.push(put(store.blobRefs, blob.id, path))
  if (previous?.blob !== undefined) batch.push(del(store.blobRefs, previous.blob))
  // The replaced state stays as a version (its file with it: `released` keeps what a version holds).
  if (previous) batch.push(...versionOps(store, baseUrl, path, previous, kept, 'update', writtenAt, by))
  else batch.push(...creationOps(store, path, meta, by))
  const parent = parentPath(path)
  if (!previous && parent && !isAuxiliaryPath(path)) batch.push(put(store.contains, memberKey(parent, path), UNREAD_VALUE))
  // The topmost new resource is the one an existing container gains.
  if (!isAuxiliaryPath(path)) touchContainers(batch, store, writes, missing[0] ?? path, !previous, known, now)
  const changes = changesOfWrite(path, missing, !previous, writes, now)
  await commitChanges(store, { batch, writes, changes }, { added: blob?.id, released: blobIds([previous]) })
  return { meta, created: !previous, createdContainers: missing }
}

/** One change, with the topic's state as this write leaves it (store/change-feed.ts). */
export function change(topic: string, type: ChangeType, object: string, writes: MetaWrites, now: number): ResourceChange {
  const meta = writes.get(topic)
  return { topic, type, object, ...(meta ? { state: defaultEtag(meta) } : {}), published: now }
}

/**
 * What a write changed, parents first: each container it created (and its parent gaining it), then the
 * resource itself, and its container gaining it when it is new.
 */
function changesOfWrite(path: string, createdContainers: readonly string[], created: boolean, writes: MetaWrites, now: number): ResourceChange[] {
  const changes: ResourceChange[] = []
  const gained = (member: string) => {
    const parent = parentPath(member)
    if (parent !== undefined && !isAuxiliaryPath(member)) changes.push(change(parent, 'Add', member, writes, now))
  }
  for (const dir of createdContainers) {
    changes.push(change(dir, 'Create', dir, writes, now))
    gained(dir)
  }
  changes.push(change(path, created ? 'Create' : 'Update', path, writes, now))
  if (created) gained(path)
  return changes
}

/** Removes a resource with its ACL and its membership entry in one synced batch; both stay as versions. */
export async function deleteResource(store: Store, baseUrl: string, path: string, now: number, by?: ChangeAuthor): Promise<void> {
  const acl = aclOf(path)
  const [meta, aclMeta] = [await getMeta(store, path), await getMeta(store, acl)]
  if (!meta) return
  const ownKeys = await readKeys(store, baseUrl, path)
  const aclKeys = aclMeta ? await readKeys(store, baseUrl, acl) : []
  const keys = [...ownKeys, ...aclKeys]
  const parent = parentPath(path)
  const known = new Map<string, ResourceMeta>()
  for (const ancestor of ancestorPaths(path).slice(-2)) {
    const m = await getMeta(store, ancestor)
    if (m) known.set(ancestor, m)
  }
  const writes: MetaWrites = new Map()
  const batch = graphChangeOps(store.quads, keys, [])
  putMeta(batch, store, writes, path, null)
  if (meta.blob !== undefined) batch.push(del(store.blobRefs, meta.blob))
  batch.push(...versionOps(store, baseUrl, path, meta, ownKeys, 'delete', now, by))
  if (aclMeta) {
    putMeta(batch, store, writes, acl, null)
    batch.push(...versionOps(store, baseUrl, acl, aclMeta, aclKeys, 'delete', now, by))
  } else writes.set(acl, null) // its cached absence goes with the resource
  if (parent && !isAuxiliaryPath(path)) {
    batch.push(del(store.contains, memberKey(parent, path)))
    touchContainers(batch, store, writes, path, true, known, now)
  }
  const changes: ResourceChange[] = [change(path, 'Delete', path, writes, now)]
  if (aclMeta) changes.push(change(acl, 'Delete', acl, writes, now))
  if (parent && !isAuxiliaryPath(path)) changes.push(change(parent, 'Remove', path, writes, now))
  await commitChanges(store, { batch, writes, changes }, { released: blobIds([meta, aclMeta]) })
}
