// The operations every face of the pod (the resource server, the owner's and the visitors' pages; WebDAV and
// share links to come) performs on the pod's resources the one way: for an explicit principal, decided by the one decider
// with the modes the resource server would require, refused by the pod's essentials rules
// (policy/pod-essentials.ts), and announced by the store's change feed (whose hearing also keeps the decider's
// caches true). See docs/architecture.md, "One operations layer".

import { protectedReason, unmovableReason } from '../policy/pod-essentials.ts'
import { moveResource, type MovedPath } from '../store/move-resource.ts'
import { deleteTree } from '../store/delete-tree.ts'
import { contentKey, restoreFromTrash, trashResource, type TrashItem } from '../store/trash.ts'
import { readTree } from '../store/resource-tree.ts'
import { getMeta } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { deleteLocks, moveLocks, wholeTreeLocks } from '../store/resource-locks.ts'
import type { WriteResult } from '../store/resources.ts'
import { creationNeeds, deletionNeeds, requireAll, type Deciding } from './tree-access.ts'
import { authorOf, type Acting, type ResourcesDeps } from './acting.ts'
import { makePutResource, putInOneStep, type PutFacts, type PutPlan } from './put-resource.ts'
import { makeCopyDocument } from './copy-document.ts'
import { makeCopyTree, type CopyFailure, type CopyTreeOptions } from './copy-tree.ts'
import { makeVersionReads, type VersionReads } from './versions.ts'
import { makeDeleteResource } from './delete-resource.ts'
import { makeReadResource, type Readable } from './read-resource.ts'
import { makePatchDocument, type PatchText } from './patch-document.ts'
import { makePostMember, postInOneStep, type PostFacts, type PostedMember, type PostPlan } from './post-member.ts'
import type { IncomingBody } from './new-content.ts'
import type { Preconditions } from './preconditions.ts'
import type { OutgoingBody } from './receive-content.ts'
import { readResource, type RepresentationRequest } from './representation.ts'
import { makeRepresentationCache } from './representation-cache.ts'
import { memoryShares } from '../lib/memory-budget.ts'
import { makeListMembers, type ListingRequest, type MemberListing } from './member-listing.ts'
import { makeTreeCount } from './tree-count.ts'
import { makeFolderZip, type ZipRequest } from './folder-zip.ts'
import { makeNameSearch, type NameSearchResult } from './name-search.ts'
import { makeAclListing } from './acl-listing.ts'
import { makeTrashDeletes, makeTrashListing, type TrashedItem } from './trash-listing.ts'
import { makeVersionActivity, type VersionActivity } from './version-activity.ts'
import { readDocumentStatements } from './document-statements.ts'
import type { DocumentDataset } from '../rdf/graph-statements.ts'
import { makeLockTable, membershipOf, removing, type LockTable, type SubmittedLocks } from './lock-table.ts'
import { makeMemberChunks, type Listing } from './list-members.ts'
import { makeAdmitPropertyChange, makeAdmitWriteAt } from './property-access.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { resolveTarget } from '../store/target.ts'
import { followDeletes } from '../store/dead-properties.ts'

export type { Acting, ResourcesDeps } from './acting.ts'

