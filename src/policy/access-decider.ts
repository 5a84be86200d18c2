// The pod's decision function with its caches: parsed ACLs, group members, the grant index and the
// data an Inherited grant follows. One instance serves every role that asks "may this agent …?".

import type { Quad } from '@rdfjs/types'
import type { Store } from '../store/open-store.ts'
import { REMOTE_DOCUMENT_CAPS, type FetchDoc, type RemoteDoc } from '../fetch/guarded-fetch.ts'
import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { getMeta, readChildren, readTriples } from '../store/resources.ts'
import { parseRdfDocumentOffThread, parseRemoteRdf } from '../rdf/parse-off-thread.ts'
import { RDF_DOCUMENT_TYPES } from '../rdf/media-types.ts'
import { log } from '../log.ts'
import type { Principal } from '../auth/principal.ts'
import { parseAclDocument, type Authorization } from './acl-document.ts'
import { makeGroupResolver } from './group-members.ts'
import { isAcl } from '../store/acl-names.ts'
import { aclViewOf, decideAccess, type AccessDecision, type AclView } from './access-decision.ts'
import { withinPermissions } from './uma-permissions.ts'
import { referencePredicates } from './shape-tree-references.ts'
import type { GrantLinks } from './grants.ts'
import { writableByOthers } from './link-trust.ts'
import { ownerWebIdOf } from '../config.ts'
import type { GrantRegistry } from './grant-registry.ts'
import type { AppScopes } from '../account/app-scopes.ts'
import { withinAppScope } from './app-scope.ts'
import { decideForLink } from './link-access.ts'

// Bounds of the in-memory caches: nothing grows without bound.
const ACL_CACHE_ENTRIES = 10_000
/** ACL URLs known not to exist: the ancestors' ACLs an inheritance walk asks about, on a busy pod. */
const ABSENT_ACL_ENTRIES = 2000
const GROUP_CACHE_ENTRIES = 1000
const ANONYMOUS_DECISIONS = 10_000
const ACL_VIEWS = 10_000
const SHAPE_TREES_KEPT = 100
const SHAPE_TREE_BYTES = 2 * 1024 * 1024
export const GROUP_CACHE_TTL_MS = 60_000

interface DeciderDeps {
  readonly cfg: { readonly baseUrl: string }
  readonly store: Store
  readonly now: () => number
  readonly fetchDoc: FetchDoc
  /**
   * A document of this pod read with the pod's own rights. Everything the decider reads (groups in
   * ACLs, shape trees and data of grants) was named by the owner, not by the requester, and groups
   * are usually private; the fetcher reads this pod's documents only as the public would.
   */
  readonly readOwnDocument?: (url: string, accept: string) => Promise<RemoteDoc | undefined>
  /** The folders the owner limited each of their apps to (absent: every app has full access). */
  readonly appScopes?: Pick<AppScopes, 'foldersOf'>
}

function missing(url: string): never {
  throw new HttpError(404, 'fetch_failed', `${new URL(url).pathname} does not exist on this pod`)
}

