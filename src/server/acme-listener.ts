// A pod with its own certificate (--domain): the plain-http port (http-01 challenge, redirect to https), the
// certificate at start, https on cfg.port, and each renewed certificate on a new listener that takes the
// port over from the old one, since Bun cannot change the certificate of a listening server (oven-sh/bun#43815).
// Those listeners share the port with SO_REUSEPORT, and only with each other: server/port-claim.ts says why
// no other pod or program joins them.

import type { Config } from '../config.ts'
import type { Pod, RequestHandler } from '../pod.ts'
import { makeHttpChallenges } from '../acme/http-challenges.ts'
import { makeCertificateKeeper } from '../acme/certificate-keeper.ts'
import { readCertificateInfo } from '../acme/certificate-info.ts'
import type { StoredCertificate } from '../acme/acme-records.ts'
import { describeCause, log } from '../log.ts'
import { lastResort, listen, type PodServer } from './listen.ts'
import { bindOrExplain, type PortLock } from './port-claim.ts'

export interface Listener {
  readonly port: number
  /** Stops taking connections; resolves once those open have closed (requests in flight finish first). */
  stop(): Promise<void>
}

/**
 * `httpsPort` is the lock claimSharedPort took on cfg.port; it is released when the last https listener
 * has stopped (or the start fails).
 */
export async function listenWithAcme(pod: Pod, handler: RequestHandler, httpsPort: PortLock): Promise<Listener> {
  const { cfg, store, deps } = pod
  const acme = cfg.acme!
  const challenges = makeHttpChallenges()
  let httpServer: PodServer
  try {
    // Exclusive like every listener but the https one (reusePort false: Bun's default would set it)
    httpServer = bindOrExplain(cfg.host, acme.httpPort, '--http-port', () =>
      Bun.serve({
        port: acme.httpPort,
        hostname: cfg.host,
        reusePort: false,
        development: false,
        error: lastResort,
        fetch: request => challenges.answer(request, cfg.baseUrl),
      }),
    )
  } catch (err) {
    httpsPort.release()
    throw err
  }
  const keeper = makeCertificateKeeper({ acme, store, now: deps.now, challenges, state: deps.certificate })
  let server: PodServer
  try {
    const cert = await keeper.obtain()
    // SO_REUSEPORT, on a port claimSharedPort proved free and holds for this pod alone
    server = bindOrExplain(cfg.host, cfg.port, '--port', () => listen(cfg, handler, { tls: tlsOf(cert), reusePort: true }))
  } catch (err) {
    await keeper.stop()
    httpServer.stop(true)
    httpsPort.release()
    throw err
  }
  const retiring = new Set<Promise<void>>()
  keeper.start(cert => {
    let next: PodServer
    try {
      // Joins the listener in use, the one socket on the port it may join: the pod has held the port lock
      // since before the first listener, so no other pod's listener is there, and the old one is still
      // bound, so no plain bind of another process can take the port in between.
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
    get port() {
      return server.port!
    },
    stop: async () => {
      await keeper.stop()
      void httpServer.stop()
      await server.stop()
      await Promise.all(retiring)
      httpsPort.release()
    },
  }
}

const tlsOf = (cert: StoredCertificate) => ({ cert: cert.certPem, key: cert.keyPem })
