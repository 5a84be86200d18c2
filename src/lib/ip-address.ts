// IP addresses as the pod compares them (trusted proxies, client addresses).

/** One spelling per address: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is the IPv4 address; IPv6 in lower case. */
export function normalizeIp(value: string): string {
  const v = value.trim().toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v)
  return mapped ? mapped[1]! : v
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)'
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)
/** RFC 4007 §11: a zone index after `%` (node:net accepts letters, digits, `-`, `.`, `:`). */
const ZONE = /%[0-9A-Za-z\-.:]+$/

/**
 * node:net's `isIP` (4, 6, or 0 when not an address), without loading node:net, which costs ~60 ms of
 * every start (it pulls in Node's stream machinery). IPv4 in dotted decimal without leading zeros;
 * IPv6 as the URL parser reads a bracketed host (RFC 3986 §3.2.2), with an optional zone.
 */
export function ipVersion(value: string): 0 | 4 | 6 {
  if (IPV4.test(value)) return 4
  if (!value.includes(':') || /[[\]/]/.test(value)) return 0
  return URL.canParse(`http://[${value.replace(ZONE, '')}]/`) ? 6 : 0
}

/** RFC 1122 §3.2.1.3 (127.0.0.0/8) and RFC 4291 §2.5.3 (::1): the machine itself. */
export function isLoopback(value: string): boolean {
  const v = normalizeIp(value)
  return (ipVersion(v) === 4 && v.startsWith('127.')) || v === '::1' || v === '0:0:0:0:0:0:0:1'
}

/**
 * The block one client controls, for per-client limits: an IPv4 address itself, an IPv6 address's /64. A
 * single host or home network is normally handed a whole /64 (RFC 6177 §2, RFC 7421: SLAAC needs it), so
 * counting IPv6 addresses one by one would give a guesser 2^64 fresh "clients".
 */
export function addressBlock(value: string): string {
  const v = normalizeIp(value)
  if (ipVersion(v) !== 6) return v
  // WHATWG URL serializes IPv6 as hex pieces (no dotted tail), '::' for the longest run of zeros
  const host = new URL(`http://[${v.replace(ZONE, '')}]/`).hostname.slice(1, -1)
  const [head = '', tail] = host.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const pieces = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return `${pieces.slice(0, 4).join(':')}::/64`
}
