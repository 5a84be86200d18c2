// SSRF guard: which IP addresses and URLs a remote-document fetch may contact. Pure functions on strings.

export interface RefusedRange {
  readonly cidr: string
  /** What the range is and the spec that sets it aside; quoted in refusal reasons. */
  readonly note: string
  /** Loopback ranges are allowed when the pod runs with `--allow-insecure-local`. */
  readonly loopback?: boolean
  /** The range embeds an IPv4 address; the verdict is that of the embedded address. */
  readonly embedsV4?: (addr: bigint) => bigint
}

interface ParsedRange extends RefusedRange {
  readonly base: bigint
  readonly bits: number
}

const low32 = (addr: bigint) => addr & 0xffffffffn
const sixToFourV4 = (addr: bigint) => (addr >> 80n) & 0xffffffffn

// IANA IPv4 Special-Purpose Address Registry (RFC 6890), every block not globally reachable.
const V4_REFUSED: readonly RefusedRange[] = [
  { cidr: '0.0.0.0/8', note: '"this network", incl. the unspecified address (RFC 1122 §3.2.1.3)' },
  { cidr: '10.0.0.0/8', note: 'private-use (RFC 1918)' },
  { cidr: '100.64.0.0/10', note: 'shared address space / CGNAT (RFC 6598)' },
  { cidr: '127.0.0.0/8', note: 'loopback (RFC 1122 §3.2.1.3)', loopback: true },
  { cidr: '169.254.0.0/16', note: 'link-local, incl. cloud metadata endpoints (RFC 3927)' },
  { cidr: '172.16.0.0/12', note: 'private-use (RFC 1918)' },
  { cidr: '192.0.0.0/24', note: 'IETF protocol assignments (RFC 6890 §2.1)' },
  { cidr: '192.0.2.0/24', note: 'documentation TEST-NET-1 (RFC 5737)' },
  { cidr: '192.88.99.0/24', note: 'deprecated 6to4 relay anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', note: 'private-use (RFC 1918)' },
  { cidr: '198.18.0.0/15', note: 'benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', note: 'documentation TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', note: 'documentation TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', note: 'multicast (RFC 5771)' },
  { cidr: '240.0.0.0/4', note: 'reserved, incl. limited broadcast (RFC 1112 §4, RFC 919)' },
]

