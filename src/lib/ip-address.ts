// IP addresses as the pod compares them (trusted proxies, client addresses).

/** One spelling per address: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is the IPv4 address; IPv6 in lower case. */
export function normalizeIp(value: string): string {
  const v = value.trim().toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v)
  return mapped ? mapped[1]! : v
}
