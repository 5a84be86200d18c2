import { describe, expect, test } from 'bun:test'
import { getAddressRefusal, getRefusedRange, getUrlRefusal, isLoopbackHost } from '../../src/fetch/ssrf-guard.ts'

describe('IPv4 special-purpose ranges (RFC 6890 registry)', () => {
  test.each([
    ['0.0.0.0', 'RFC 1122'],
    ['0.255.255.255', 'RFC 1122'],
    ['10.0.0.1', 'RFC 1918'],
    ['10.255.255.255', 'RFC 1918'],
    ['100.64.0.1', 'RFC 6598'],
    ['100.127.255.255', 'RFC 6598'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'RFC 3927'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918'],
    ['192.0.0.8', 'RFC 6890'],
    ['192.0.2.1', 'RFC 5737'],
    ['192.88.99.1', 'RFC 7526'],
    ['192.168.1.1', 'RFC 1918'],
    ['198.18.0.1', 'RFC 2544'],
    ['198.19.255.255', 'RFC 2544'],
    ['198.51.100.7', 'RFC 5737'],
    ['203.0.113.9', 'RFC 5737'],
    ['224.0.0.1', 'RFC 5771'],
    ['239.255.255.250', 'RFC 5771'],
    ['240.0.0.1', 'RFC 1112'],
    ['255.255.255.255', 'RFC 919'],
  ])('refuses %s (%s)', (ip, spec) => {
    const reason = getAddressRefusal(ip, false)
    expect(reason).toBeString()
    expect(reason).toContain(spec)
  })
})

describe('IPv6 special-purpose ranges (RFC 4291, IANA registry)', () => {
  test.each([
    ['::', 'RFC 4291 §2.5.2'],
    ['0:0:0:0:0:0:0:0', 'RFC 4291 §2.5.2'],
    ['::1', 'RFC 4291 §2.5.3'],
    ['0:0:0:0:0:0:0:1', 'RFC 4291 §2.5.3'],
    ['::10.0.0.1', 'RFC 4291 §2.5.5.1'],
    ['64:ff9b:1::1', 'RFC 8215'],
    ['100::1', 'RFC 6666'],
    ['2001::1', 'RFC 4380'],
    ['2001:db8::1', 'RFC 3849'],
    ['3fff::1', 'RFC 9637'],
    ['5f00::1', 'RFC 9602'],
    ['fc00::1', 'RFC 4193'],
    ['fd12:3456:789a::1', 'RFC 4193'],
    ['fe80::1', 'RFC 4291 §2.5.6'],
    ['fe80::1%eth0', 'RFC 4291 §2.5.6'],
    ['febf::1', 'RFC 4291 §2.5.6'],
    ['fec0::1', 'RFC 3879'],
    ['ff02::1', 'RFC 4291 §2.7'],
    ['4000::1', 'RFC 4291 §2.4'],
    ['e000::1', 'RFC 4291 §2.4'],
  ])('refuses %s (%s)', (ip, spec) => {
    expect(getAddressRefusal(ip, false)).toContain(spec)
  })
})

describe('addresses embedding IPv4 (RFC 4291 §2.5.5.2, RFC 6052, RFC 3056)', () => {
  test.each([
    ['::ffff:10.0.0.1', 'RFC 1918'],
    ['::ffff:a00:1', 'RFC 1918'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'RFC 1918'],
    ['::ffff:169.254.169.254', 'RFC 3927'],
    ['::ffff:100.64.0.1', 'RFC 6598'],
    ['::ffff:0.0.0.0', 'RFC 1122'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'RFC 6052'],
    ['2002:a00:1::1', 'RFC 3056'],
    ['2002:a9fe:a9fe::', 'RFC 3927'],
  ])('refuses %s (%s)', (ip, spec) => {
    expect(getAddressRefusal(ip, false)).toContain(spec)
  })

  test.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1'])('allows %s, whose embedded IPv4 address is public', ip => {
    expect(getAddressRefusal(ip, false)).toBeUndefined()
  })
})

describe('public addresses', () => {
  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:830::200e',
    '2001:200::1',
    '2400:cb00::1',
  ])('allows %s', ip => {
    expect(getRefusedRange(ip)).toBeUndefined()
    expect(getAddressRefusal(ip, false)).toBeUndefined()
  })
})

describe('malformed addresses are refused, never treated as public', () => {
  test.each([
    '',
    'localhost',
    'example.org',
    '010.0.0.1',
    '1.2.3',
    '256.0.0.1',
    '1.2.3.4.5',
    '2130706433',
    '::ffff::1',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1.2.3.4::',
    '12345::',
    'g::1',
  ])('refuses %p', ip => {
    expect(getAddressRefusal(ip, false)).toBe('not an IP address')
    expect(getAddressRefusal(ip, true)).toBe('not an IP address')
  })
})

describe('allowInsecureLocal', () => {
  test.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('allows loopback %s', ip => {
    expect(getAddressRefusal(ip, false)).toBeString()
    expect(getAddressRefusal(ip, true)).toBeUndefined()
  })

  test.each(['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', 'fe80::1', 'fc00::1', '::ffff:192.168.0.1'])('still refuses non-loopback %s', ip => {
    expect(getAddressRefusal(ip, true)).toBeString()
  })
})

describe('loopback host names', () => {
  test.each(['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.9.9.9', '[::1]', '[::ffff:7f00:1]'])('%s is loopback', host => {
    expect(isLoopbackHost(host)).toBe(true)
  })

  test.each(['localhost.example', 'example.org', '128.0.0.1', '10.0.0.1', '[::2]', '[fe80::1]'])('%s is not loopback', host => {
    expect(isLoopbackHost(host)).toBe(false)
  })
})

describe('URL rules', () => {
  test.each(['https://example.org/card', 'https://example.org:443/card', 'https://example.org:8443/card', 'https://[2606:4700::1]/x'])('allows %s', url => {
    expect(getUrlRefusal(new URL(url), false)).toBeUndefined()
  })

  test.each(['http://localhost:3000/card', 'http://127.0.0.1:80/x', 'http://[::1]:8080/x', 'http://127.0.0.5/x'])(
    'allows %s only with allowInsecureLocal',
    url => {
      expect(getUrlRefusal(new URL(url), true)).toBeUndefined()
      expect(getUrlRefusal(new URL(url), false)).toContain('expected https')
    },
  )

  test.each(['http://example.org/card', 'http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data'])(
    'refuses plain http to non-loopback %s even with allowInsecureLocal',
    url => {
      expect(getUrlRefusal(new URL(url), true)).toContain('expected https')
    },
  )

  test.each(['file:///etc/passwd', 'ftp://example.org/x', 'gopher://example.org/x', 'data:text/plain,hi', 'ws://example.org/'])('refuses scheme of %s', url => {
    expect(getUrlRefusal(new URL(url), true)).toContain('is not allowed, expected https')
  })

  test.each(['https://user:pw@example.org/x', 'https://user@example.org/x', 'http://u:p@localhost:3000/x'])('refuses credentials in %s', url => {
    expect(getUrlRefusal(new URL(url), true)).toBe('credentials in the URL are not allowed')
  })

  test.each(['https://example.org:22/x', 'https://example.org:25/x', 'https://example.org:80/x', 'https://example.org:0/x'])(
    'refuses system port in %s',
    url => {
      expect(getUrlRefusal(new URL(url), false)).toContain('is not allowed, expected the default port')
    },
  )
})
