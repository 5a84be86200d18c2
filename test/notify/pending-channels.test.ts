// Channels waiting for their client count against the client's cap only while they may still connect.

import { describe, expect, test } from 'bun:test'
import { NOTIFICATION_TYPES } from '../../src/channels/notification-message.ts'
import { makePendingChannels, CONNECT_WITHIN_MS, type PendingChannel } from '../../src/notify/pending-channels.ts'

const channel = (id: string, endAt?: number): PendingChannel => ({
  id,
  type: 'WebSocketChannel2023',
  topic: 'http://localhost:3000/doc',
  principal: { keys: [] } as unknown as PendingChannel['principal'],
  holder: { client: 'address 203.0.113.1', owner: false },
  features: { accept: NOTIFICATION_TYPES[0], ...(endAt === undefined ? {} : { endAt }) },
  since: 0,
})

describe('pending channels', () => {
  test('one whose endAt passed stops counting even behind one still waiting', () => {
    const clock = { now: 0 }
    const pending = makePendingChannels(() => clock.now)
    pending.put('a', channel('a'))
    pending.put('b', channel('b', 1_000))
    expect(pending.countOf('address 203.0.113.1')).toBe(2)
    clock.now = 1_000
    expect(pending.countOf('address 203.0.113.1')).toBe(1)
    expect(pending.take('b')).toBeUndefined()
    clock.now = CONNECT_WITHIN_MS
    expect(pending.countOf('address 203.0.113.1')).toBe(0)
  })
})
