// Keyed records with expiry for OP/AS state (codes, refresh tokens, sessions, clients, keys…).

import type { Store } from './open-store.ts'

/** A record family: its own key space, e.g. 'auth-code', 'refresh-token', 'session'. */
export type RecordKind = string

/** The key of a record in `store.records`, for writers that put a record into a larger batch. */
export const keyOf = (kind: RecordKind, key: string) => `${kind}\0${key}`
export const NEVER = Number.MAX_SAFE_INTEGER

/**
 * Written synced: a code or token acknowledged to a client must survive a crash. `sync: false` only
 * for records whose loss costs a client one retry (UMA permission tickets).
 */
export async function putRecord<V>(store: Store, kind: RecordKind, key: string, value: V, expiresAt: number = NEVER, o: { sync?: boolean } = {}) {
  await store.records.put(keyOf(kind, key), { v: value, exp: expiresAt }, { sync: o.sync ?? true })
}

export async function getRecord<V>(store: Store, kind: RecordKind, key: string, now: number): Promise<V | undefined> {
  const rec = await store.records.get(keyOf(kind, key))
  if (!rec || rec.exp <= now) return undefined
  return rec.v as V
}

export async function deleteRecord(store: Store, kind: RecordKind, key: string, o: { sync?: boolean } = {}) {
  await store.records.del(keyOf(kind, key), { sync: o.sync ?? true })
}

/**
 * Many puts and deletes of one kind as one LevelDB batch (one write however many records): for
 * families written often and cheaply, like UMA tickets. `sync` as for putRecord.
 */
export async function writeRecords<V>(
  store: Store,
  kind: RecordKind,
  puts: readonly { key: string; value: V; expiresAt: number }[],
  deletes: readonly string[],
  o: { sync?: boolean } = {},
) {
  if (puts.length === 0 && deletes.length === 0) return
  const batch = store.records.batch()
  for (const p of puts) batch.put(keyOf(kind, p.key), { v: p.value, exp: p.expiresAt })
  for (const k of deletes) batch.del(keyOf(kind, k))
  await batch.write({ sync: o.sync ?? true })
}

/** Every live record of a kind (small families only: sessions, clients, keys). */
export async function readRecords<V>(store: Store, kind: RecordKind, now: number): Promise<{ key: string; value: V; expiresAt: number }[]> {
  const prefix = `${kind}\0`
  const out: { key: string; value: V; expiresAt: number }[] = []
  for await (const [k, rec] of store.records.iterator({ gt: prefix, lt: `${prefix}\uffff` })) {
    if (rec.exp > now) out.push({ key: k.slice(prefix.length), value: rec.v as V, expiresAt: rec.exp })
  }
  return out
}

/** Drops expired records (of one kind, or all); run periodically so nothing grows without bound on disk. */
export async function sweepExpiredRecords(store: Store, now: number, kind?: RecordKind): Promise<number> {
  const range = kind === undefined ? {} : { gt: `${kind}\0`, lt: `${kind}\0\uffff` }
  const expired: string[] = []
  for await (const [k, rec] of store.records.iterator(range)) if (rec.exp <= now) expired.push(k)
  if (expired.length === 0) return 0
  // The batch is made after the scan: a chained batch needs the sublevel open, which the iterator waits for.
  const batch = store.records.batch()
  for (const k of expired) batch.del(k)
  await batch.write()
  return expired.length
}

/**
 * Read-modify-write of one record with no interleaving in this process: single-use codes
 * and refresh-token rotation must not be redeemed twice by two concurrent requests.
 */
export function updateRecord<V, R>(
  store: Store,
  kind: RecordKind,
  key: string,
  now: number,
  fn: (current: V | undefined) => { next?: V | null; expiresAt?: number; result: R },
): Promise<R> {
  return store.caches.recordQueue(async () => {
    const rec = await store.records.get(keyOf(kind, key))
    const current = rec && rec.exp > now ? (rec.v as V) : undefined
    const { next, expiresAt, result } = fn(current)
    if (next === null) await deleteRecord(store, kind, key)
    else if (next !== undefined) await putRecord(store, kind, key, next, expiresAt ?? rec?.exp ?? NEVER)
    return result
  })
}