export interface Resources extends VersionReads, VersionActivity {
  /** GET or HEAD: Read on the target, then what is stored of it (404 only to a reader). */
  read(who: Acting, path: string): Promise<Readable>
  /**
   * `read`, then the stored statements of the RDF document or container (its own description) at `path`, for a face
   * that works on them rather than on a representation: the default graph, and the document's named graphs apart
   * (a file has none).
   */
  statements(who: Acting, path: string): Promise<DocumentDataset>
  /** What `read` gave as HTTP: the representation `request` asks for (content negotiation, 304, Range, a listing's page). */
  represent(path: string, readable: Readable, request: RepresentationRequest): Promise<Response>
  /** PUT, before its body: the path, access (with the containers it creates), the preconditions, the body's type for the target. */
  planPut(who: Acting, path: string, facts: PutFacts): Promise<PutPlan>
  /** PUT with its received body, as planned: decided again under the locks, the essentials applied; the body is discarded when refused. */
  commitPut(who: Acting, path: string, plan: PutPlan, body: IncomingBody, preconditions: Preconditions): Promise<WriteResult>
  /**
   * PUT in one step, for a face that holds the body or streams it from elsewhere (a page's upload): planned, received
   * (a file to the blob store, RDF whole), committed. `contentType` as a PUT's Content-Type header.
   */
  put(who: Acting, path: string, contentType: string | null, body: OutgoingBody, preconditions?: Preconditions): Promise<WriteResult>
  /** POST, before its body: Append on the container, then whether it is one. `container`: the member asked for is a container. */
  planPost(who: Acting, path: string, container: boolean, submitted?: SubmittedLocks): Promise<PostPlan>
  /** POST with its received body, as planned: a fresh name from the Slug hint, never overwriting; the body is discarded when refused. */
  commitPost(who: Acting, path: string, plan: PostPlan, body: IncomingBody, facts: PostFacts): Promise<PostedMember>
  /** POST of a document in one step, for a face that holds or streams the body (a page's upload): planned, received, committed. */
  post(who: Acting, path: string, contentType: string | null, body: OutgoingBody, facts: PostFacts): Promise<PostedMember>
  /** PATCH, before its body: the path, and Append on the target. */
  admitPatch(who: Acting, path: string): Promise<void>
  /** PATCH with the patch received whole: what it needs decided from the patch, applied all or nothing under the locks; the target's WAC-Allow. */
  patch(who: Acting, path: string, patch: PatchText, preconditions: Preconditions): Promise<{ result: WriteResult; wacAllow: string }>
  /** DELETE of one document or empty container (with its ACL); never of the pod's own endpoints (405 `reserved_path`, as PUT). */
  delete(who: Acting, path: string, preconditions: Preconditions): Promise<void>
  /**
   * A copy of the document or file `from` at `to` (a WebDAV COPY's, member by member): Read on `from`, then what a PUT
   * at `to` needs; a file's bytes get a second name where the blob store can (copy-document.ts).
   */
  copy(who: Acting, from: string, to: string, preconditions: Preconditions): Promise<WriteResult>
  /**
   * A copy of `from` at `to` that may be a folder: made anew, and with `deep` each member copied as `copy` does (never
   * its ACL); what cannot be copied is left out and answered, the rest copied. A folder into itself: 400 `copy_into_itself`.
   */
  copyTree(who: Acting, from: string, to: string, options: CopyTreeOptions): Promise<CopyFailure[]>
  /** Moves or renames `from` to `to` (stored paths, both folders or both not), with everything in it and its ACLs: what DELETEs of each item and PUTs creating each new one need. */
  move(who: Acting, from: string, to: string, submitted?: SubmittedLocks): Promise<MovedPath[]>
  /** Deletes `path` with everything in it into the trash: what a DELETE of each item needs. `expectedCount`: the members the principal was told of (a folder). */
  trash(who: Acting, path: string, expectedCount?: number, submitted?: SubmittedLocks): Promise<{ item: TrashItem; paths: string[] }>
  /** Puts a trashed item back where it was: what a PUT creating each of its resources needs. */
  restore(who: Acting, id: string): Promise<{ item: TrashItem; paths: string[] }>
  /**
   * Deletes the folder `path` with everything in it for good: what a DELETE of each item needs. Answers the paths deleted.
   * `expectedCount`: the items the principal was told of (the dashboard's confirmation); a WebDAV DELETE gives none.
   */
  deleteTree(who: Acting, path: string, expectedCount?: number, submitted?: SubmittedLocks): Promise<string[]>
  /** A page of the container's members with their count (up to a bound), after Read on it: member-listing.ts. */
  list(who: Acting, path: string, page: ListingRequest): Promise<MemberListing>
  /** Resources whose name holds the query's words, from the store's name index, for whoever controls the pod's root: name-search.ts. */
  findByName(who: Acting, query: string, limit: number): Promise<NameSearchResult>
  /** The stored paths of every ACL document of the pod, for whoever controls its root: acl-listing.ts. */
  aclDocuments(who: Acting): Promise<string[]>
  /** How many items the folder holds at any depth (what `trash` and `deleteTree` confirm), after Read on it and on every folder in it: tree-count.ts. */
  treeCount(who: Acting, path: string): Promise<number>
  /** What the trash holds, the most recently deleted first, for whoever holds Control of the pod's root: trash-listing.ts. */
  trashed(who: Acting): Promise<TrashedItem[]>
  /** Deletes one item of the trash for good, for the same principals as `trashed`; 404 for an id it does not hold. */
  deleteTrashed(who: Acting, id: string): Promise<{ item: TrashItem; bytes: number }>
  /** Empties the trash of what was deleted at or before `upTo` (epoch ms), for the same principals as `trashed`. */
  emptyTrash(who: Acting, upTo: number): Promise<{ items: number; bytes: number }>
  /**
   * The folder `path` (or the members of it `request.only` names) as one zip, streamed: Read on the folder first
   * (its refusal, or 404), then every item the principal may read, what it may not left out: folder-zip.ts.
   */
  zip(who: Acting, path: string, request?: ZipRequest): Promise<ReadableStream<Uint8Array>>
  /** A folder's members with their metadata, after Read on the folder (a WebDAV PROPFIND of Depth 1), a chunk at a time. */
  listMembers(who: Acting, path: string): Promise<Listing>
  /** Before a change of a resource's properties (WebDAV PROPPATCH): Write on it, as a PUT replacing it; then its metadata (404 only to a writer). */
  admitPropertyChange(who: Acting, path: string): Promise<ResourceMeta>
  /** Write on `path`, created or replaced (a COPY or MOVE's destination), decided before anything tells about it. */
  admitWriteAt(who: Acting, path: string): Promise<void>
  /**
   * WebDAV write locks: taken by the dav role, honoured by every write of this layer once access is decided, whichever
   * face asks (423 `locked` without the lock's token: a write's SubmittedLocks, in its Preconditions or its last argument).
   */
  readonly locks: LockTable
}

