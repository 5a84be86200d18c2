import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { makeTicketBook, MAX_TICKET_LENGTH, TICKET_TTL_MS } from '../../src/uma/permission-tickets.ts'
import type { HttpError } from '../../src/http/errors.ts'

const T0 = 1_800_000_000_000
const READ = [{ resource: 'http://localhost:1/doc', modes: ['read'] }]
let dir = ''
let store: Store | undefined
afterEach(async () => {
  await store?.close()
  store = undefined
  rmSync(dir, { recursive: true, force: true })
  dir = ''
})

async function open() {
  dir ||= mkdtempSync(join(tmpdir(), 'solopod-tickets-'))
  store = await openStore(dir)
  return store
}

const TICKET = /^[\w-]+\.[\w-]{22}$/

async function records(s: Store, kind: string) {
  let n = 0
  for await (const _ of s.records.keys({ gt: `${kind}\0`, lt: `${kind}\0\uffff` })) n++
  return n
}

describe('UMA permission tickets', () => {
  test('are sealed, each different (96 random bits), and carry the permissions', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    const [a, b] = [await book.issue(READ), await book.issue(READ)]
    expect(a).toMatch(TICKET)
    expect(a).not.toBe(b)
    expect(await book.get(a)).toEqual({ permissions: READ })
    const two = [
      { resource: 'http://localhost:1/c/', modes: ['append'] },
      { resource: 'http://localhost:1/c/new', modes: ['write', 'read'] },
    ]
    expect(await book.get(await book.issue(two))).toEqual({ permissions: two })
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
  test("a changed ticket is not ours: other permissions, a later expiry, another seal, another pod's key", async () => {
    const s = await open()
    const book = makeTicketBook({ store: s, now: () => T0 })
    const t = await book.issue(READ)
    const [body, mac] = t.split('.') as [string, string]
    const content = JSON.parse(Buffer.from(body, 'base64url').toString()) as unknown[]
    const forge = (c: unknown[]) => `${Buffer.from(JSON.stringify(c)).toString('base64url')}.${mac}`
    expect(await book.get(forge([content[0], content[1], ['http://localhost:1/private', 'read', 'write', 'control']]))).toBeUndefined()
    expect(await book.get(forge([(content[0] as number) + 3_600_000, ...content.slice(1)]))).toBeUndefined()
    expect(await book.get(`${body}.${'A'.repeat(22)}`)).toBeUndefined()
    expect(await book.consume(`${body}.${'A'.repeat(22)}`)).toBeUndefined()
    const elsewhere = makeTicketBook({ store: await openStore(mkdtempSync(join(tmpdir(), 'solopod-tickets-other-'))), now: () => T0 })
    expect(await elsewhere.get(t)).toBeUndefined()
    expect(await book.get(t)).toEqual({ permissions: READ })
  })
  test('cost nothing until spent: a flood of refusals writes no record and remembers nothing', async () => {
    const s = await open()
    const book = makeTicketBook({ store: s, now: () => T0 })
    for (let i = 0; i < 1000; i++) await book.issue(READ)
    await book.flush()
    expect(book.spent).toBe(0)
    expect(await records(s, 'uma-ticket-spent')).toBe(0)
    expect(await records(s, 'uma-ticket')).toBe(0)
  })
  test('spent tickets are forgotten once expired, in memory and in the store', async () => {
    const clock = { now: T0 }
    const s = await open()
    let book = makeTicketBook({ store: s, now: () => clock.now })
    for (let i = 0; i < 10; i++) await book.consume(await book.issue(READ))
    await book.flush()
    expect(book.spent).toBe(10)
    expect(await records(s, 'uma-ticket-spent')).toBe(10)
    clock.now += TICKET_TTL_MS
    await book.consume(await book.issue(READ))
    expect(book.spent).toBe(1)
    await book.flush()
    await store!.close()
    book = makeTicketBook({ store: await open(), now: () => clock.now })
    await book.issue(READ)
    expect(await records(store!, 'uma-ticket-spent')).toBe(1)
  })
  test('a restart keeps live tickets valid (the key is in the store) and spent ones spent', async () => {
    const clock = { now: T0 }
    let book = makeTicketBook({ store: await open(), now: () => clock.now })
    const live = await book.issue(READ)
    const used = await book.issue(READ)
    expect(await book.consume(used)).toBeDefined()
    await book.flush()
    await store!.close()
    clock.now += TICKET_TTL_MS / 2
    book = makeTicketBook({ store: await open(), now: () => clock.now })
    expect(await book.get(used)).toBeUndefined()
    expect(await book.consume(used)).toBeUndefined()
    expect(await book.consume(live)).toEqual({ permissions: READ })
  })
  test('records of the earlier one-record-per-ticket kind are dropped on first use', async () => {
    const s = await open()
    await s.records.put('uma-ticket\0old', { v: { permissions: READ }, exp: T0 + 60_000 })
    const book = makeTicketBook({ store: s, now: () => T0 })
    await book.issue(READ)
    expect(await records(s, 'uma-ticket')).toBe(0)
  })
  test('concurrent consumes of one ticket: exactly one wins', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    const t = await book.issue(READ)
    const results = await Promise.all([book.consume(t), book.consume(t), book.consume(t)])
    expect(results.filter(Boolean)).toHaveLength(1)
  })
  test('past its size the spent memory forgets the oldest and refuses tickets expiring no later than it, never 503; later tickets still exchange (issue 33)', async () => {
    const clock = { now: T0 }
    const book = makeTicketBook({ store: await open(), now: () => clock.now, maxSpent: 2 })
    const a = await book.issue(READ)
    const early = await book.issue(READ)
    expect(await book.consume(a)).toEqual({ permissions: READ })
    clock.now += 60_000
    const [b, c] = [await book.issue(READ), await book.issue(READ)]
    expect(await book.consume(b)).toEqual({ permissions: READ })
    expect(await book.consume(c)).toEqual({ permissions: READ }) // a forgotten: the horizon is a's expiry
    expect(await book.consume(a)).toBeUndefined() // still refused
    expect(await book.get(early)).toBeUndefined() // issued with a: below the horizon, the client asks for a fresh one
    expect(await book.consume(b)).toBeUndefined()
    clock.now += 1
    const d = await book.issue(READ)
    expect(await book.get(d)).toEqual({ permissions: READ })
    expect(await book.consume(d)).toEqual({ permissions: READ })
    expect(book.spent).toBe(2)
  })
  test('strings that are not tickets are never looked at', async () => {
    const book = makeTicketBook({ store: await open(), now: () => T0 })
    expect(await book.get('')).toBeUndefined()
    expect(await book.get('a.b')).toBeUndefined()
    expect(await book.consume('x'.repeat(MAX_TICKET_LENGTH) + '.' + 'A'.repeat(22))).toBeUndefined()
  })
})
