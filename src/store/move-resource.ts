// Rename or move a resource — a document, a file or a folder with everything in it — with its ACLs, in one synced batch.

import { DataFactory } from '../lib/n3.ts'
import type { Quad, Term } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { ResourceChange } from './change-feed.ts'
import { ACL_SUFFIX, isAcl } from './acl-names.ts'
import { readTree } from './resource-tree.ts'
import { ancestorPaths, isContainerPath, parentPath, twinPath } from './paths.ts'
import { graphChangeOps, UNREAD_VALUE } from './quad-ops.ts'
import { change, del, getMeta, graphOf, memberKey, put, putMeta, readKeys, touchContainers, type Batch } from './resources.ts'
import { commitChanges, type MetaWrites } from './commit-changes.ts'
import { versionOps, type ChangeAuthor } from './versions.ts'
import { movedPropertyOps } from './dead-properties.ts'

const { namedNode, quad } = DataFactory

export interface MovedPath {
  readonly from: string
  readonly to: string
}

export interface MoveOptions {
  /** Why a path may never be moved (the owner's WebID document, /keys/, the settings the profile links to), or undefined when it may. */
  readonly protectedReason?: (path: string) => string | undefined
  /** Who moves, recorded with the versions the old paths keep. */
  readonly by?: ChangeAuthor
}

const refuse = {
  path: (why: string) => new HttpError(400, 'invalid_path', why),
}

/**
 * Moves `from` to `to` (canonical stored paths, both a folder or both not). The caller holds the move's
 * locks (resource-locks.ts `moveLocks`); every check is made here, under them, before anything is written.
 *
 * quadstore keeps each resource as the named graph of its URL, so each graph is written again under the
 * new URL. IRIs are re-based by one rule: an IRI that names the moved resource — its URL, a fragment of it
 * (`…/card#me`), its ACL, and for a folder anything below it — names the same thing at the new URL, as a
 * relative IRI in the document would after the move. Other IRIs, literals, and IRIs in documents that were
 * not moved (links from elsewhere, an ancestor's ACL naming the old path) are left as they are: the pod cannot
 * tell a link that should follow from one that should not.
 *
 * Metadata (ETag, Last-Modified, size) moves unchanged: the content is the same, only its name changed.
 * A binary's blob stays where it is; only its reference names the new path.
 */
