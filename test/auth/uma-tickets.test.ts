import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { makeTicketBook, TICKET_TTL_MS } from '../../src/auth/uma-tickets.ts'

const T0 = 1_800_000_000_000
const READ = [{ resource: 'http://localhost:1/doc', modes: ['read'] }]
let dir = ''
let store: Store | undefined
afterEach(async () => { await store?.close(); store = undefined; rmSync(dir, { recursive: true, force: true }); dir = '' })

async function open() {
  dir ||= mkdtempSync(join(tmpdir(), 'solopod-tickets-'))
  store = await openStore(dir)
  return store
}

describe('UMA permission tickets', () => {
  test('are unguessable (128 bits), each different, and record the permissions', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    const [a, b] = [await book.issue(READ), await book.issue(READ)]
    expect(a).toMatch(/^[\w-]{22}$/)
    expect(a).not.toBe(b)
    expect(await book.get(a)).toEqual({ permissions: READ })
  })
  test('are single use: consume gives the record once', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    const t = await book.issue(READ)
    expect(await book.consume(t)).toEqual({ permissions: READ })
    expect(await book.consume(t)).toBeUndefined()
    expect(await book.get(t)).toBeUndefined()
  })
  test('expire after 5 minutes', async () => {
    const clock = { now: T0 }
    const book = makeTicketBook({ store: await open(), now: () => clock.now })
    const t = await book.issue(READ)
    clock.now += TICKET_TTL_MS - 1
    expect(await book.get(t)).toBeDefined()
    clock.now += 1
    expect(await book.get(t)).toBeUndefined()
    expect(await book.consume(t)).toBeUndefined()
  })
  test('are bounded: past the cap the oldest is dropped, from memory and from the store', async () => {
    const s = await open()
    const book = makeTicketBook({ store: s, now: () => T0, maxLive: 3 })
    const tickets = []
    for (let i = 0; i < 5; i++) tickets.push(await book.issue(READ))
    expect(book.live).toBe(3)
    expect(await book.get(tickets[0]!)).toBeUndefined()
    expect(await book.get(tickets[1]!)).toBeUndefined()
    expect(await book.get(tickets[4]!)).toBeDefined()
    await book.flush()
    let stored = 0
    for await (const _ of s.records.keys({ gt: 'uma-ticket\0', lt: 'uma-ticket\0\uffff' })) stored++
    expect(stored).toBe(3)
  })
  test('with the same permissions share one copy of them (a flood of refusals holds one set, not one per ticket)', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    // Each refusal builds its own array, as rs/access-control.ts does.
    const fresh = () => [{ resource: 'http://localhost:1/doc', modes: ['read'] }]
    const [a, b] = [await book.issue(fresh()), await book.issue(fresh())]
    const [pa, pb] = [(await book.get(a))!.permissions, (await book.get(b))!.permissions]
    expect(pa).toEqual(READ)
    expect(pa).toBe(pb)
    const other = await book.issue([{ resource: 'http://localhost:1/other', modes: ['read'] }])
    expect((await book.get(other))!.permissions).not.toBe(pa)
  })
  test('expired ones leave the store as new ones are issued', async () => {
    const clock = { now: T0 }
    const s = await open()
    const book = makeTicketBook({ store: s, now: () => clock.now })
    for (let i = 0; i < 10; i++) await book.issue(READ)
    clock.now += TICKET_TTL_MS
    await book.issue(READ)
    expect(book.live).toBe(1)
  })
  test('a restart keeps live tickets (and their bound) and sweeps expired ones', async () => {
    const clock = { now: T0 }
    let book = makeTicketBook({ store: await open(), now: () => clock.now })
    const old = await book.issue(READ)
    clock.now += TICKET_TTL_MS / 2
    const young = await book.issue(READ)
    await book.flush()
    await store!.close()
    clock.now += TICKET_TTL_MS / 2
    book = makeTicketBook({ store: await open(), now: () => clock.now, maxLive: 2 })
    await book.issue(READ)
    expect(await book.get(old)).toBeUndefined()
    expect(await book.get(young)).toEqual({ permissions: READ })
    expect(book.live).toBe(2)
  })
  test('a consumed ticket is gone from the store at once, so a restart cannot bring it back', async () => {
    let book = makeTicketBook({ store: await open(), now: () => T0 })
    const t = await book.issue(READ)
    await book.flush()
    expect(await book.consume(t)).toBeDefined()
    await store!.close()
    book = makeTicketBook({ store: await open(), now: () => T0 })
    expect(await book.get(t)).toBeUndefined()
  })
  test('concurrent consumes of one ticket: exactly one wins', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    const t = await book.issue(READ)
    const results = await Promise.all([book.consume(t), book.consume(t), book.consume(t)])
    expect(results.filter(Boolean)).toHaveLength(1)
  })
  test('strings that are not tickets are never looked up', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    expect(await book.get('')).toBeUndefined()
    expect(await book.consume('x'.repeat(10_000))).toBeUndefined()
  })
})
