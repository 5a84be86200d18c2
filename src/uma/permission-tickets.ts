// UMA permission tickets: what a refused request needed, sealed by the pod, single-use, valid 5 minutes.

import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Store } from '../store/open-store.ts'
import { getRecord, putRecord, readRecords, sweepExpiredRecords } from '../store/records.ts'
import { replayKey } from '../lib/replay-memory.ts'
import { PartitionedReplayMemory } from '../lib/partitioned-replay-memory.ts'
import { spentTicketLimit } from '../lib/replay-limits.ts'
import { memoryShares } from '../lib/memory-budget.ts'
import type { UmaPermission } from './permission.ts'

/** UMA Grant §3.2: short-lived; five minutes covers a login at the requesting party's OP. */
export const TICKET_TTL_MS = 5 * 60_000
/**
 * Spent tickets remembered at most (each until its ticket expires) with the default budget; the pod's own number comes
 * from its `--memory-budget` (deps.ts, lib/replay-limits.ts). Only the token endpoint spends tickets (an exchange that
 * verified an ID token: need_info spends none). Past this many within five minutes the oldest spent ones are forgotten
 * and every ticket expiring no later than them is refused (400 invalid_grant: the client asks the resource for a fresh
 * ticket): a stranger's flood of spent tickets costs others at most a fresh ticket, never a 503 (issue 33).
 */
export const MAX_SPENT_TICKETS = spentTicketLimit(memoryShares().replay.spentTickets)
/** Longer strings were never ours and are not looked at: a ticket names the few resources one request needed. */
export const MAX_TICKET_LENGTH = 16 * 1024

// Record kinds: the sealing key, and the tickets already spent (by their seal, until they expire).
const KEY_KIND = 'uma-ticket-key'
const SPENT_KIND = 'uma-ticket-spent'
// Tickets of earlier versions, kept one record per ticket; they are meaningless now and are dropped.
const OLD_KIND = 'uma-ticket'

export interface Ticket {
  /** Every resource and mode the refused request needed (UMA Federated Authorization §4.1). */
  readonly permissions: readonly UmaPermission[]
}

export interface TicketBook {
  /** A new ticket for these permissions: the value for `WWW-Authenticate: UMA … ticket="…"`. */
  issue(permissions: readonly UmaPermission[]): Promise<string>
  /** The ticket's permissions while it is live and unspent. */
  get(ticket: string): Promise<Ticket | undefined>
  /**
   * Spends the ticket for good; `undefined` when it was spent before (or by a concurrent request),
   * expired, never ours, or issued before the oldest spent ticket still remembered.
   */
  consume(ticket: string): Promise<Ticket | undefined>
  /** Spent tickets currently remembered. */
  readonly spent: number
  /** Spent tickets remembered at most. */
  readonly capacity: number
  /** Resolves once every spent ticket so far is in the store (on shutdown, and in tests). */
  flush(): Promise<void>
}

/** What a ticket carries: [expiry (epoch ms), 96 random bits, [resource, ...modes] per permission]. */
type Body = [number, string, ...(readonly [string, ...string[]])[]]

// A ticket is base64url(JSON body) "." base64url(128-bit HMAC-SHA256 of the body)
const TICKET_SHAPE = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/

/**
 * Tickets are stateless: the permissions and the expiry travel in the ticket, sealed with a key only
 * this pod holds, so a refused request costs no memory and no write however many arrive (when
 * tickets were records, 100,000 live tickets of an anonymous flood held ~15 MB of heap, and each was written to
 * the store). Only a spent ticket is remembered, in memory and in the store, until it expires;
 * taking one is a synchronous check-and-set, so two concurrent exchanges can never both get it. The
 * key is kept in the store, so tickets outlive a restart.
 */
export function makeTicketBook(o: { store: Store; now: () => number; maxSpent?: number }): TicketBook {
  const { store, now } = o
  // one partition, never full: past its size the oldest spent tickets go and the horizon refuses what they could hide
  const max = o.maxSpent ?? MAX_SPENT_TICKETS
  const spent = new PartitionedReplayMemory({ perPartition: max, total: max, partitions: 1 })
  const SPENT = ''
  let key: Buffer | undefined
  let writes: Promise<unknown> = Promise.resolve()

  const seal = (body: string) => createHmac('sha256', key!).update(body).digest().subarray(0, 16)

  // The key and the spent tickets of an earlier run; done on first use, so building the app stays synchronous.
  let ready: Promise<void> | undefined
  const load = async () => {
    const at = now()
    const stored = await getRecord<string>(store, KEY_KIND, 'hmac', at)
    if (stored) key = Buffer.from(stored, 'base64url')
    else {
      const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32)))
      await putRecord(store, KEY_KIND, 'hmac', fresh.toString('base64url'))
      key = fresh
    }
    await sweepExpiredRecords(store, at, SPENT_KIND)
    await sweepExpiredRecords(store, Number.MAX_SAFE_INTEGER, OLD_KIND)
    for (const r of await readRecords<1>(store, SPENT_KIND, at)) spent.remember(SPENT, replayKey(r.key), r.expiresAt, at)
  }
  const prepared = () =>
    (ready ??= load().catch((err: unknown) => {
      ready = undefined
      throw err
    }))

  /** The ticket's seal and content, when it is ours and live; spent or not is the caller's question. */
  function open(ticket: string): { mac: string; exp: number; permissions: UmaPermission[] } | undefined {
    if (typeof ticket !== 'string' || ticket.length > MAX_TICKET_LENGTH) return undefined
    const m = TICKET_SHAPE.exec(ticket)
    if (!m) return undefined
    const [, body, mac] = m as unknown as [string, string, string]
    const macBytes = Buffer.from(mac, 'base64url')
    // 22 base64url characters carry 132 bits for a 128-bit seal: the last character's low 4 bits are
    // never read, so 16 spellings decode to one seal. Only the canonical one is ours (RFC 4648 §3.5),
    // or one ticket could be spent once per spelling.
    if (macBytes.toString('base64url') !== mac) return undefined
    if (!timingSafeEqual(seal(body), macBytes)) return undefined
    const [exp, , ...perms] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Body
    if (exp <= now()) return undefined
    return { mac, exp, permissions: perms.map(([resource, ...modes]) => ({ resource, modes })) }
  }

  return {
    async issue(permissions) {
      await prepared()
      const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url')
      const content: Body = [now() + TICKET_TTL_MS, nonce, ...permissions.map(p => [p.resource, ...p.modes] as const)]
      const body = Buffer.from(JSON.stringify(content)).toString('base64url')
      return `${body}.${seal(body).toString('base64url')}`
    },
    async get(ticket) {
      await prepared()
      const t = open(ticket)
      return t && spent.peek(SPENT, replayKey(t.mac), t.exp, now()) === 'fresh' ? { permissions: t.permissions } : undefined
    },
    async consume(ticket) {
      await prepared()
      const t = open(ticket)
      if (!t) return undefined
      const at = now()
      if (spent.remember(SPENT, replayKey(t.mac), t.exp, at) !== 'fresh') return undefined
      // Spent for good: in the store before the answer, so a restart cannot bring it back. Not
      // synced: a process crash keeps it (the OS has it); losing power costs only this one-time check.
      const write = putRecord(store, SPENT_KIND, t.mac, 1, t.exp, { sync: false })
      writes = writes.then(
        () => write,
        () => write,
      )
      await write
      return { permissions: t.permissions }
    },
    get spent() {
      return spent.size
    },
    capacity: max,
    async flush() {
      await writes.catch(() => undefined)
    },
  }
}
