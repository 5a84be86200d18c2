// The client address of a request: Fetch's Request does not carry it, so the server records it
// here — the TCP peer, or, behind a reverse proxy the owner trusts, the address it forwarded.

import { ipVersion, normalizeIp } from '../lib/ip-address.ts'

export interface ClientAddresses {
  /** Called by the request handler (with how to find it: clientAddressFrom); nothing else writes here. */
  record(request: Request, address: () => string | undefined): void
  /**
   * The client address, or undefined when the server did not record one (in-process requests);
   * limits keyed by address are then skipped rather than shared by everyone. Behind a reverse
   * proxy it is the proxy's address unless the proxy is trusted (`--trust-proxy`).
   */
  of(request: Request): string | undefined
}

/** Built once by the wiring; entries go with their Request (a WeakMap holds nothing alive). */
export function makeClientAddresses(): ClientAddresses {
  // The lookup runs on first use (once), so requests that never ask cost no peer-address lookup.
  const addresses = new WeakMap<Request, string | undefined | (() => string | undefined)>()
  return {
    record: (request, address) => { addresses.set(request, address) },
    of: (request) => {
      const entry = addresses.get(request)
      if (typeof entry !== 'function') return entry
      const address = entry()
      addresses.set(request, address)
      return address
    },
  }
}

/** RFC 7239 §6: a `for=` node is an IP (IPv6 in brackets), optionally with a port, or unknown/obfuscated. */
function forwardedNode(raw: string): string {
  let v = raw.trim()
  if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1')
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v)
  if (bracketed) return bracketed[1]!
  const v4 = /^(\d+\.\d+\.\d+\.\d+)(?::\d+)?$/.exec(v)
  return v4 ? v4[1]! : v
}

/** The `for=` chain of RFC 7239 `Forwarded` headers, first hop first; undefined when there is none. */
function forwardedChain(header: string | null): string[] | undefined {
  if (!header) return undefined
  const chain: string[] = []
  for (const element of header.split(',')) {
    const pair = element.split(';').map((p) => p.trim()).find((p) => /^for=/i.test(p))
    if (pair) chain.push(forwardedNode(pair.slice(4)))
  }
  return chain.length > 0 ? chain : undefined
}

/**
 * Behind reverse proxies (`--trust-proxy`): when the TCP peer is one of them, the client is the
 * nearest address of the forwarded chain that is not a trusted proxy, read from the right — the
 * proxy appended it; anything to its left the client may have written. `Forwarded` (RFC 7239)
 * wins over `X-Forwarded-For`. A node that is no IP address (`unknown`, obfuscated) ends the walk
 * at the last trusted hop, whose address is then used. An untrusted peer's headers are ignored.
 */
export function clientAddressFrom(peer: string | undefined, headers: Headers, trusted: ReadonlySet<string>): string | undefined {
  if (peer === undefined) return undefined
  let current = normalizeIp(peer)
  if (!trusted.has(current)) return current
  const chain = forwardedChain(headers.get('forwarded')) ?? headers.get('x-forwarded-for')?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? []
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normalizeIp(chain[i]!)
    if (ipVersion(hop) === 0) return current
    current = hop
    if (!trusted.has(current)) return current
  }
  return current
}
