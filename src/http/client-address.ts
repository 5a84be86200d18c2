// The client address of a request: Fetch's Request does not carry it, so the server records it
// here — the TCP peer, or, behind a reverse proxy the owner trusts, the address that proxy wrote.

import { ipVersion, isLoopback, normalizeIp } from '../lib/ip-address.ts'

/** Who sent a request, as far as the pod can tell. */
export interface ClientAddress {
  readonly ip: string
  /**
   * The client is on the pod's own machine: a loopback TCP peer that no forwarding header speaks for,
   * or a loopback address a trusted proxy wrote. Never a proxy's peer address standing for someone else.
   */
  readonly local: boolean
}

export interface ClientAddresses {
  /** Called by the request handler (with how to find it: clientAddressFrom); nothing else writes here. */
  record(request: Request, address: () => ClientAddress | undefined): void
  /**
   * The client address, or undefined when the server did not record one (in-process requests);
   * limits keyed by address are then skipped rather than shared by everyone. Behind a reverse
   * proxy it is the proxy's address unless the proxy is trusted (`--trust-proxy`).
   */
  of(request: Request): string | undefined
  /** The client is on the pod's machine (see ClientAddress.local); false when nothing was recorded. */
  isLocal(request: Request): boolean
}

/** Built once by the wiring; entries go with their Request (a WeakMap holds nothing alive). */
export function makeClientAddresses(): ClientAddresses {
  // The lookup runs on first use (once), so requests that never ask cost no peer-address lookup.
  const addresses = new WeakMap<Request, ClientAddress | undefined | (() => ClientAddress | undefined)>()
  const get = (request: Request) => {
    const entry = addresses.get(request)
    if (typeof entry !== 'function') return entry
    const address = entry()
    addresses.set(request, address)
    return address
  }
  return {
    record: (request, address) => {
      addresses.set(request, address)
    },
    of: request => get(request)?.ip,
    isLocal: request => get(request)?.local ?? false,
  }
}

/** Any header a proxy uses to speak for a client (RFC 7239 and the de facto ones). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip']
const speaksForSomeone = (headers: Headers) => FORWARDING_HEADERS.some(h => headers.has(h))

/**
 * Behind reverse proxies (`--trust-proxy`): when the TCP peer is one of them, the client is the
 * nearest address of `X-Forwarded-For` that is not a trusted proxy, read from the right — each
 * trusted proxy appended (or wrote) the entry right of everything before it; anything to its left
 * the client may have written itself. `Forwarded` (RFC 7239) is never read: nginx, Caddy, HAProxy
 * and Traefik write `X-Forwarded-For` and pass a client's own `Forwarded` through, so a pod that
 * believed it would let any client name its address (and escape every per-address limit, or pass
 * as loopback). A node that is no IP address ends the walk at the last trusted hop, whose address
 * is then used. An untrusted peer's headers are ignored.
 */
export function clientAddressFrom(peer: string | undefined, headers: Headers, trusted: ReadonlySet<string>): ClientAddress | undefined {
  if (peer === undefined) return undefined
  let current = normalizeIp(peer)
  // Not a trusted proxy: the peer is the client, local only when no (untrusted) proxy on this machine speaks for another
  if (!trusted.has(current)) return { ip: current, local: isLoopback(current) && !speaksForSomeone(headers) }
  const chain =
    headers
      .get('x-forwarded-for')
      ?.split(',')
      .map(s => s.trim())
      .filter(s => s !== '') ?? []
  // A trusted proxy that names nobody: a direct connection from its machine, unless it speaks for a client in a header we do not read
  if (chain.length === 0) return { ip: current, local: isLoopback(current) && !speaksForSomeone(headers) }
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normalizeIp(chain[i]!)
    // unknown or obfuscated: the client is the last trusted hop, and where it really is nobody says
    if (ipVersion(hop) === 0) return { ip: current, local: false }
    current = hop
    if (!trusted.has(current)) break
  }
  return { ip: current, local: isLoopback(current) }
}
