// WebDAV write locks (RFC 4918 §6, §7): which resources are locked, by which token, until when. Below every face:
// the dav role takes and releases them (LOCK, UNLOCK), and every write of the operations layer asks `admit` once
// access is decided (never before: a 423 would tell a stranger the resource exists), which judges the request's If
// header (§10.4, 412 when no list holds) and refuses a write to a locked resource whose token the request did not
// submit (423). Locks live in memory: RFC 4918 lets a server forget them (§6.6: a client whose lock is gone finds out
// on its next write or refresh, a 412 naming the lost token), and a restart should not leave files locked by a
// laptop that went away.

import { HttpError } from '../http/errors.ts'
import { namesState, type ResourceMeta } from '../store/resource-meta.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { submittedTokens, type IfList } from './if-header.ts'

export type LockScope = 'exclusive' | 'shared'

export interface WriteLock {
  /** RFC 4918 §6.5: a URI unique across all time; `urn:uuid:` (RFC 4122). */
  readonly token: string
  /** The stored path the lock was taken on. */
  readonly root: string
  readonly depth: '0' | 'infinity'
  readonly scope: LockScope
  /** The DAV:owner element as the client sent it (XML), given back in lockdiscovery; never read by the pod. */
  readonly owner?: string
  /** Seconds asked for (and granted); Infinity for `Infinite`. */
  readonly timeoutS: number
  readonly expiresAt: number
}

export interface LockRequest {
  readonly root: string
  readonly depth: '0' | 'infinity'
  readonly scope: LockScope
  readonly owner?: string
  readonly timeoutS: number
}

/** What a write changes, for `require`: every path is a stored path. */
export interface LockedWrite {
  /** The lock tokens the request submitted (its If header's, RFC 4918 §10.4.1); none from a face that holds no lock. */
  readonly tokens?: readonly string[]
  /** Resources whose content or properties change. */
  readonly changes?: readonly string[]
  /** Folders gaining or losing a member (RFC 4918 §7.4: a lock on a folder covers its membership). */
  readonly members?: readonly string[]
  /** Folders removed or replaced with everything in them (every lock inside needs its token). */
  readonly trees?: readonly string[]
}

/** The locks a request submits (RFC 4918 §10.4.1), for the layer to judge once access is decided. */
export interface SubmittedLocks {
  /** The request's If header, parsed once by the face (if-header.ts); judged on the write's own resource. */
  readonly ifLists?: readonly IfList[]
  /** Lock tokens a face holds itself, beyond its If header's (a LOCK's new lock, a COPY's judged header). */
  readonly lockTokens?: readonly string[]
}

/** What a write changes, with the locks its request submits, for `admit`. */
export interface WriteFacts extends Omit<LockedWrite, 'tokens'>, SubmittedLocks {
  /** The request's own resource, which an untagged If list is about. */
  readonly path: string
}

export interface LockTable {
  /** No lock is held anywhere: a write without an If header need not ask more. */
  none(): boolean
  /** Live locks covering `path`: taken on it, or on a folder above it with Depth infinity. */
  covering(path: string): WriteLock[]
  /** The live lock of `token`. */
  get(token: string): WriteLock | undefined
  /** A new lock; 423 lock_conflict when a lock covering or inside it is exclusive, or it is and one exists. */
  add(request: LockRequest): WriteLock
  /** RFC 4918 §9.10.2: a new timeout for a live lock. */
  refresh(token: string, timeoutS: number): WriteLock | undefined
  remove(token: string): boolean
  /** The If header's lists judged on the request's resource `path` (412 when no list holds): the lock tokens it submits. */
  judge(ifLists: readonly IfList[] | undefined, path: string): Promise<string[]>
  /** Every lock the write touches must have its token submitted (423): what every write of the operations layer asks. */
  require(write: LockedWrite): void
  /** After access: `judge`, then `require` with every token submitted; the tokens, for the writes the request then makes. */
  admit(facts: WriteFacts): Promise<string[]>
  /** Locks taken on paths that no longer exist go (the store's change feed tells of every Delete). */
  forget(path: string): void
}

/** At most this many live locks, whoever took them: each is a few hundred bytes held in memory. */
export const MAX_LOCKS = 10_000

export interface LockTableDeps {
  readonly now: () => number
  readonly metaOf: (path: string) => Promise<ResourceMeta | undefined>
  /** A Resource-Tag of an If list (an absolute URL or path) as a stored path; undefined when it is not on this pod. */
  readonly pathOfTag: (tag: string) => string | undefined
}

