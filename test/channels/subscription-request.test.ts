// The subscription request checks (channels/subscription-request.ts), pure: body and facts in, request or refusal out.

import { describe, expect, test } from 'bun:test'
import { HttpError } from '../../src/http/errors.ts'
import { notificationTypeFor, parseDuration, parseSubscriptionRequest } from '../../src/channels/subscription-request.ts'

const BASE = 'http://localhost:3000'
const NOW = Date.parse('2026-11-27T00:00:00Z')
const parse = (body: string, contentType = 'application/ld+json', service: 'WebSocketChannel2023' | 'WebhookChannel2023' = 'WebSocketChannel2023') =>
  parseSubscriptionRequest({ body, contentType, service, baseUrl: BASE, now: NOW })
const json = (fields: Record<string, unknown>) =>
  JSON.stringify({ '@context': ['https://www.w3.org/ns/solid/notification/v1'], type: 'WebSocketChannel2023', topic: `${BASE}/notes/a.ttl`, ...fields })

function refusedWith(fn: () => unknown): { status: number; code: string } {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, code: err.code }
    throw err
  }
  throw new Error('not refused')
}

describe('the channel type, as a client may write it', () => {
  test.each(['WebSocketChannel2023', 'notify:WebSocketChannel2023', 'http://www.w3.org/ns/solid/notifications#WebSocketChannel2023'])('%s', type => {
    expect(parse(json({ type })).type).toBe('WebSocketChannel2023')
  })
})

describe('topics', () => {
  test('a topic is kept as its canonical stored path: spaces, accents, #, ?, % and + encoded once', () => {
    expect(parse(json({ topic: `${BASE}/caf%C3%A9%20%23%3F%25+/` })).topic).toBe('/caf%C3%A9%20%23%3F%25+/')
    expect(parse(json({ topic: `${BASE}/café au lait.ttl` })).topic).toBe('/caf%C3%A9%20au%20lait.ttl')
  })
  test.each([
    ['another origin', 'http://localhost:3001/notes/a.ttl'],
    ['a base URL prefix that is not a path', `${BASE}0/x`],
    ['a fragment', `${BASE}/notes/a.ttl#it`],
    ['a dot segment', `${BASE}/notes/%2e%2e/x`],
  ])('%s → 400 invalid_subscription', (_, topic) => {
    expect(refusedWith(() => parse(json({ topic })))).toEqual({ status: 400, code: 'invalid_subscription' })
  })
})

describe('features', () => {
  test('startAt, endAt, rate, state and accept are read', () => {
    const r = parse(json({ startAt: '2026-12-01T09:00:00Z', endAt: '2026-12-02T09:00:00+01:00', rate: 'PT1M30S', state: '"abc"', accept: 'text/turtle' }))
    expect(r.features).toEqual({
      startAt: Date.parse('2026-12-01T09:00:00Z'),
      endAt: Date.parse('2026-12-02T08:00:00Z'),
      rate: 90_000,
      state: '"abc"',
      accept: 'text/turtle',
    })
  })
  test('no features: JSON-LD notifications, nothing else', () => {
    expect(parse(json({})).features).toEqual({ accept: 'application/ld+json' })
  })
  test.each([
    ['PT10S', 10_000],
    ['PT0.5S', 500],
    ['P1D', 86_400_000],
    ['P1DT1H', 90_000_000],
    ['PT2H', 7_200_000],
  ])('duration %s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })
  test.each(['P', 'PT', 'P1M', 'P1Y', '10S', 'PT-1S', 'P1DT'])('duration %s is refused', text => {
    expect(parseDuration(text)).toBeUndefined()
  })
  test.each([
    ['*/*', 'application/ld+json'],
    ['application/json', 'application/ld+json'],
    ['text/turtle;q=0.9, application/ld+json;q=0.5', 'text/turtle'],
    ['image/png, text/*;q=0.1', 'text/turtle'],
  ])('accept %s → %s', (accept, type) => {
    expect(notificationTypeFor(accept)).toBe(type as 'text/turtle')
  })
  test('accept naming only what the pod does not send → 422 unsupported_notification_format', () => {
    expect(refusedWith(() => notificationTypeFor('image/png, text/turtle;q=0'))).toEqual({ status: 422, code: 'unsupported_notification_format' })
  })
})

describe('Turtle requests', () => {
  test('a channel node typed with its channel type, its fields in notify:', () => {
    const r = parse(
      `@prefix notify: <http://www.w3.org/ns/solid/notifications#>.
[] a notify:WebSocketChannel2023; notify:topic <${BASE}/notes/a.ttl>; notify:rate "PT5S"; notify:state "x".`,
      'text/turtle',
    )
    expect(r).toEqual({ type: 'WebSocketChannel2023', topic: '/notes/a.ttl', features: { accept: 'application/ld+json', rate: 5000, state: 'x' } })
  })
  test('two channels, or none, → 400 invalid_subscription', () => {
    expect(
      refusedWith(() =>
        parse(
          '@prefix notify: <http://www.w3.org/ns/solid/notifications#>. <#a> a notify:WebSocketChannel2023. <#b> a notify:WebSocketChannel2023.',
          'text/turtle',
        ),
      ),
    ).toEqual({ status: 400, code: 'invalid_subscription' })
    expect(refusedWith(() => parse('<#a> <#b> <#c>.', 'text/turtle'))).toEqual({ status: 400, code: 'invalid_subscription' })
    expect(refusedWith(() => parse('not turtle at all <', 'text/turtle'))).toEqual({ status: 400, code: 'invalid_subscription' })
  })
})

describe('webhooks', () => {
  test('sendTo is required and must be http(s)', () => {
    const hook = (fields: Record<string, unknown>) =>
      parse(JSON.stringify({ type: 'WebhookChannel2023', topic: `${BASE}/a`, ...fields }), 'application/ld+json', 'WebhookChannel2023')
    expect(hook({ sendTo: 'https://hooks.example/in' }).sendTo).toBe('https://hooks.example/in')
    expect(refusedWith(() => hook({}))).toEqual({ status: 400, code: 'invalid_subscription' })
    expect(refusedWith(() => hook({ sendTo: 'ftp://hooks.example/in' }))).toEqual({ status: 400, code: 'invalid_subscription' })
  })
})
