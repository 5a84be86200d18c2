// A container's members from the membership index, a chunk or a page at a time, each chunk's metadata in one getMany.

import type { Store } from './open-store.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { KeyIterator } from './sublevel.ts'

export interface Member {
  readonly path: string
  readonly meta: ResourceMeta
}

/**
 * Members read per round: one key scan step and one `getMany` on `meta` each. A `get` per member cost
 * ~10 µs; a `getMany` of 1,000 under 2 µs a member, and 1,000 members are ~150 KB of Turtle, a chunk a
 * socket takes in one write.
 */
export const MEMBER_CHUNK = 1000

/** Where a page starts: at either end, or just past a member path (which need not exist any more). */
export type PageCursor = { readonly from: 'first' } | { readonly from: 'last' } | { readonly after: string } | { readonly before: string }

export interface MemberPage {
  /** In path order. */
  readonly items: readonly Member[]
  /** Members sort before the first item (before the cursor, for an empty page). */
  readonly hasPrev: boolean
  /** Members sort after the last item (after the cursor, for an empty page). */
  readonly hasNext: boolean
}

// Membership keys are `${container}\0${child}` (resources.ts memberKey): one container's are one key range.
const prefixOf = (container: string) => `${container}\0`
const endOf = (container: string) => `${container}\0\uffff`

/** Up to `n` keys: `nextv` stops early at its byte budget (classic-level's highWaterMarkBytes), so ask until full. */
async function takeKeys(keys: KeyIterator, n: number): Promise<string[]> {
  const out: string[] = []
  while (out.length < n) {
    const got = await keys.nextv(n - out.length)
    if (got.length === 0) break
    for (const k of got) out.push(k)
  }
  return out
}

async function withMeta(store: Store, prefix: string, keys: readonly string[], snapshot: unknown): Promise<Member[]> {
  const paths = keys.map(k => k.slice(prefix.length))
  const metas = await store.meta.getMany(paths, { snapshot })
  const out: Member[] = []
  for (let i = 0; i < paths.length; i++) {
    const meta = metas[i]
    if (meta) out.push({ path: paths[i]!, meta })
  }
  return out
}

/**
 * Every member in path order, `chunk` at a time, as the database was when the first chunk was asked
 * for (one LevelDB snapshot for keys and metadata alike). Nothing but the current chunk is held; the
 * snapshot and iterator are released when the caller stops, early (`return()`) or at the end.
 */
export async function* readMemberChunks(store: Store, container: string, chunk = MEMBER_CHUNK): AsyncGenerator<Member[], void, undefined> {
  const snapshot = store.db.snapshot()
  const prefix = prefixOf(container)
  const keys = store.contains.keys({ gt: prefix, lt: endOf(container), snapshot })
  try {
    for (;;) {
      const batch = await takeKeys(keys, chunk)
      if (batch.length === 0) return
      yield await withMeta(store, prefix, batch, snapshot)
      if (batch.length < chunk) return
    }
  } finally {
    await keys.close()
    await snapshot.close()
  }
}

/** Keys in a range, at most `limit`, closing the iterator whatever happens. */
async function keysIn(
  store: Store,
  range: { gt?: string; gte?: string; lt?: string; lte?: string; reverse?: boolean; snapshot: unknown },
  limit: number,
): Promise<string[]> {
  const keys = store.contains.keys({ ...range, limit })
  try {
    return await takeKeys(keys, limit)
  } finally {
    await keys.close()
  }
}

/**
 * One page of at most `limit` members. The cursor is a member path, not an offset, so members added
 * or removed elsewhere in the container never shift a page: walking `after` the last item of each page
 * sees every member that was there throughout exactly once. Costs `limit` + 2 keys, whatever the size.
 */
export async function readMemberPage(store: Store, container: string, cursor: PageCursor, limit: number): Promise<MemberPage> {
  const prefix = prefixOf(container)
  const end = endOf(container)
  const snapshot = store.db.snapshot()
  try {
    const backward = 'before' in cursor || ('from' in cursor && cursor.from === 'last')
    let keys: string[]
    let hasPrev: boolean
    let hasNext: boolean
    if (!backward) {
      const after = 'after' in cursor ? prefix + cursor.after : prefix
      keys = await keysIn(store, { gt: after, lt: end, snapshot }, limit + 1)
      hasNext = keys.length > limit
      if (hasNext) keys.pop()
      hasPrev = 'after' in cursor && (await keysIn(store, { gt: prefix, lte: after, reverse: true, snapshot }, 1)).length > 0
    } else {
      const before = 'before' in cursor ? prefix + cursor.before : end
      keys = await keysIn(store, { gt: prefix, lt: before, reverse: true, snapshot }, limit + 1)
      hasPrev = keys.length > limit
      if (hasPrev) keys.pop()
      keys.reverse()
      hasNext = 'before' in cursor && (await keysIn(store, { gte: before, lt: end, snapshot }, 1)).length > 0
    }
    return { items: await withMeta(store, prefix, keys, snapshot), hasPrev, hasNext }
  } finally {
    await snapshot.close()
  }
}

/** How many members, counting at most `upTo` keys: `exact` is false when there are more. */
export async function countMembers(store: Store, container: string, upTo: number): Promise<{ count: number; exact: boolean }> {
  const snapshot = store.db.snapshot()
  try {
    const n = (await keysIn(store, { gt: prefixOf(container), lt: endOf(container), snapshot }, upTo + 1)).length
    return { count: Math.min(n, upTo), exact: n <= upTo }
  } finally {
    await snapshot.close()
  }
}
