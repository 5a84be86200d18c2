// Debian's pebble, a small ACME CA for tests, with pebble-challtestsrv as its DNS: every name resolves to
// 127.0.0.1, so the CA's http-01 check reaches the pod under test on the http port pebble is told.

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from './start-server.ts'
import { makeLocalhostCertificate } from './tls-cert.ts'

export interface Pebble {
  readonly directoryUrl: string
  /** The CA of pebble's own https (its directory): the pod trusts it with --acme-ca-file. */
  readonly caFile: string
  /** PEM of the root that issues the pod's certificates (pebble makes a new one at every start). */
  root(): Promise<string>
  /** Stops the CA (its DNS server stays): the directory is unreachable from now on. */
  stop(): Promise<void>
  dispose(): Promise<void>
}

export interface PebbleOptions {
  readonly dir: string
  /** Where pebble's validation connects for http-01: the pod's --http-port. */
  readonly httpPort: number
  /** Lifetime of the certificates it issues, in seconds. */
  readonly validitySeconds: number
}

export async function startPebble(o: PebbleOptions): Promise<Pebble> {
  const listener = makeLocalhostCertificate(o.dir)
  const [acmePort, managementPort, dnsPort, dnsManagementPort] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const config = join(o.dir, 'pebble-config.json')
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: listener.cert,
        privateKey: listener.key,
        httpPort: o.httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        certificateValidityPeriod: o.validitySeconds,
      },
    }),
  )
  // Only the DNS server: IPv4 answers 127.0.0.1, no IPv6 answer (the pod listens on 127.0.0.1 only), no challenge servers.
  const dns = Bun.spawn(
    [
      'pebble-challtestsrv',
      '-dns01',
      `127.0.0.1:${dnsPort}`,
      '-management',
      `127.0.0.1:${dnsManagementPort}`,
      '-http01',
      '',
      '-https01',
      '',
      '-tlsalpn01',
      '',
      '-defaultIPv4',
      '127.0.0.1',
      '-defaultIPv6',
      '',
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  // Real validation (no PEBBLE_VA_ALWAYS_VALID), without its random sleeps; no nonce refused on purpose, and
  // no authorization reused, so every order answers its own http-01 challenge.
  const ca: Subprocess = Bun.spawn(['pebble', '-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], {
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const caPem = await Bun.file(listener.cert).text()
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(directoryUrl, { tls: { ca: caPem } })).ok) break
    } catch {
      /* not listening yet */
    }
    if (i === 100) throw new Error('pebble did not start')
    await Bun.sleep(50)
  }
  const end = async (p: Subprocess) => {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill()
      await p.exited
    }
  }
  return {
    directoryUrl,
    caFile: listener.cert,
    root: async () => (await fetch(`https://127.0.0.1:${managementPort}/roots/0`, { tls: { ca: caPem } })).text(),
    stop: () => end(ca),
    dispose: async () => {
      await end(ca)
      await end(dns)
    },
  }
}
