// The byte budget of what all notification channels hold unsent: past it the largest holders are shed, not the
// channel that wrote last; a transport that drained since its last write is read again before anyone is shed.

import { describe, expect, test } from 'bun:test'
import { makeBufferBudget } from '../../src/channels/buffer-budget.ts'
import { streamListener } from '../../src/notify/stream-listener.ts'
import type { EndReason } from '../../src/channels/listener.ts'

function transports(limit: number) {
  const budget = makeBufferBudget(limit)
  const held = new Map<string, number>()
  const shed: string[] = []
  const add = (key: string) => {
    held.set(key, 0)
    budget.track(
      key,
      () => held.get(key)!,
      () => shed.push(key),
    )
  }
  const write = (key: string, bytes: number) => {
    held.set(key, bytes)
    budget.wrote(key)
  }
  return { budget, held, shed, add, write }
}

describe('buffer budget', () => {
  test('under the budget nobody is shed; past it the largest holder goes, not the writer', () => {
    const t = transports(1000)
    for (const k of ['a', 'b', 'c']) t.add(k)
    t.write('a', 600)
    t.write('b', 300)
    expect(t.shed).toEqual([])
    expect(t.budget.bytes).toBe(900)
    t.write('c', 200)
    expect(t.shed).toEqual(['a'])
    expect(t.budget.bytes).toBe(500)
  })

  test("bytes sent since a transport's last write are counted out before shedding", () => {
    const t = transports(1000)
    for (const k of ['a', 'b']) t.add(k)
    t.write('a', 900)
    t.held.set('a', 0) // its subscriber read everything; no write has told the budget yet
    t.write('b', 500)
    expect(t.shed).toEqual([])
    expect(t.budget.bytes).toBe(500)
  })

  test('a writer that has just read its amount gives it: that amount counts, the transport is not read again', () => {
    const t = transports(1000)
    for (const k of ['a', 'b']) t.add(k)
    let reads = 0
    t.budget.track(
      'a',
      () => (reads++, t.held.get('a')!),
      () => t.shed.push('a'),
    )
    t.held.set('a', 700)
    t.budget.wrote('a', 700)
    expect(reads).toBe(0)
    expect(t.budget.bytes).toBe(700)
    t.write('b', 400) // past the budget: everyone is read again, and the largest goes
    expect(reads).toBe(1)
    expect(t.shed).toEqual(['a'])
  })

  test('a forgotten transport no longer counts', () => {
    const t = transports(1000)
    t.add('a')
    t.write('a', 800)
    t.budget.forget('a')
    expect(t.budget.bytes).toBe(0)
  })
})

describe("a stream's queue counts in the budget", () => {
  test('an unread stream is ended too_slow once the pod-wide budget is spent, before its own 256 KiB bound', () => {
    const budget = makeBufferBudget(64 * 1024)
    const ended: EndReason[] = []
    const channels = {
      buffers: budget,
      end: (_id: string, reason: EndReason) => {
        ended.push(reason)
        listener.close(reason)
        return true
      },
    }
    const { listener, response } = streamListener(
      {
        id: 'http://localhost/.notifications/StreamingHTTPChannel2023/00',
        type: 'StreamingHTTPChannel2023',
        topic: '/doc.ttl',
        principal: { keys: [], scheme: 'anonymous' },
        holder: { client: 'address 192.0.2.1', owner: false },
        features: { accept: 'application/ld+json' },
        since: 0,
      },
      channels as never,
    )
    expect(response.body).not.toBeNull() // never read: every notification stays in the queue
    const message = {
      '@context': ['https://www.w3.org/ns/solid/notification/v1'],
      id: 'urn:uuid:1',
      type: 'Update',
      object: 'http://localhost/doc.ttl',
      published: new Date(0).toISOString(),
      padding: 'x'.repeat(1000),
    }
    for (let i = 0; i < 70 && ended.length === 0; i++) listener.send(message as never, {} as never)
    expect(ended).toEqual(['too_slow'])
    expect(budget.bytes).toBe(0)
  })
})