export async function moveResource(store: Store, baseUrl: string, from: string, to: string, now: number, opts: MoveOptions = {}): Promise<MovedPath[]> {
  if (from === '/') throw new HttpError(405, 'root_protected', 'the root of the pod cannot be moved')
  if (isAcl(from) || isAcl(to)) throw refuse.path('an ACL moves with its resource; move the resource itself')
  // The names no write may make (as the RS's PUT refuses them): the pod's own endpoints, a folder named like an ACL.
  if (isReservedPath(to)) throw new HttpError(405, 'reserved_path', `${to.split('/', 2).join('/')} is reserved for the pod's own endpoints`)
  if (
    to
      .split('/')
      .slice(1, -1)
      .some(name => name.endsWith(ACL_SUFFIX))
  )
    throw refuse.path(`a folder name may not end in ${ACL_SUFFIX}: that name belongs to an ACL document`)
  if (isContainerPath(from) !== isContainerPath(to)) {
    throw refuse.path(isContainerPath(from) ? 'a folder\'s new path must end with "/"' : 'a document\'s new path must not end with "/"')
  }
  if (isContainerPath(from) && to.startsWith(from) && to !== from)
    throw new HttpError(400, 'move_into_itself', `a folder cannot be moved into itself (${to} is inside ${from})`)
  const meta = await getMeta(store, from)
  if (!meta) throw new HttpError(404, 'not_found', `there is nothing at ${from}`)
  if (await getMeta(store, to)) throw new HttpError(409, 'already_exists', `something named ${to} exists already`)
  // Solid Protocol §3.1: a document and a folder of one name cannot both exist.
  if (await getMeta(store, twinPath(to))) throw new HttpError(409, 'name_conflict', `${twinPath(to)} exists: a document and a folder cannot share a name`)
  const newParent = parentPath(to)!
  const newParentMeta = await getMeta(store, newParent)
  if (newParentMeta?.kind !== 'container') throw new HttpError(404, 'not_found', `there is no folder ${newParent} to move into`)

  const tree = await readTree(store, from, meta)
  for (const e of tree) {
    const reason = opts.protectedReason?.(e.path)
    if (reason !== undefined) throw new HttpError(409, 'protected_resource', reason)
  }
  const renamed = (p: string) => to + p.slice(from.length)
  const rebase = rebaser(baseUrl + from, baseUrl + to, isContainerPath(from))

  const writes: MetaWrites = new Map()
  const batch: Batch = []
  for (const e of tree) {
    const target = renamed(e.path)
    const { items } = await store.quads.get({ graph: graphOf(baseUrl, e.path) })
    const graph = graphOf(baseUrl, target)
    const moved = items.map(q => quad(rebase(q.subject), rebase(q.predicate), rebase(q.object), graph) as Quad)
    const oldKeys = await readKeys(store, baseUrl, e.path)
    // The old path keeps what it held as a version; the new one starts with the same state (metadata moves unchanged).
    batch.push(
      ...graphChangeOps(store.quads, oldKeys, []),
      ...graphChangeOps(store.quads, [], moved),
      ...versionOps(store, baseUrl, e.path, e.meta, oldKeys, 'move', now, opts.by, target),
    )
    putMeta(batch, store, writes, e.path, null)
    putMeta(batch, store, writes, target, e.meta)
    if (e.meta.blob !== undefined) batch.push(put(store.blobRefs, e.meta.blob, target))
    if (e.listedIn !== undefined) {
      batch.push(del(store.contains, memberKey(e.listedIn, e.path)), put(store.contains, memberKey(renamed(e.listedIn), target), UNREAD_VALUE))
    }
  }
  const oldParent = parentPath(from)!
  batch.push(del(store.contains, memberKey(oldParent, from)), put(store.contains, memberKey(newParent, to), UNREAD_VALUE))
  // Both folders' listings changed (their ETags and Last-Modified follow, as for a write or a delete).
  const known = new Map<string, ResourceMeta>()
  for (const a of new Set([...ancestorPaths(from), ...ancestorPaths(to)])) {
    const m = await getMeta(store, a)
    if (m) known.set(a, m)
  }
  touchContainers(batch, store, writes, from, true, known, now)
  for (const [p, m] of writes) if (m && known.has(p)) known.set(p, m)
  touchContainers(batch, store, writes, to, true, known, now)

  // WebDAV dead properties are the resource's: they go to its new name (the old one's go with its Delete below)
  batch.push(
    ...(await movedPropertyOps(
      store,
      tree.map(e => ({ from: e.path, to: renamed(e.path) })),
    )),
  )

  const changes: ResourceChange[] = []
  for (const e of tree) changes.push(change(e.path, 'Delete', e.path, writes, now))
  changes.push(change(oldParent, 'Remove', from, writes, now))
  for (const e of tree) changes.push(change(renamed(e.path), 'Create', renamed(e.path), writes, now))
  changes.push(change(newParent, 'Add', to, writes, now))
  await commitChanges(store, { batch, writes, changes })
  return tree.map(e => ({ from: e.path, to: renamed(e.path) }))
}

/** The IRI re-basing rule of moveResource, for one move. */
function rebaser(oldUrl: string, newUrl: string, folder: boolean): <T extends Term>(term: T) => T {
  const names = (iri: string) => {
    if (!iri.startsWith(oldUrl)) return false
    if (folder) return true
    const rest = iri.slice(oldUrl.length).split('#', 1)[0]
    return rest === '' || rest === ACL_SUFFIX
  }
  return <T extends Term>(term: T): T =>
    term.termType === 'NamedNode' && names(term.value) ? (namedNode(newUrl + term.value.slice(oldUrl.length)) as unknown as T) : term
}
