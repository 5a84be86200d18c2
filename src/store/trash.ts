// The trash: what the dashboard deleted, kept 30 days outside the pod's resources, restorable in one batch.

import { DataFactory, Parser, Writer } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { ResourceChange } from './change-feed.ts'
import { ancestorPaths, parentPath, twinPath } from './paths.ts'
import { graphChangeOps, UNREAD_VALUE } from './quad-ops.ts'
import { inSublevel } from './sublevel.ts'
import type { WriteOp } from './group-commit.ts'
import { readTreeToDelete, type DeleteChecks } from './delete-tree.ts'
import { change, del, getMeta, graphOf, memberKey, put, putMeta, readKeys, readTriples, touchContainers, type Batch } from './resources.ts'
import { commitChanges, type MetaWrites } from './commit-changes.ts'
import { creationOps, releaseBlobs, versionOps, type ChangeAuthor } from './versions.ts'

const { quad } = DataFactory

/** How long the trash keeps an item (docs/sharing.md: the dashboard's Delete). */
export const TRASH_KEEP_MS = 30 * 24 * 60 * 60_000
/**
 * A trashed item is one batch and one record: a folder larger than this is refused (413), and the owner
 * deletes it for good instead (in bounded batches, delete-tree.ts).
 */
export const TRASH_MAX_ITEMS = 2000
/** The same for the size of its RDF documents: their triples are kept in the item's one record. */
export const TRASH_MAX_RDF_BYTES = 64 * 1024 * 1024

export interface TrashItem {
  readonly id: string
  /** Where it was, the stored path. */
  readonly path: string
  readonly kind: ResourceMeta['kind']
  /** Members it held (at any depth), for a folder. */
  readonly count: number
  readonly deletedAt: number
}

/** One resource as the trash keeps it: its metadata and its graph as N-Triples with absolute IRIs. */
interface TrashedResource {
  readonly path: string
  readonly meta: ResourceMeta
  readonly triples: string
  readonly listedIn?: string
}

const itemKey = (id: string) => `item\0${id}`
export const contentKey = (id: string) => `content\0${id}`
/** blob-refs value of a trashed file's blob: not a path, so nothing takes it for a resource, but the start-up sweep keeps the file. */
export const trashBlobRef = (id: string) => `trash:${id}`
const toTrash = (store: Store, key: string, value: unknown): WriteOp => ({ type: 'put', key, value, ...inSublevel(store.trash) })

/** Deletes `path` (with everything in it and the ACLs) into the trash, in one synced batch. The caller holds its delete locks. */
export async function trashResource(
  store: Store,
  baseUrl: string,
  path: string,
  now: number,
  opts: DeleteChecks = {},
): Promise<{ item: TrashItem; paths: string[] }> {
  const { meta, tree, count } = await readTreeToDelete(store, path, opts)
  const rdfBytes = tree.reduce((n, e) => n + (e.meta.kind === 'binary' ? 0 : e.meta.size), 0)
  if (rdfBytes > TRASH_MAX_RDF_BYTES)
    throw new HttpError(
      413,
      'too_large_for_trash',
      `${path} holds more RDF than the trash keeps (${TRASH_MAX_RDF_BYTES / 1024 / 1024} MiB): delete it for good instead`,
    )
  if (count > TRASH_MAX_ITEMS)
    throw new HttpError(413, 'too_large_for_trash', `${path} holds ${count} items, more than the trash keeps (${TRASH_MAX_ITEMS}): delete it for good instead`)
  const id = `${now.toString(36).padStart(10, '0')}-${crypto.randomUUID().slice(0, 8)}`
  const item: TrashItem = { id, path, kind: meta.kind, count, deletedAt: now }

  const writes: MetaWrites = new Map()
  const batch: Batch = []
  const kept: TrashedResource[] = []
  const changes: ResourceChange[] = []
  for (const e of tree) {
    const triples = new Writer({ format: 'N-Triples' }).quadsToString(await readTriples(store, baseUrl, e.path))
    kept.push({ path: e.path, meta: e.meta, triples, ...(e.listedIn !== undefined ? { listedIn: e.listedIn } : {}) })
    const keys = await readKeys(store, baseUrl, e.path)
    batch.push(...graphChangeOps(store.quads, keys, []), ...versionOps(store, baseUrl, e.path, e.meta, keys, 'trash', now, opts.by))
    putMeta(batch, store, writes, e.path, null)
    if (e.meta.blob !== undefined) batch.push(put(store.blobRefs, e.meta.blob, trashBlobRef(id)))
    if (e.listedIn !== undefined) batch.push(del(store.contains, memberKey(e.listedIn, e.path)))
    changes.push(change(e.path, 'Delete', e.path, writes, now))
  }
  const parent = parentPath(path)!
  batch.push(del(store.contains, memberKey(parent, path)))
  touchContainers(batch, store, writes, path, true, await ancestorMetas(store, path), now)
  changes.push(change(parent, 'Remove', path, writes, now))
  batch.push(toTrash(store, itemKey(id), item), toTrash(store, contentKey(id), kept))
  await commitChanges(store, { batch, writes, changes })
  return { item, paths: tree.map(e => e.path) }
}

/** What the trash holds, the most recently deleted first. */
export async function readTrash(store: Store): Promise<TrashItem[]> {
  const out: TrashItem[] = []
  for await (const [, value] of store.trash.iterator({ gt: 'item\0', lt: 'item\0\uffff', reverse: true })) out.push(value as TrashItem)
  return out
}

