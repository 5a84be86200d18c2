import { describe, expect, test } from 'bun:test'
import { clientAddressFrom } from '../../src/http/client-address.ts'
import { normalizeIp } from '../../src/lib/ip-address.ts'

const PROXY = '10.0.0.1'
const trusted = new Set([PROXY, '10.0.0.2', '::1'])
const from = (peer: string | undefined, headers: Record<string, string> = {}) => clientAddressFrom(peer, new Headers(headers), trusted)

describe('--trust-proxy: the client address behind trusted reverse proxies', () => {
  test.each([
    ['an untrusted peer: its forwarded headers are ignored', '192.0.2.9', { 'x-forwarded-for': '203.0.113.5' }, '192.0.2.9'],
    ['a trusted peer without forwarded headers is itself the client', PROXY, {}, PROXY],
    ['X-Forwarded-For from a trusted peer', PROXY, { 'x-forwarded-for': '203.0.113.5' }, '203.0.113.5'],
    ['a client-written address left of the real one is not believed', PROXY, { 'x-forwarded-for': '198.51.100.66, 203.0.113.5' }, '203.0.113.5'],
    ['two trusted proxies in a row', PROXY, { 'x-forwarded-for': '203.0.113.5, 10.0.0.2' }, '203.0.113.5'],
    ['RFC 7239 Forwarded for=', PROXY, { forwarded: 'for=192.0.2.60;proto=https;by=203.0.113.43' }, '192.0.2.60'],
    ['RFC 7239 quoted IPv6 with port', PROXY, { forwarded: 'for="[2001:DB8:cafe::17]:4711"' }, '2001:db8:cafe::17'],
    ['RFC 7239 IPv4 with port, several elements', PROXY, { forwarded: 'for=198.51.100.66, for="203.0.113.5:8080";proto=https' }, '203.0.113.5'],
    ['Forwarded wins over X-Forwarded-For', PROXY, { forwarded: 'for=192.0.2.60', 'x-forwarded-for': '203.0.113.5' }, '192.0.2.60'],
    ['an unknown node ends the walk at the proxy', PROXY, { forwarded: 'for=unknown' }, PROXY],
    ['garbage in X-Forwarded-For ends the walk at the proxy', PROXY, { 'x-forwarded-for': 'not-an-ip' }, PROXY],
    ['a chain of trusted proxies only: the first of them', PROXY, { 'x-forwarded-for': '::1, 10.0.0.2' }, '::1'],
    ['an IPv4-mapped IPv6 peer matches its IPv4 address', `::ffff:${PROXY}`, { 'x-forwarded-for': '203.0.113.5' }, '203.0.113.5'],
  ] as [string, string, Record<string, string>, string][])('%s', (_, peer, headers, expected) => {
    expect(from(peer, headers)).toBe(expected)
  })
  test('no peer (in-process request) is no address', () => {
    expect(from(undefined, { 'x-forwarded-for': '203.0.113.5' })).toBeUndefined()
  })
  test('normalizeIp', () => {
    expect(normalizeIp('::FFFF:127.0.0.1')).toBe('127.0.0.1')
    expect(normalizeIp(' 2001:DB8::1 ')).toBe('2001:db8::1')
  })
})
