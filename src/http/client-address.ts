// The TCP peer address of a request: Fetch's Request does not carry it, so the server records it here.

const addresses = new WeakMap<Request, string>()

/** Called by the request handler with `server.requestIP(request)`; nothing else writes here. */
export function recordClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

/**
 * The peer address, or undefined when the server did not record one (in-process requests);
 * limits keyed by address are then skipped rather than shared by everyone. Behind a reverse
 * proxy this is the proxy's address; forwarded headers are not trusted.
 */
export const clientAddressOf = (request: Request): string | undefined => addresses.get(request)