/**
 * Puts a trashed item back where it was, in one synced batch, each resource as created now by `by` (as a write
 * that creates one: a folder restored to a time before this finds them made since). The caller holds the whole tree's lock.
 */
export async function restoreFromTrash(
  store: Store,
  baseUrl: string,
  id: string,
  now: number,
  by?: ChangeAuthor,
): Promise<{ item: TrashItem; paths: string[] }> {
  const item = (await store.trash.get(itemKey(id))) as TrashItem | undefined
  const kept = (await store.trash.get(contentKey(id))) as TrashedResource[] | undefined
  if (!item || !kept) throw new HttpError(404, 'not_found', 'there is no item of this id in the trash')
  const { path } = item
  if (await getMeta(store, path)) throw new HttpError(409, 'already_exists', `something named ${path} exists again: rename it first`)
  if (await getMeta(store, twinPath(path))) throw new HttpError(409, 'name_conflict', `${twinPath(path)} exists: a document and a folder cannot share a name`)
  const parent = parentPath(path)!
  if ((await getMeta(store, parent))?.kind !== 'container') throw new HttpError(404, 'not_found', `the folder ${parent} is gone: make it again first`)

  const writes: MetaWrites = new Map()
  const batch: Batch = []
  const changes: ResourceChange[] = []
  for (const r of kept) {
    const graph = graphOf(baseUrl, r.path)
    const quads = new Parser({ format: 'N-Triples' }).parse(r.triples).map(q => quad(q.subject, q.predicate, q.object, graph) as Quad)
    batch.push(...graphChangeOps(store.quads, [], quads))
    // Back as a new state, written now: it was absent since it went to the trash (its state of before is the
    // version the trash kept), so a memento of that time finds nothing and a folder restored to then removes it again.
    const { stateFrom: _, ...restored } = r.meta
    const meta = { ...restored, modified: now }
    putMeta(batch, store, writes, r.path, meta)
    batch.push(...creationOps(store, r.path, meta, by))
    if (r.meta.blob !== undefined) batch.push(put(store.blobRefs, r.meta.blob, r.path))
    if (r.listedIn !== undefined) batch.push(put(store.contains, memberKey(r.listedIn, r.path), UNREAD_VALUE))
  }
  batch.push(put(store.contains, memberKey(parent, path), UNREAD_VALUE))
  touchContainers(batch, store, writes, path, true, await ancestorMetas(store, path), now)
  for (const r of kept) changes.push(change(r.path, 'Create', r.path, writes, now))
  changes.push(change(parent, 'Add', path, writes, now))
  batch.push({ type: 'del', key: itemKey(id), ...inSublevel(store.trash) }, { type: 'del', key: contentKey(id), ...inSublevel(store.trash) })
  await commitChanges(store, { batch, writes, changes })
  return { item, paths: kept.map(r => r.path) }
}

/**
 * Drops what was deleted before `cutoff` (epoch ms), each item in its own synced batch, and then the
 * files of its blobs. Answers how many items went.
 */
export async function purgeTrash(store: Store, cutoff: number): Promise<number> {
  // Items are not pod resources: no change to tell, no lock to hold (a restore racing the purge finds the item gone, 404).
  let purged = 0
  for (const item of await readTrash(store)) {
    if (item.deletedAt >= cutoff) continue
    await dropItem(store, item.id)
    purged++
  }
  return purged
}

/** The metadata of what a trashed item keeps (the item and its members): their blobs and sizes. */
export async function trashedMetas(store: Store, id: string): Promise<ResourceMeta[]> {
  const kept = ((await store.trash.get(contentKey(id))) as TrashedResource[] | undefined) ?? []
  return kept.map(r => r.meta)
}

/** The bytes a trashed item holds (its files and its RDF as stored): what deleting it for good frees. */
export async function trashedBytes(store: Store, id: string): Promise<number> {
  const kept = ((await store.trash.get(contentKey(id))) as TrashedResource[] | undefined) ?? []
  return kept.reduce((n, r) => n + r.meta.size, 0)
}

/**
 * Deletes one item of the trash for good ("Delete for good"), in one synced batch and then its blobs' files;
 * answers it and the bytes it freed. The caller holds the whole tree's lock, so no restore of it runs meanwhile.
 */
export async function deleteTrashed(store: Store, id: string): Promise<{ item: TrashItem; bytes: number }> {
  const item = (await store.trash.get(itemKey(id))) as TrashItem | undefined
  if (!item) throw new HttpError(404, 'not_found', 'there is no item of this id in the trash')
  return { item, bytes: await dropItem(store, id) }
}

async function dropItem(store: Store, id: string): Promise<number> {
  const kept = ((await store.trash.get(contentKey(id))) as TrashedResource[] | undefined) ?? []
  const blobs = kept.flatMap(r => (r.meta.blob !== undefined ? [r.meta.blob] : []))
  await store.commit([
    { type: 'del', key: itemKey(id), ...inSublevel(store.trash) },
    { type: 'del', key: contentKey(id), ...inSublevel(store.trash) },
    ...blobs.map(b => del(store.blobRefs, b)),
  ])
  await releaseBlobs(store, blobs)
  return kept.reduce((n, r) => n + r.meta.size, 0)
}

async function ancestorMetas(store: Store, path: string): Promise<Map<string, ResourceMeta>> {
  const known = new Map<string, ResourceMeta>()
  for (const a of ancestorPaths(path).slice(-2)) {
    const m = await getMeta(store, a)
    if (m) known.set(a, m)
  }
  return known
}
