// UMA permission tickets: what a refused request needed, under an unguessable, single-use, 5-minute handle.

import { createHash } from 'node:crypto'
import type { Store } from '../store/open-store.ts'
import { getRecord, putRecord, deleteRecord, readRecords, sweepExpiredRecords, updateRecord } from '../store/records.ts'
import type { UmaPermission } from '../auth/principal.ts'

const KIND = 'uma-ticket'
/** UMA Grant §3.2: short-lived; five minutes covers a login at the requesting party's OP. */
export const TICKET_TTL_MS = 5 * 60_000
/**
 * Live tickets at most. Every anonymous 401 makes one, so a flood is bounded here: past the cap the
 * oldest ticket is dropped (its client meets invalid_grant and asks the resource again).
 */
export const MAX_LIVE_TICKETS = 100_000

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
  /** Tickets currently held (an upper bound: consumed ones leave the queue when they would expire). */
  readonly live: number
}

// The store key is a hash: a copy of the database holds no usable tickets.
const keyOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url')
const newTicket = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')
// 128 bits of base64url; anything else was never ours and is not looked up
const TICKET_SHAPE = /^[A-Za-z0-9_-]{22}$/

/**
 * Tickets cost no fetch and one unsynced LevelDB put each: losing one in a crash costs its client
 * one more 401, while syncing would let anonymous requests force a disk flush each. Issue order is
 * expiry order, so one FIFO both expires and caps them.
 */
export function makeTicketBook(o: { store: Store; now: () => number; maxLive?: number }): TicketBook {
  const { store, now } = o
  const maxLive = o.maxLive ?? MAX_LIVE_TICKETS
  const queue: { key: string; exp: number }[] = []
  let head = 0

  // Tickets of an earlier run: expired ones go, live ones join the queue (and its bound). Done on
  // first use, so building the app stays synchronous.
  let ready: Promise<void> | undefined
  const loadEarlier = async () => {
    await sweepExpiredRecords(store, now(), KIND)
    const earlier = await readRecords<Ticket>(store, KIND, now())
    for (const r of earlier.sort((a, b) => a.expiresAt - b.expiresAt)) queue.push({ key: r.key, exp: r.expiresAt })
  }
  const prepared = () => (ready ??= loadEarlier().catch((err: unknown) => { ready = undefined; throw err }))

  async function dropOldest(at: number) {
    // The queue moves synchronously, so concurrent issues never drop the same entry twice.
    const dropped: string[] = []
    while (queue.length - head > 0 && (queue[head]!.exp <= at || queue.length - head >= maxLive)) dropped.push(queue[head++]!.key)
    // Compact now and then so the array does not grow with every ticket ever issued.
    if (head > 1024 && head * 2 > queue.length) { queue.splice(0, head); head = 0 }
    for (const key of dropped) await deleteRecord(store, KIND, key, { sync: false })
  }

  return {
    async issue(permissions) {
      await prepared()
      const at = now()
      await dropOldest(at)
      const ticket = newTicket()
      const key = keyOf(ticket)
      const exp = at + TICKET_TTL_MS
      await putRecord<Ticket>(store, KIND, key, { permissions }, exp, { sync: false })
      queue.push({ key, exp })
      return ticket
    },
    async get(ticket) {
      if (!TICKET_SHAPE.test(ticket)) return undefined
      return getRecord<Ticket>(store, KIND, keyOf(ticket), now())
    },
    async consume(ticket) {
      if (!TICKET_SHAPE.test(ticket)) return undefined
      // One request wins: the read and the delete are one step (records.ts updateRecord).
      return updateRecord<Ticket, Ticket | undefined>(store, KIND, keyOf(ticket), now(), (current) => ({ next: current ? null : undefined, result: current }))
    },
    get live() { return queue.length - head },
  }
}
