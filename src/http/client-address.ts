// The TCP peer address of a request: Fetch's Request does not carry it, so the server records it here.

export interface ClientAddresses {
  /** Called by the request handler with `server.requestIP(request)`; nothing else writes here. */
  record(request: Request, address: string | undefined): void
  /**
   * The peer address, or undefined when the server did not record one (in-process requests);
   * limits keyed by address are then skipped rather than shared by everyone. Behind a reverse
   * proxy this is the proxy's address; forwarded headers are not trusted.
   */
  of(request: Request): string | undefined
}

/** Built once by the wiring; entries go with their Request (a WeakMap holds nothing alive). */
export function makeClientAddresses(): ClientAddresses {
  const addresses = new WeakMap<Request, string>()
  return {
    record: (request, address) => { if (address) addresses.set(request, address) },
    of: (request) => addresses.get(request),
  }
}
