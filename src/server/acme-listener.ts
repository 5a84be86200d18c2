// A pod with its own certificate (--domain): the plain-http port (http-01 challenge, redirect to https), the
// certificate at start, https on cfg.port, and each renewed certificate on a new listener that takes the
// port over from the old one, since Bun cannot change the certificate of a listening server (oven-sh/bun#43815).

import type { Config } from '../config.ts'
import type { Pod, RequestHandler } from '../pod.ts'
import { makeHttpChallenges } from '../acme/http-challenges.ts'
import { makeCertificateKeeper } from '../acme/certificate-keeper.ts'
import { readCertificateInfo } from '../acme/certificate-info.ts'
import type { StoredCertificate } from '../acme/acme-records.ts'
import { UserError } from '../lib/user-error.ts'
import { describeCause, log } from '../log.ts'
import { lastResort, listen, type PodServer } from './listen.ts'

export interface Listener {
  readonly port: number
  /** Stops taking connections; resolves once those open have closed (requests in flight finish first). */
  stop(): Promise<void>
}

export async function listenWithAcme(pod: Pod, handler: RequestHandler): Promise<Listener> {
  const { cfg, store, deps } = pod
  const acme = cfg.acme!
  const challenges = makeHttpChallenges()
  const httpServer = bindOrExplain(cfg.host, acme.httpPort, '--http-port', () => Bun.serve({
    port: acme.httpPort, hostname: cfg.host, development: false, error: lastResort,
    fetch: (request) => challenges.answer(request, cfg.baseUrl),
  }))
  const keeper = makeCertificateKeeper({ acme, store, now: deps.now, challenges, state: deps.certificate })
  let server: PodServer
  try {
    const cert = await keeper.obtain()
    refuseSharedPort(cfg)
    server = bindOrExplain(cfg.host, cfg.port, '--port', () => listen(cfg, handler, { tls: tlsOf(cert), reusePort: true }))
  } catch (err) {
    await keeper.stop()
    httpServer.stop(true)
    throw err
  }
  const retiring = new Set<Promise<void>>()
  keeper.start((cert) => {
    let next: PodServer
    try {
      next = listen(cfg, handler, { tls: tlsOf(cert), reusePort: true })
    } catch (err) {
      log.error('acme.listener_failed', { reason: describeCause(err) })
      return
    }
    // New connections reach the new listener once the old one stops listening; the old one's requests in
    // flight and open WebSockets go on to their end (idle keep-alive connections are closed, and reopened
    // by their clients, RFC 9112 §9.3.1).
    const old = server
    server = next
    const stopping: Promise<void> = old.stop().finally(() => retiring.delete(stopping))
    retiring.add(stopping)
    log.info('acme.certificate_in_use', { serial: readCertificateInfo(cert.certPem).serial })
  })
  return {
    get port() { return server.port! },
    stop: async () => {
      await keeper.stop()
      void httpServer.stop()
      await server.stop()
      await Promise.all(retiring)
    },
  }
}

const tlsOf = (cert: StoredCertificate) => ({ cert: cert.certPem, key: cert.keyPem })

/**
 * The https listener sets SO_REUSEPORT, which would let a second pod of the same user bind the same port and
 * take half its connections; a plain bind first proves that nothing listens there yet.
 */
function refuseSharedPort(cfg: Config) {
  const probe = bindOrExplain(cfg.host, cfg.port, '--port', () => Bun.listen({ hostname: cfg.host, port: cfg.port, socket: { data() {} } }))
  probe.stop(true)
}

/** A port the pod may not bind (below 1024 without the capability, or taken) stops the start with what to do. */
function bindOrExplain<T>(host: string, port: number, flag: string, bind: () => T): T {
  try {
    return bind()
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'EACCES') throw new UserError(`cannot listen on ${host}:${port} (${flag}): ports below 1024 need the capability CAP_NET_BIND_SERVICE; see docs/hosting.md, "Ports 80 and 443"`, { cause: err })
    if (code === 'EADDRINUSE') throw new UserError(`cannot listen on ${host}:${port} (${flag}): another process listens there`, { cause: err })
    throw err
  }
}
