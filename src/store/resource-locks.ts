// Write locks per resource name: writes to different resources run side by side; conflicting ones queue.

import type { Store } from './open-store.ts'
import { getMeta } from './resources.ts'
import { ancestorPaths } from './paths.ts'
import { aclOf } from './acl-names.ts'

/** Names to hold while a write checks its preconditions and commits. */
export interface LockSet {
  readonly exclusive: readonly string[]
  readonly shared: readonly string[]
}

/**
 * Runs `fn` holding the locks `plan` asks for. `plan` is asked again once they are held; if the
 * store changed meanwhile so that it now wants more (a container vanished, a POST name was taken),
 * the locks are released and taken again, so `fn` always runs under the locks of what it will do.
 */
export type WithResourceLocks = <T>(plan: () => Promise<LockSet>, fn: () => Promise<T>) => Promise<T>

/**
 * Held shared by every write and exclusive by a write that creates containers: creating a
 * container tree touches names a plan cannot know before it holds them, and it is rare.
 */
const TREE = ''

/**
 * `/a/b` and `/a/b/` share one lock (Solid Protocol §3.1: they may not both exist), so a
 * document and a container of one name never pass their clash checks side by side.
 */
const nameOf = (path: string) => (path === '/' ? '/' : path.replace(/\/$/, ''))

/**
 * The locks of a PUT, PATCH or POST of `path`: the name itself exclusive, every ancestor shared, so
 * none is deleted or replaced meanwhile. Writes that add or remove members of one container run side
 * by side (and share a synced batch): each adds or removes its own membership entry, and the
 * container's metadata is rewritten blind (a new ETag and, when containment changed, Last-Modified:
 * what any of them would write). A write that would create containers takes the whole tree.
 */
export async function writeLocks(store: Store, path: string): Promise<LockSet> {
  const ancestors = ancestorPaths(path)
  for (const a of ancestors) if (!(await getMeta(store, a))) return { exclusive: [TREE], shared: [] }
  return lockSet([path], ancestors)
}

/** The locks of a DELETE of `path`: it and its ACL exclusive, every ancestor shared. */
export async function deleteLocks(_store: Store, path: string): Promise<LockSet> {
  return lockSet([path, aclOf(path)], ancestorPaths(path))
}

/**
 * The locks of a move: both names and their ACLs exclusive, every ancestor of both shared. A folder's
 * name held exclusive keeps out every write below it, since those hold it shared as an ancestor.
 */
export async function moveLocks(_store: Store, from: string, to: string): Promise<LockSet> {
  return lockSet([from, aclOf(from), to, aclOf(to)], [...ancestorPaths(from), ...ancestorPaths(to)])
}

/** The whole tree, exclusive: for a write that recreates names it cannot list before it holds them (a restore from the trash). */
export const wholeTreeLocks = async (): Promise<LockSet> => ({ exclusive: [TREE], shared: [] })

function lockSet(own: readonly string[], ancestors: readonly string[]): LockSet {
  return { exclusive: own.map(nameOf), shared: [TREE, ...ancestors.map(nameOf)] }
}

/** A readers–writer lock granting in arrival order, so a steady stream of readers cannot starve a writer. */
class RwLock {
  #readers = 0
  #writer = false
  readonly #queue: { exclusive: boolean; grant: () => void }[] = []

  get idle() {
    return this.#readers === 0 && !this.#writer && this.#queue.length === 0
  }

  acquire(exclusive: boolean): Promise<void> {
    if (this.#queue.length === 0 && this.#free(exclusive)) {
      this.#take(exclusive)
      return Promise.resolve()
    }
    return new Promise(grant => this.#queue.push({ exclusive, grant }))
  }

  release(exclusive: boolean) {
    if (exclusive) this.#writer = false
    else this.#readers--
    while (this.#queue.length > 0 && this.#free(this.#queue[0]!.exclusive)) {
      const next = this.#queue.shift()!
      this.#take(next.exclusive)
      next.grant()
    }
  }

  #free(exclusive: boolean) {
    return !this.#writer && (!exclusive || this.#readers === 0)
  }
  #take(exclusive: boolean) {
    if (exclusive) this.#writer = true
    else this.#readers++
  }
}

/** name → exclusive? ; a name wanted both ways is wanted exclusive. */
type Wanted = Map<string, boolean>

function wanted(set: LockSet): Wanted {
  const w: Wanted = new Map()
  for (const n of set.shared) w.set(n, false)
  for (const n of set.exclusive) w.set(n, true)
  return w
}

function union(a: Wanted, b: Wanted): Wanted {
  const u = new Map(a)
  for (const [n, exclusive] of b) u.set(n, exclusive || (u.get(n) ?? false))
  return u
}

function covers(held: Wanted, need: Wanted): boolean {
  if (held.get(TREE) === true) return true
  for (const [n, exclusive] of need) {
    const h = held.get(n)
    if (h === undefined || (exclusive && !h)) return false
  }
  return true
}

/** After this many re-plans a write takes the whole tree rather than chase a changing store. */
const MAX_REPLANS = 3

export function makeResourceLocks(): WithResourceLocks {
  const locks = new Map<string, RwLock>()

  // Names are always taken in sorted order (TREE, the empty name, first): no two writes can each
  // hold a name the other waits for, so there is no deadlock.
  async function acquire(want: Wanted): Promise<() => void> {
    const names = [...want.keys()].sort()
    for (const n of names) {
      let lock = locks.get(n)
      if (!lock) locks.set(n, (lock = new RwLock()))
      await lock.acquire(want.get(n)!)
    }
    return () => {
      for (const n of names) {
        const lock = locks.get(n)!
        lock.release(want.get(n)!)
        if (lock.idle) locks.delete(n)
      }
    }
  }

  return async function withResourceLocks<T>(plan: () => Promise<LockSet>, fn: () => Promise<T>): Promise<T> {
    let want = wanted(await plan())
    for (let replans = 0; ; replans++) {
      const release = await acquire(want)
      try {
        const need = wanted(await plan())
        if (covers(want, need)) return await fn()
        want = replans >= MAX_REPLANS ? new Map([[TREE, true]]) : union(want, need)
      } finally {
        release()
      }
    }
  }
}
