// Per-client limits count an IPv6 client by its /64 (the block one host or home network is handed), an IPv4 client by its address.

import { describe, expect, test } from 'bun:test'
import { addressBlock } from '../../src/lib/ip-address.ts'

describe('addressBlock', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
  ])('%s is counted as %s', (address, block) => {
    expect(addressBlock(address)).toBe(block)
  })

  test('every address of one /64 is one client; the next /64 is another', () => {
    const sameHost = Array.from({ length: 50 }, (_, i) => addressBlock(`2001:db8:aa:bb:${i.toString(16)}::${(i * 7).toString(16)}`))
    expect(new Set(sameHost).size).toBe(1)
    expect(addressBlock('2001:db8:aa:bc::1')).not.toBe(sameHost[0])
  })
})
