// Reading and writing pod resources: quads in the resource's named graph, metadata, bodies, membership.

import { DataFactory } from 'n3'
import type { Quad } from '@rdfjs/types'
import { inSublevel, type Store } from './open-store.ts'
import { newEtag, type ResourceKind, type ResourceMeta } from './resource-meta.ts'
import { ancestorPaths, isAuxiliaryPath, parentPath } from './paths.ts'
import { aclOf } from './acl-names.ts'
import { forceSyncWrite } from './synced-batch.ts'

const { namedNode, quad, defaultGraph } = DataFactory

export interface NewContent {
  readonly kind: ResourceKind
  readonly contentType: string
  /** RDF documents and containers: the complete new set of triples (default graph). */
  readonly triples?: readonly Quad[]
  /** Binary resources: the exact bytes. */
  readonly body?: Uint8Array
  readonly size: number
}

export interface WriteResult {
  readonly meta: ResourceMeta
  readonly created: boolean
  /** Intermediate containers this write created (Solid Protocol: PUT/PATCH create them). */
  readonly createdContainers: readonly string[]
}

type Batch = Parameters<NonNullable<Parameters<Store['quads']['multiPatch']>[2]>['preWrite'] & {}>[0]

const graphOf = (baseUrl: string, path: string) => namedNode(baseUrl + path)
const memberKey = (container: string, child: string) => `${container}\0${child}`

// The metadata cache lives with the store handle (StoreCaches in open-store.ts).
export async function getMeta(store: Store, path: string): Promise<ResourceMeta | undefined> {
  const c = store.caches.meta
  const hit = c.entries.get(path)
  if (hit !== undefined) return hit ?? undefined
  const generation = c.generation
  const meta = await store.meta.get(path)
  if (generation === c.generation) c.entries.set(path, meta ?? null)
  return meta
}

/** Metadata a batch writes, recorded so the cache can take the new values once the batch has landed. */
type MetaWrites = Map<string, ResourceMeta | null>

function putMeta(batch: Batch, store: Store, writes: MetaWrites, path: string, meta: ResourceMeta | null) {
  if (meta) batch.put(path, meta, inSublevel(store.meta))
  else batch.del(path, inSublevel(store.meta))
  writes.set(path, meta)
}

function rememberMeta(store: Store, writes: MetaWrites) {
  const c = store.caches.meta
  c.generation++
  for (const [p, m] of writes) c.entries.set(p, m)
}

export async function readTriples(store: Store, baseUrl: string, path: string): Promise<Quad[]> {
  const { items } = await store.quads.get({ graph: graphOf(baseUrl, path) })
  return items.map(q => quad(q.subject, q.predicate, q.object, defaultGraph()) as Quad)
}

async function readGraph(store: Store, baseUrl: string, path: string): Promise<Quad[]> {
  return (await store.quads.get({ graph: graphOf(baseUrl, path) })).items as Quad[]
}

export const getBody = (store: Store, path: string) => store.blobs.get(path)

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
function touchContainers(batch: Batch, store: Store, writes: MetaWrites, member: string, containmentChanged: boolean, metaOf: Map<string, ResourceMeta>, now: number) {
  const parent = parentPath(member)
  const parentMeta = parent === undefined ? undefined : metaOf.get(parent)
  if (parent === undefined || !parentMeta) return
  putMeta(batch, store, writes, parent, { ...parentMeta, etag: newEtag(), ...(containmentChanged ? { modified: now } : {}) })
  if (containmentChanged) touchContainers(batch, store, writes, parent, false, metaOf, now)
}

/**
 * Creates or replaces one resource and any missing ancestor containers in one synced batch.
 * Callers check names and preconditions under the write lock before calling.
 */
export async function writeResource(store: Store, baseUrl: string, path: string, content: NewContent, now: number): Promise<WriteResult> {
  const previous = await getMeta(store, path)
  const missing: string[] = []
  const known = new Map<string, ResourceMeta>()
  for (const ancestor of ancestorPaths(path)) {
    const m = await getMeta(store, ancestor)
    if (m) known.set(ancestor, m)
    else missing.push(ancestor)
  }
  const oldQuads = previous ? await readGraph(store, baseUrl, path) : []
  const graph = graphOf(baseUrl, path)
  const newQuads = (content.triples ?? []).map(t => quad(t.subject, t.predicate, t.object, graph) as Quad)
  const meta: ResourceMeta = { kind: content.kind, contentType: content.contentType, etag: newEtag(), size: content.size, modified: now }

  const writes: MetaWrites = new Map()
  await store.quads.multiPatch(oldQuads as never, newQuads as never, {
    preWrite: async (batch: Batch) => {
      for (const dir of missing) {
        putMeta(batch, store, writes, dir, containerMeta(now))
        const parent = parentPath(dir)
        if (parent) batch.put(memberKey(parent, dir), '', inSublevel(store.contains))
      }
      putMeta(batch, store, writes, path, meta)
      if (content.kind === 'binary') batch.put(path, content.body ?? new Uint8Array(), inSublevel(store.blobs))
      else if (previous?.kind === 'binary') batch.del(path, inSublevel(store.blobs))
      const parent = parentPath(path)
      if (!previous && parent && !isAuxiliaryPath(path)) batch.put(memberKey(parent, path), '', inSublevel(store.contains))
      // The topmost new resource is the one an existing container gains.
      if (!isAuxiliaryPath(path)) touchContainers(batch, store, writes, missing[0] ?? path, !previous, known, now)
      forceSyncWrite(batch)
    },
  } as never)
  rememberMeta(store, writes)
  return { meta, created: !previous, createdContainers: missing }
}

/** Removes a resource with its ACL and its membership entry in one synced batch. */
export async function deleteResource(store: Store, baseUrl: string, path: string, now: number): Promise<void> {
  const acl = aclOf(path)
  const [meta, aclMeta] = [await getMeta(store, path), await getMeta(store, acl)]
  if (!meta) return
  const quads = [...await readGraph(store, baseUrl, path), ...(aclMeta ? await readGraph(store, baseUrl, acl) : [])]
  const parent = parentPath(path)
  const known = new Map<string, ResourceMeta>()
  for (const ancestor of ancestorPaths(path).slice(-2)) {
    const m = await getMeta(store, ancestor)
    if (m) known.set(ancestor, m)
  }
  const writes: MetaWrites = new Map()
  await store.quads.multiDel(quads as never, {
    preWrite: async (batch: Batch) => {
      putMeta(batch, store, writes, path, null)
      if (meta.kind === 'binary') batch.del(path, inSublevel(store.blobs))
      if (aclMeta) putMeta(batch, store, writes, acl, null)
      if (parent && !isAuxiliaryPath(path)) {
        batch.del(memberKey(parent, path), inSublevel(store.contains))
        touchContainers(batch, store, writes, path, true, known, now)
      }
      forceSyncWrite(batch)
    },
  } as never)
  rememberMeta(store, writes)
}