export function makeLockTable(deps: LockTableDeps): LockTable {
  const byRoot = new Map<string, WriteLock[]>()
  const byToken = new Map<string, WriteLock>()
  const now = deps.now

  const live = (lock: WriteLock) => {
    if (lock.expiresAt > now()) return true
    drop(lock)
    return false
  }
  function drop(lock: WriteLock) {
    byToken.delete(lock.token)
    const rest = (byRoot.get(lock.root) ?? []).filter(l => l.token !== lock.token)
    if (rest.length === 0) byRoot.delete(lock.root)
    else byRoot.set(lock.root, rest)
  }
  const at = (root: string) => (byRoot.get(root) ?? []).filter(live)

  function covering(path: string): WriteLock[] {
    const out = at(path)
    for (let p = parentPath(path); p !== undefined; p = parentPath(p)) for (const l of at(p)) if (l.depth === 'infinity') out.push(l)
    return out
  }
  /** Locks taken on `folder` or anything inside it. */
  const inside = (folder: string) => [...byRoot.keys()].filter(r => r.startsWith(folder)).flatMap(at)

  const expiry = (timeoutS: number) => (timeoutS === Infinity ? Number.MAX_SAFE_INTEGER : now() + timeoutS * 1000)

  /** RFC 4918 §10.4.3: a list holds when each of its conditions does, on its resource as it is now. */
  async function holds(list: IfList, requestPath: string): Promise<boolean> {
    const path = list.tag === undefined ? requestPath : deps.pathOfTag(list.tag)
    if (path === undefined) return false
    const tokens = new Set(covering(path).map(l => l.token))
    let meta: ResourceMeta | undefined | null = null
    for (const c of list.conditions) {
      let met: boolean
      if ('token' in c) met = tokens.has(c.token)
      else {
        if (meta === null) meta = await deps.metaOf(path)
        met = meta !== undefined && namesState(c.etag.replace(/^W\//, ''), meta)
      }
      if (met === c.not) return false
    }
    return true
  }

  async function judge(lists: readonly IfList[] | undefined, path: string): Promise<string[]> {
    if (lists === undefined || lists.length === 0) return []
    let any = false
    for (const list of lists)
      if (await holds(list, path)) {
        any = true
        break
      }
    if (!any)
      throw new HttpError(
        412,
        'precondition_failed',
        "no list of the If header holds: a lock token or entity tag it names is not the resource's now (a lock expires, is released, and is forgotten when the pod restarts: lock the resource again)",
      )
    return [...submittedTokens(lists)]
  }

  function requireTokens(w: LockedWrite): void {
    if (byToken.size === 0) return
    const submitted = new Set(w.tokens ?? [])
    const needed = [...[...(w.changes ?? []), ...(w.members ?? []), ...(w.trees ?? [])].flatMap(covering), ...(w.trees ?? []).flatMap(inside)]
    // Shared locks on one resource: the token of any one of them will do (RFC 4918 §6.2)
    const roots = new Map<string, WriteLock[]>()
    for (const l of needed) roots.set(l.root, [...(roots.get(l.root) ?? []), l])
    for (const [root, locks] of roots) {
      if (!locks.some(l => submitted.has(l.token))) {
        throw new HttpError(423, 'locked', `${root} is locked: send its lock token in the If header (RFC 4918 §10.4), or wait until it is unlocked`)
      }
    }
  }

  return {
    none: () => byToken.size === 0,
    covering,
    get: token => {
      const lock = byToken.get(token)
      return lock && live(lock) ? lock : undefined
    },
    add(request) {
      const conflicting = [...covering(request.root), ...(isContainerPath(request.root) && request.depth === 'infinity' ? inside(request.root) : [])]
      if (conflicting.some(l => l.scope === 'exclusive' || request.scope === 'exclusive')) {
        throw new HttpError(
          423,
          'lock_conflict',
          'the resource is locked already (or something inside it is) in a way that conflicts with this lock; wait until it is unlocked',
        )
      }
      if (byToken.size >= MAX_LOCKS)
        throw new HttpError(503, 'temporarily_unavailable', 'the pod holds as many locks as it keeps; retry once some are released')
      const lock: WriteLock = { ...request, token: `urn:uuid:${crypto.randomUUID()}`, expiresAt: expiry(request.timeoutS) }
      byToken.set(lock.token, lock)
      byRoot.set(lock.root, [...(byRoot.get(lock.root) ?? []), lock])
      return lock
    },
    refresh(token, timeoutS) {
      const lock = byToken.get(token)
      if (!lock || !live(lock)) return undefined
      const renewed = { ...lock, timeoutS, expiresAt: expiry(timeoutS) }
      drop(lock)
      byToken.set(token, renewed)
      byRoot.set(renewed.root, [...(byRoot.get(renewed.root) ?? []), renewed])
      return renewed
    },
    remove(token) {
      const lock = byToken.get(token)
      if (!lock) return false
      drop(lock)
      return lock.expiresAt > now()
    },
    judge,
    require: requireTokens,
    async admit(f) {
      const tokens = [...(f.lockTokens ?? []), ...(await judge(f.ifLists, f.path))]
      requireTokens({ ...f, tokens })
      return tokens
    },
    forget(path) {
      for (const lock of byRoot.get(path) ?? []) drop(lock)
    },
  }
}

/** The parent folder whose membership a write changes when `path` is created or removed. */
export const membershipOf = (path: string): string[] => {
  const parent = parentPath(path)
  return parent === undefined ? [] : [parent]
}

/** What writing `path` changes: the resource, and its folder's membership when it is new. */
export const writing = (path: string, exists: boolean): Required<Omit<LockedWrite, 'tokens'>> => ({
  changes: [path],
  members: exists ? [] : membershipOf(path),
  trees: [],
})

/** What removing `path` changes: the resource, its folder's membership, and for a folder everything in it. */
export const removing = (path: string): Required<Omit<LockedWrite, 'tokens'>> => ({
  changes: [path],
  members: membershipOf(path),
  trees: isContainerPath(path) ? [path] : [],
})