/** A representation as stored, for a copy: RDF as Turtle, a file as its bytes, whole. */
const asStored = (requestUrl: string): RepresentationRequest => ({
  accept: 'text/turtle',
  requestUrl,
  requestHeaders: new Headers(),
  head: false,
  headers: new Headers(),
})

export function makeResources(deps: ResourcesDeps): Resources {
  const { store, withResourceLocks, now } = deps
  const baseUrl = deps.cfg.baseUrl
  const d: Deciding = { baseUrl, access: deps.access }
  const representations = makeRepresentationCache(memoryShares(deps.cfg.memoryBudgetBytes).representations)

  // Decided under the operation's locks, on the tree the store then changes: nothing joins it unasked. A missing
  // target needs what a DELETE of a missing resource does (Read on its container, before its 404); the root is
  // asked alone (the store refuses it with 405, and reading the whole pod to say so would be waste).
  async function requireDeletion(who: Acting, path: string, alsoNeeded: (paths: string[]) => ReturnType<typeof creationNeeds> = () => []) {
    const meta = path === '/' ? undefined : await getMeta(store, path)
    const paths = meta ? (await readTree(store, path, meta)).map(e => e.path) : [path]
    await requireAll(d, who.principal, path, [...deletionNeeds(baseUrl, paths, meta !== undefined), ...alsoNeeded(paths)], who.origin)
  }

  const locks = makeLockTable({
    now,
    metaOf: path => getMeta(store, path),
    pathOfTag: tag => {
      if (!tag.startsWith('/') && !tag.startsWith(baseUrl + '/')) return undefined
      try {
        return resolveTarget(baseUrl, tag).path
      } catch {
        return undefined
      }
    },
  })
  // A lock goes with its resource: deleted, or moved away (RFC 4918 §7.7: a MOVE does not move the source's locks)
  store.changes.listen(changes => {
    for (const c of changes) if (c.type === 'Delete') locks.forget(c.object)
  })
  // A resource's WebDAV dead properties go with it, whichever face deletes or trashes it (store/dead-properties.ts)
  followDeletes(store)
  const puts = makePutResource(deps, locks)
  const posts = makePostMember(deps, locks)
  const read = makeReadResource(deps)
  const put = putInOneStep(deps, puts)
  const represent = (path: string, readable: Readable, request: RepresentationRequest) =>
    readResource({ ...request, store, baseUrl, path, meta: readable.meta, cache: representations })
  const versions = makeVersionReads(deps, put)
  // A folder restore deletes what was made since as an LDP DELETE would (decided, locked, versioned)
  const deleteResource = makeDeleteResource(deps, locks)
  const copy = makeCopyDocument(deps, read, (path, readable) => represent(path, readable, asStored(baseUrl + path)), puts)
  const listMembers = makeMemberChunks(deps)
  return {
    read,
    list: makeListMembers(deps, read),
    treeCount: makeTreeCount(deps, read),
    zip: makeFolderZip(deps, read),
    findByName: makeNameSearch(deps),
    aclDocuments: makeAclListing(deps),
    trashed: makeTrashListing(deps),
    ...makeTrashDeletes(deps),
    statements: async (who, path) => readDocumentStatements(store, baseUrl, path, (await read(who, path)).meta),
    locks,
    listMembers,
    admitPropertyChange: makeAdmitPropertyChange(deps),
    admitWriteAt: makeAdmitWriteAt(deps),
    represent,
    copy,
    copyTree: makeCopyTree({ read, put, copy, listMembers }),
    ...puts,
    put,
    ...versions,
    ...makeVersionActivity(deps, { ...versions, delete: deleteResource }),
    ...posts,
    post: postInOneStep(deps, posts),
    ...makePatchDocument(deps, locks),
    delete: makeDeleteResource(deps, locks),
    move: (who, from, to, submitted = {}) =>
      withResourceLocks(
        () => moveLocks(store, from, to),
        async () => {
          await requireDeletion(who, from, paths =>
            creationNeeds(
              baseUrl,
              paths.map(p => to + p.slice(from.length)),
            ),
          )
          const away = removing(from)
          await locks.admit({ ...submitted, path: from, changes: [from, to], members: [...away.members, ...membershipOf(to)], trees: away.trees })
          return moveResource(store, baseUrl, from, to, now(), { protectedReason: unmovableReason, by: authorOf(who) })
        },
      ),
    trash: (who, path, expectedCount, submitted = {}) =>
      withResourceLocks(
        () => deleteLocks(store, path),
        async () => {
          await requireDeletion(who, path)
          await locks.admit({ ...submitted, path, ...removing(path) })
          return trashResource(store, baseUrl, path, now(), { protectedReason, by: authorOf(who), ...(expectedCount !== undefined ? { expectedCount } : {}) })
        },
      ),
    deleteTree: (who, path, expectedCount, submitted = {}) =>
      withResourceLocks(
        () => deleteLocks(store, path),
        async () => {
          await requireDeletion(who, path)
          await locks.admit({ ...submitted, path, ...removing(path) })
          return deleteTree(store, baseUrl, path, now(), { protectedReason, by: authorOf(who), ...(expectedCount !== undefined ? { expectedCount } : {}) })
        },
      ),
    restore: (who, id) =>
      withResourceLocks(wholeTreeLocks, async () => {
        // An unknown id is the store's 404: the trash's ids are random and name no resource.
        const kept = (await store.trash.get(contentKey(id))) as readonly { path: string }[] | undefined
        if (kept) {
          const paths = kept.map(r => r.path)
          await requireAll(d, who.principal, paths[0]!, creationNeeds(baseUrl, paths), who.origin)
          // Back into a folder someone locked: its membership changes (no face restoring holds a WebDAV token)
          locks.require({ members: membershipOf(paths[0]!) })
        }
        return restoreFromTrash(store, baseUrl, id, now(), authorOf(who))
      }),
  }
}