export function makeAccessDecider(deps: DeciderDeps, grants: GrantRegistry) {
  const { store, cfg } = deps
  // Parsed ACLs per ACL URL; an ACL that does not exist is cached too, so inheritance walks cost no
  // store reads, but apart: absent ACLs are named by every resource ever asked about (deleted ones,
  // 404 probes), and under churn they filled the whole cache (seen in an hour-long soak). Every write to an ACL
  // path invalidates its entry.
  const acls = forgetWhenIdle(new LruCache<string, readonly Authorization[]>(ACL_CACHE_ENTRIES))
  const absentAcls = forgetWhenIdle(new LruCache<string, true>(ABSENT_ACL_ENTRIES))
  // Bumped by every invalidation: a load that read the store before a write committed must not cache what it read.
  let generation = 0

  async function loadAcl(aclUrl: string): Promise<readonly Authorization[] | undefined> {
    const cached = acls.get(aclUrl)
    if (cached || absentAcls.get(aclUrl)) return cached
    const started = generation
    const path = aclUrl.slice(cfg.baseUrl.length)
    const meta = await getMeta(store, path)
    const auths = meta ? parseAclDocument(await readTriples(store, cfg.baseUrl, path), aclUrl) : undefined
    if (generation === started) {
      if (auths) acls.set(aclUrl, auths)
      else absentAcls.set(aclUrl, true)
    }
    return auths
  }

  function invalidateAcl(aclUrl: string) {
    generation++
    acls.delete(aclUrl)
    absentAcls.delete(aclUrl)
    anonymous.clear()
    aclViews.clear()
  }

  // Each target's effective ACL and public modes depend on the ACLs alone, not on who asks: found once per
  // target until any ACL changes, so an authenticated requester's decision (not kept: it depends on groups,
  // grants and app scopes too) walks no ancestors' ACLs (~4 µs of a DPoP GET of a document with an inherited ACL).
  const aclViews = forgetWhenIdle(new LruCache<string, AclView>(ACL_VIEWS))
  const aclView = (target: string): AclView | Promise<AclView> => aclViews.get(target) ?? readAclView(target)
  async function readAclView(target: string): Promise<AclView> {
    const started = generation
    const view = await aclViewOf(target, loadAcl)
    if (generation === started) aclViews.set(target, view)
    return view
  }

  // An anonymous requester's modes depend on the ACLs alone (WAC §6.3: no agent, group or key of its own
  // can match; grants always name a grantee): decided once per target and Origin until any ACL changes.
  const anonymous = forgetWhenIdle(new LruCache<string, AccessDecision>(ANONYMOUS_DECISIONS))

  // Group documents and shape trees: named by the owner's rules and grants, not by a request. A remote one
  // is parsed on the remote worker; what is kept of it, and how long (`expiresAt`), is the caller's.
  const readRdf = async (docUrl: string): Promise<{ triples: Quad[]; expiresAt?: number; bytes: number }> => {
    const accept = 'text/turtle, application/ld+json;q=0.9'
    const own = deps.readOwnDocument && new URL(docUrl).origin === cfg.baseUrl
    if (own) {
      const doc = (await deps.readOwnDocument!(docUrl, accept)) ?? missing(docUrl)
      return { triples: (await parseRdfDocumentOffThread(doc.body, doc.contentType, doc.url)).triples, bytes: doc.body.length }
    }
    const doc = await deps.fetchDoc(docUrl, { accept, allowedTypes: [...RDF_DOCUMENT_TYPES], maxBytes: REMOTE_DOCUMENT_CAPS.ownerNamed })
    return {
      triples: await parseRemoteRdf(doc.body, doc.contentType, doc.url),
      ...(doc.expiresAt !== undefined ? { expiresAt: doc.expiresAt } : {}),
      bytes: doc.body.length,
    }
  }
  const fetchRdf = async (docUrl: string) => (await readRdf(docUrl)).triples

  // A shape tree is read by every decision an Inherited grant takes part in: a remote one's triples are kept
  // as long as HTTP caching allows (bounded in bytes), not fetched and parsed again per request.
  const shapeTrees = new LruCache<string, Promise<Quad[]>>(SHAPE_TREES_KEPT, { maxWeight: SHAPE_TREE_BYTES })
  const loadShapeTree = (docUrl: string): Promise<Quad[]> => {
    const hit = shapeTrees.get(docUrl, deps.now())
    if (hit) return hit
    const loading = readRdf(docUrl)
    const triples = loading.then(d => d.triples)
    loading.then(
      d => {
        if (d.expiresAt !== undefined && d.expiresAt > deps.now()) shapeTrees.set(docUrl, triples, d.expiresAt, d.bytes)
      },
      () => undefined,
    )
    return triples
  }

  const isGroupMember = makeGroupResolver(fetchRdf, {
    maxEntries: GROUP_CACHE_ENTRIES,
    ttlMs: GROUP_CACHE_TTL_MS,
    now: deps.now,
    onError: (groupUrl, error) => log.warn('acl.group_unavailable', { group: groupUrl, reason: error instanceof Error ? error.message : String(error) }),
  })

  const pathOf = (url: string) => (url.startsWith(cfg.baseUrl + '/') ? url.slice(cfg.baseUrl.length) : undefined)
  const links: GrantLinks = {
    referencePredicates: (fromTree, toTree) =>
      referencePredicates(fromTree, toTree, loadShapeTree).catch((error: unknown) => {
        log.warn('grant.shape_tree_unavailable', { shapeTree: fromTree, reason: error instanceof Error ? error.message : String(error) })
        return []
      }),
    instancesOf: async registration => {
      const path = pathOf(registration)
      return path ? (await readChildren(store, path)).map(c => cfg.baseUrl + c.path) : []
    },
    linksFrom: async instance => {
      const path = pathOf(instance)
      if (!path || !(await getMeta(store, path))) return []
      return (await readTriples(store, cfg.baseUrl, path)).filter(q => q.object.termType === 'NamedNode').map(q => [q.predicate.value, q.object.value] as const)
    },
    writableByOthers: async instance =>
      writableByOthers(instance, { loadAcl, grants: grants.loadedIndex() ?? (await grants.index()), owner: ownerWebIdOf(cfg.baseUrl) }),
  }

  /**
   * Modes `principal` has on `url` (WAC ∪ grants), with the rule or grant behind each, or why none; a
   * principal holding a UMA access token gets no more than its permissions (uma-permissions.ts).
   * `deleting`: the container `url` is asked about because this member of it is being deleted.
   */
  async function decide(
    principal: Pick<Principal, 'webid' | 'clientId' | 'issuer' | 'keys' | 'permissions' | 'link'>,
    url: string,
    origin: string | undefined,
    deleting?: string,
  ): Promise<AccessDecision> {
    // A share link's holder gets what the link allows and nothing else: not even what the public may (link-access.ts)
    if (principal.link) return decideForLink(principal.link, url, cfg.baseUrl)
    const d = await decideByRules(principal, url, origin, deleting)
    const permitted = principal.permissions ? withinPermissions(d, principal.permissions) : d
    const folders = await appFolders(principal)
    return folders ? withinAppScope(permitted, folders, cfg.baseUrl) : permitted
  }

  // Only the owner's consent limits an app, and only tokens of the owner's WebID come from this pod's
  // own OP (or its UMA AS), whose client ids are therefore the ones the owner consented to.
  const owner = ownerWebIdOf(cfg.baseUrl)
  const appFolders = (principal: Pick<Principal, 'webid' | 'clientId'>) =>
    deps.appScopes && principal.clientId !== undefined && principal.webid === owner ? deps.appScopes.foldersOf(principal.clientId) : undefined

  async function decideByRules(
    principal: Pick<Principal, 'webid' | 'clientId' | 'issuer' | 'keys'>,
    url: string,
    origin: string | undefined,
    deleting?: string,
  ): Promise<AccessDecision> {
    const ctx = { trustedOrigins: [cfg.baseUrl], isGroupMember, ...(origin ? { origin } : {}) }
    // An issuer alone could satisfy an acl:IssuerCondition (acl-conditions.ts): not anonymous either
    const isAnonymous =
      principal.webid === undefined &&
      principal.clientId === undefined &&
      principal.issuer === undefined &&
      principal.keys.length === 0 &&
      deleting === undefined
    if (!isAnonymous)
      return decideAccess(principal, url, {
        loadAcl,
        aclView,
        ctx,
        grants: grants.loadedIndex() ?? (await grants.index()),
        links,
        ...(deleting ? { deleting } : {}),
      })
    const key = origin === undefined ? url : `${origin} ${url}`
    const known = anonymous.get(key)
    if (known) return known
    const started = generation
    const decision = await decideAccess(principal, url, { loadAcl, aclView, ctx, grants: grants.loadedIndex() ?? (await grants.index()), links })
    if (generation === started) {
      anonymous.set(key, decision)
    }
    return decision
  }

  /** After any write to a pod document: its parsed ACL or the members of a local group it describes are stale. */
  function forgetDocument(url: string) {
    if (isAcl(url)) invalidateAcl(url)
    isGroupMember.forget(url)
  }

  // Every write of every face (the RS, the owner's pages, keys, first start) reaches the store, and the store
  // tells its change feed once the write's batch is synced, synchronously before the write's promise resolves
  // (store/change-feed.ts): so a document is forgotten before its writer can answer, and no caller has to
  // remember to say so. Each change names what it created, updated or deleted (an ACL going with its
  // resource, each item of a move, trash, restore or folder delete) and, for Add and Remove, the container.
  store.changes.listen(changes => {
    for (const c of changes) {
      forgetDocument(cfg.baseUrl + c.object)
      if (c.topic !== c.object) forgetDocument(cfg.baseUrl + c.topic)
    }
  })

  return { decide }
}

export type AccessDecider = ReturnType<typeof makeAccessDecider>
