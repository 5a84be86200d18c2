// Notification messages (Solid Notifications Protocol §notification-message) as each channel sends them.

import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import { notificationOf, serializeNotification } from '../../src/channels/notification-message.ts'

const BASE = 'http://localhost:3000'
const update = (state: string) => notificationOf({ topic: '/a%20b.ttl', type: 'Update', object: '/a%20b.ttl', state, published: Date.UTC(2026, 0, 2) }, BASE)

describe('serializing a notification (made once per message, whatever the number of channels)', () => {
  test('each media type gets its own text of the same message', () => {
    const n = update('"e1"')
    expect(JSON.parse(serializeNotification(n, 'application/ld+json'))).toEqual({ ...n, '@context': [...n['@context']] })
    const quads = new Parser().parse(serializeNotification(n, 'text/turtle'))
    expect(quads.find(q => q.predicate.value === 'http://www.w3.org/ns/solid/notifications#state')?.object.value).toBe('"e1"')
    expect(serializeNotification(n, 'application/ld+json')).toBe(JSON.stringify(n))
  })
  test('another message never gets the text of an earlier one', () => {
    const [a, b] = [update('"first"'), update('"second"')]
    for (const type of ['application/ld+json', 'text/turtle'] as const) {
      expect(serializeNotification(a, type)).toContain('first')
      expect(serializeNotification(b, type)).toContain('second')
      expect(serializeNotification(b, type)).not.toContain('first')
    }
  })
})
