import { describe, expect, test } from 'bun:test'
import { clientAddressFrom } from '../../src/http/client-address.ts'
import { normalizeIp } from '../../src/lib/ip-address.ts'

const PROXY = '10.0.0.1'
const trusted = new Set([PROXY, '10.0.0.2', '::1'])
const full = (peer: string | undefined, headers: Record<string, string> = {}) => clientAddressFrom(peer, new Headers(headers), trusted)
const from = (peer: string | undefined, headers: Record<string, string> = {}) => full(peer, headers)?.ip

describe('--trust-proxy: the client address behind trusted reverse proxies', () => {
  test.each([
    ['an untrusted peer: its forwarded headers are ignored', '192.0.2.9', { 'x-forwarded-for': '203.0.113.5' }, '192.0.2.9'],
    ['a trusted peer without forwarded headers is itself the client', PROXY, {}, PROXY],
    ['X-Forwarded-For from a trusted peer', PROXY, { 'x-forwarded-for': '203.0.113.5' }, '203.0.113.5'],
    ['a client-written address left of the real one is not believed', PROXY, { 'x-forwarded-for': '198.51.100.66, 203.0.113.5' }, '203.0.113.5'],
    ['two trusted proxies in a row', PROXY, { 'x-forwarded-for': '203.0.113.5, 10.0.0.2' }, '203.0.113.5'],
    [
      "a client's own Forwarded, passed through by the proxy, is never read",
      PROXY,
      { forwarded: 'for=192.0.2.60', 'x-forwarded-for': '203.0.113.5' },
      '203.0.113.5',
    ],
    ['Forwarded alone names nobody: the proxy is the client', PROXY, { forwarded: 'for=192.0.2.60' }, PROXY],
    ['a spoofed loopback address left of the real one is not believed', PROXY, { 'x-forwarded-for': '127.0.0.1, 203.0.113.5' }, '203.0.113.5'],
    ['an unknown node ends the walk at the proxy', PROXY, { 'x-forwarded-for': 'unknown' }, PROXY],
    ['garbage in X-Forwarded-For ends the walk at the proxy', PROXY, { 'x-forwarded-for': 'not-an-ip' }, PROXY],
    ['a chain of trusted proxies only: the first of them', PROXY, { 'x-forwarded-for': '::1, 10.0.0.2' }, '::1'],
    ['an IPv4-mapped IPv6 peer matches its IPv4 address', `::ffff:${PROXY}`, { 'x-forwarded-for': '203.0.113.5' }, '203.0.113.5'],
  ] as [string, string, Record<string, string>, string][])('%s', (_, peer, headers, expected) => {
    expect(from(peer, headers)).toBe(expected)
  })
  test.each([
    ['a loopback peer that is no proxy', '127.0.0.1', {}, [], true],
    ['a loopback peer speaking for someone (an untrusted proxy on the machine)', '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }, [], false],
    ['…also in X-Real-IP or Forwarded', '127.0.0.1', { 'x-real-ip': '203.0.113.5' }, [], false],
    ['a trusted loopback proxy forwarding a remote client', '::1', { 'x-forwarded-for': '203.0.113.5' }, ['::1'], false],
    ['…whose client spoofed loopback on the left', '::1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.5' }, ['::1'], false],
    ['…or in Forwarded', '::1', { forwarded: 'for=127.0.0.1', 'x-forwarded-for': '203.0.113.5' }, ['::1'], false],
    ['…or with Forwarded alone', '::1', { forwarded: 'for=127.0.0.1' }, ['::1'], false],
    ['…or an unknown node', '::1', { 'x-forwarded-for': 'unknown' }, ['::1'], false],
    ['a trusted loopback proxy forwarding a client on its machine', '::1', { 'x-forwarded-for': '127.0.0.1' }, ['::1'], true],
    ['a trusted loopback proxy connecting itself', '::1', {}, ['::1'], true],
  ] as [string, string, Record<string, string>, string[], boolean][])('local: %s', (_, peer, headers, proxies, local) => {
    expect(clientAddressFrom(peer, new Headers(headers), new Set(proxies))?.local).toBe(local)
  })
  test('no peer (in-process request) is no address', () => {
    expect(from(undefined, { 'x-forwarded-for': '203.0.113.5' })).toBeUndefined()
  })
  test('normalizeIp', () => {
    expect(normalizeIp('::FFFF:127.0.0.1')).toBe('127.0.0.1')
    expect(normalizeIp(' 2001:DB8::1 ')).toBe('2001:db8::1')
  })
})
