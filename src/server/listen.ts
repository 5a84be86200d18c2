// Bun.serve for the pod: its limits, its WebSocket handlers, and never Bun's own error page.

import type { Config } from '../config.ts'
import type { RequestHandler } from '../pod.ts'
import { socketHandlers } from '../http/socket-session.ts'
import { describeCause, log } from '../log.ts'

export type PodServer = ReturnType<typeof listen>

export interface ListenOptions {
  /** PEM of the certificate chain and its key (without it, --tls-cert's files when given). */
  readonly tls?: { readonly cert: string; readonly key: string }
  /**
   * SO_REUSEPORT, so that a listener with a renewed certificate can take the port over from the one before
   * (server/acme-listener.ts): Bun cannot change the certificate of a listening server (oven-sh/bun#43815).
   * Only that listener sets it, after server/port-claim.ts claimed the port.
   */
  readonly reusePort?: boolean
}

export function listen(cfg: Config, fetch: RequestHandler, opts: ListenOptions = {}) {
  return Bun.serve({
    port: cfg.port,
    hostname: cfg.host,
    // Said either way: without `development`, Bun sets SO_REUSEPORT unless told not to (measured with
    // Bun 1.4.5), and a second pod on the same port would then take half of the connections
    // (server/port-claim.ts).
    reusePort: opts.reusePort === true,
    // Above our own limits, so oversized bodies get the pod's 413 (with its reason and CORS headers):
    // the request readers stop at cfg.maxBodyBytes and cfg.maxRdfBytes themselves, and files are
    // streamed to disk, so without a cap Bun may pass any length.
    maxRequestBodySize: cfg.maxBodyBytes === undefined ? Number.MAX_SAFE_INTEGER : Math.max(cfg.maxBodyBytes, cfg.maxRdfBytes) + 1024 * 1024,
    ...(opts.tls ? { tls: opts.tls } : cfg.tlsCert ? { tls: { cert: Bun.file(cfg.tlsCert), key: Bun.file(cfg.tlsKey!) } } : {}),
    fetch,
    // Notification channels (WebSocketChannel2023, solid-0.1): each socket's events go to its session
    websocket: socketHandlers,
    // Never Bun's development error page (it shows source paths and code): the handler answers every
    // request itself, and lastResort is there should anything still escape it.
    development: false,
    error: lastResort,
  })
}

export function lastResort(err: Error): Response {
  log.error('request.failed', { cause: describeCause(err) })
  return new Response('server_error: the pod could not complete this request; see the server log\n', {
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  })
}
