// UMA permission tickets: what a refused request needed, under an unguessable, single-use, 5-minute handle.

import { createHash } from 'node:crypto'
import type { Store } from '../store/open-store.ts'
import { readRecords, sweepExpiredRecords, writeRecords } from '../store/records.ts'
import type { UmaPermission } from './principal.ts'
import { LruCache } from '../lib/lru-cache.ts'

const KIND = 'uma-ticket'
/** UMA Grant §3.2: short-lived; five minutes covers a login at the requesting party's OP. */
export const TICKET_TTL_MS = 5 * 60_000
/**
 * Live tickets at most. Every anonymous 401 makes one, so a flood is bounded here: past the cap the
 * oldest ticket is dropped (its client meets invalid_grant and asks the resource again). With shared
 * permission sets a full book holds ~10 MB of heap. A lower cap was measured (issue 9): 20,000 saved
 * ~10 MB after the bench but cost 40 % of the anonymous-401 rate, each new ticket then evicting one
 * that must also leave the store.
 */
export const MAX_LIVE_TICKETS = 100_000
/** New tickets reach the store in one batch at least this often, or sooner when this many wait. */
const FLUSH_AFTER_MS = 100
const FLUSH_AT = 1000
/**
 * Distinct permission sets kept for sharing. A flood of refusals names the same few resources, so
 * up to MAX_LIVE_TICKETS tickets share a handful of arrays instead of holding ~400 bytes of their own each.
 */
const SHARED_PERMISSION_SETS = 1000

export interface Ticket {
  /** Every resource and mode the refused request needed (UMA Federated Authorization §4.1). */
  readonly permissions: readonly UmaPermission[]
}

export interface TicketBook {
  /** Records a new ticket; returns the value for `WWW-Authenticate: UMA … ticket="…"`. */
  issue(permissions: readonly UmaPermission[]): Promise<string>
  /** The ticket's record while it is live and unused. */
  get(ticket: string): Promise<Ticket | undefined>
  /** Takes the ticket out for good; `undefined` when another request took it first or it expired. */
  consume(ticket: string): Promise<Ticket | undefined>
  /** Tickets currently live. */
  readonly live: number
  /** Writes what is still waiting to the store (on shutdown, and in tests). */
  flush(): Promise<void>
}

interface Held extends Ticket { readonly exp: number }

// The store key is a hash: a copy of the database holds no usable tickets.
const keyOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url')
const newTicket = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')
// 128 bits of base64url; anything else was never ours and is not looked up
const TICKET_SHAPE = /^[A-Za-z0-9_-]{22}$/

/**
 * Tickets are decided from memory (a bounded map in issue order, which is expiry order) and kept in
 * the records store so a restart keeps them. A refused anonymous request must stay cheap under a
 * flood, so new tickets are written behind, many per unsynced batch: a crash loses at most the last
 * moments' tickets, whose clients get invalid_grant and ask the resource again. Taking a ticket is
 * a synchronous map delete, so two concurrent exchanges can never both get it.
 */
export function makeTicketBook(o: { store: Store; now: () => number; maxLive?: number }): TicketBook {
  const { store, now } = o
  const maxLive = o.maxLive ?? MAX_LIVE_TICKETS
  const live = new Map<string, Held>()
  const shared = new LruCache<string, readonly UmaPermission[]>(SHARED_PERMISSION_SETS)
  const share = (permissions: readonly UmaPermission[]): readonly UmaPermission[] => {
    const id = JSON.stringify(permissions)
    const found = shared.get(id)
    if (found) return found
    const frozen = Object.freeze(permissions.map(p => Object.freeze({ resource: p.resource, modes: Object.freeze([...p.modes]) })))
    shared.set(id, frozen)
    return frozen
  }
  let puts = new Map<string, Held>()
  let deletes = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  // Store writes run one after another, so a delete never overtakes the put of the same ticket.
  let writes: Promise<void> = Promise.resolve()

  function flush(): Promise<void> {
    clearTimeout(timer)
    timer = undefined
    const p = [...puts].map(([key, h]) => ({ key, value: { permissions: h.permissions }, expiresAt: h.exp }))
    const d = [...deletes]
    puts = new Map()
    deletes = new Set()
    writes = writes.catch(() => undefined).then(() => writeRecords<Ticket>(store, KIND, p, d, { sync: false }))
    return writes
  }

  function schedule() {
    if (puts.size + deletes.size >= FLUSH_AT) void flush().catch(() => undefined)
    else timer ??= setTimeout(() => { void flush().catch(() => undefined) }, FLUSH_AFTER_MS)
  }

  function forget(key: string) {
    live.delete(key)
    if (!puts.delete(key)) deletes.add(key)
  }

  // Tickets of an earlier run: expired ones are swept, live ones join the map (and its bound).
  // Done on first use, so building the app stays synchronous.
  let ready: Promise<void> | undefined
  const loadEarlier = async () => {
    await sweepExpiredRecords(store, now(), KIND)
    const earlier = await readRecords<Ticket>(store, KIND, now())
    for (const r of earlier.sort((a, b) => a.expiresAt - b.expiresAt)) live.set(r.key, { permissions: share(r.value.permissions), exp: r.expiresAt })
  }
  const prepared = () => (ready ??= loadEarlier().catch((err: unknown) => { ready = undefined; throw err }))

  function held(ticket: string): { key: string; held: Held } | undefined {
    if (!TICKET_SHAPE.test(ticket)) return undefined
    const key = keyOf(ticket)
    const h = live.get(key)
    if (!h) return undefined
    if (h.exp <= now()) { forget(key); schedule(); return undefined }
    return { key, held: h }
  }

  return {
    async issue(permissions) {
      await prepared()
      const at = now()
      // Oldest first: expired ones, then as many as keep the map under its bound.
      for (const [key, h] of live) {
        if (h.exp > at && live.size < maxLive) break
        forget(key)
      }
      const ticket = newTicket()
      const h: Held = { permissions: share(permissions), exp: at + TICKET_TTL_MS }
      const key = keyOf(ticket)
      live.set(key, h)
      puts.set(key, h)
      schedule()
      return ticket
    },
    async get(ticket) {
      await prepared()
      const found = held(ticket)
      return found && { permissions: found.held.permissions }
    },
    async consume(ticket) {
      await prepared()
      const found = held(ticket)
      if (!found) return undefined
      forget(found.key)
      // Used up for good: written now, so a restart cannot bring it back.
      await flush()
      return { permissions: found.held.permissions }
    },
    get live() { return live.size },
    flush,
  }
}