// IANA IPv6 Special-Purpose Address Registry; first match wins, so specific rows come first.
const V6_REFUSED: readonly RefusedRange[] = [
  { cidr: '::/128', note: 'the unspecified address (RFC 4291 §2.5.2)' },
  { cidr: '::1/128', note: 'loopback (RFC 4291 §2.5.3)', loopback: true },
  { cidr: '::ffff:0:0/96', note: 'an IPv4-mapped address (RFC 4291 §2.5.5.2)', embedsV4: low32 },
  { cidr: '::/96', note: 'a deprecated IPv4-compatible address (RFC 4291 §2.5.5.1)' },
  { cidr: '64:ff9b::/96', note: 'a NAT64 address (RFC 6052)', embedsV4: low32 },
  { cidr: '64:ff9b:1::/48', note: 'local-use NAT64 (RFC 8215)' },
  { cidr: '100::/64', note: 'discard-only (RFC 6666)' },
  { cidr: '2001::/23', note: 'IETF protocol assignments, incl. Teredo (RFC 2928, RFC 4380)' },
  { cidr: '2001:db8::/32', note: 'documentation (RFC 3849)' },
  { cidr: '2002::/16', note: 'a 6to4 address (RFC 3056)', embedsV4: sixToFourV4 },
  { cidr: '3fff::/20', note: 'documentation (RFC 9637)' },
  { cidr: '5f00::/16', note: 'SRv6 SIDs (RFC 9602)' },
  { cidr: 'fc00::/7', note: 'unique-local (RFC 4193)' },
  { cidr: 'fe80::/10', note: 'link-local (RFC 4291 §2.5.6)' },
  { cidr: 'fec0::/10', note: 'deprecated site-local (RFC 3879)' },
  { cidr: 'ff00::/8', note: 'multicast (RFC 4291 §2.7)' },
  // RFC 4291 §2.4: only 2000::/3 is global unicast; the rest is reserved or unassigned.
  { cidr: '::/3', note: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
  { cidr: '4000::/2', note: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
  { cidr: '8000::/1', note: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
]

const NOT_AN_ADDRESS: RefusedRange = { cidr: '-', note: 'not an IP address' }

/** Strict dotted quad; leading zeros are refused (some stacks read them as octal). */
function parseIPv4(ip: string): bigint | undefined {
  const parts = ip.split('.')
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined
    value = (value << 8n) | BigInt(part)
  }
  return value
}

/** Hex groups to 16-bit words; a dotted-quad last group counts as two words (RFC 4291 §2.2 (3)). */
function toWords(groups: readonly string[], allowV4Tail: boolean): number[] | undefined {
  const words: number[] = []
  for (const [i, g] of groups.entries()) {
    if (allowV4Tail && i === groups.length - 1 && g.includes('.')) {
      const v4 = parseIPv4(g)
      if (v4 === undefined) return undefined
      words.push(Number(v4 >> 16n), Number(v4 & 0xffffn))
    } else if (/^[0-9a-f]{1,4}$/.test(g)) words.push(parseInt(g, 16))
    else return undefined
  }
  return words
}

/** RFC 4291 §2.2 text forms, incl. `::` and a dotted-quad tail; a zone id (`%eth0`) is dropped. */
function parseIPv6(ip: string): bigint | undefined {
  const halves = ip.split('%')[0]!.toLowerCase().split('::')
  if (halves.length > 2) return undefined
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'))
  const head = toWords(groupsOf(halves[0]!), halves.length === 1)
  const tail = halves.length === 2 ? toWords(groupsOf(halves[1]!), true) : []
  if (!head || !tail) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  return [...head, ...Array<number>(missing).fill(0), ...tail].reduce((acc, w) => (acc << 16n) | BigInt(w), 0n)
}

function parseRanges(rows: readonly RefusedRange[], parse: (s: string) => bigint | undefined): ParsedRange[] {
  return rows.map(row => {
    const [addr, bits] = row.cidr.split('/')
    const base = parse(addr!)
    if (base === undefined) throw new Error(`bad range ${row.cidr}`)
    return { ...row, base, bits: Number(bits) }
  })
}

const V4_PARSED = parseRanges(V4_REFUSED, parseIPv4)
const V6_PARSED = parseRanges(V6_REFUSED, parseIPv6)

function matchRange(addr: bigint, width: bigint, ranges: readonly ParsedRange[]): ParsedRange | undefined {
  return ranges.find(r => addr >> (width - BigInt(r.bits)) === r.base >> (width - BigInt(r.bits)))
}

/** The refused range `ip` falls in, or `undefined` when it is a public address. Unparsable input is refused. */
export function getRefusedRange(ip: string): RefusedRange | undefined {
  const v4 = parseIPv4(ip)
  if (v4 !== undefined) return matchRange(v4, 32n, V4_PARSED)
  const v6 = ip.includes(':') ? parseIPv6(ip) : undefined
  if (v6 === undefined) return NOT_AN_ADDRESS
  const range = matchRange(v6, 128n, V6_PARSED)
  if (!range?.embedsV4) return range
  // The packet goes to the embedded IPv4 address, so that address decides.
  const inner = matchRange(range.embedsV4(v6), 32n, V4_PARSED)
  return inner && { cidr: range.cidr, note: `${range.note} of ${inner.note}`, loopback: inner.loopback }
}

/** Why `ip` may not be contacted, or `undefined` when it may. */
export function getAddressRefusal(ip: string, allowInsecureLocal: boolean): string | undefined {
  const range = getRefusedRange(ip)
  if (!range || (range.loopback && allowInsecureLocal)) return undefined
  return range.note
}

/** `[::1]` → `::1`: URL hostnames bracket IPv6 literals. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1')

export const isIpLiteral = (host: string) => getRefusedRange(bareHost(host)) !== NOT_AN_ADDRESS

/** RFC 6761 §6.3 `localhost`, 127.0.0.0/8 or ::1 (also IPv4-mapped). */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase()).replace(/\.$/, '')
  return host === 'localhost' || getRefusedRange(host)?.loopback === true
}

/** Why `url` may not be fetched (scheme, credentials, port), or `undefined` when it may. */
export function getUrlRefusal(url: URL, allowInsecureLocal: boolean): string | undefined {
  const localDev = allowInsecureLocal && isLoopbackHost(url.hostname)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `scheme ${url.protocol} is not allowed, expected https`
  if (url.protocol === 'http:' && !localDev) {
    return 'plain http is not allowed, expected https (http only for loopback with --allow-insecure-local)'
  }
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed'
  // RFC 6335 §6: system ports (< 1024) other than the scheme default belong to other protocols (SMTP, SSH…).
  if (url.port !== '' && Number(url.port) < 1024 && !localDev) {
    return `port ${url.port} is not allowed, expected the default port or one from 1024 up`
  }
  return undefined
}
