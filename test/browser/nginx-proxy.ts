// Runs the documentation's nginx site (docs/hosting.md, "Behind a reverse proxy") with Debian's /usr/sbin/nginx
// in front of a pod: TLS with a self-signed certificate made here with openssl, on a loopback port, as this
// process's child, stopped by PID.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { documentation } from '../documentation.ts'

export const NGINX = '/usr/sbin/nginx'
/** The address nginx connects to the pod from (all of 127.0.0.0/8 is loopback on Linux). */
export const PROXY_ADDRESS = '127.0.0.2'

export interface NginxProxy {
  readonly origin: string
  /** The self-signed certificate (PEM), for clients that check it. */
  readonly certPem: string
  /** nginx's access log so far. */
  accessLog(): string
  stop(): Promise<void>
}

/**
 * Test only: nginx takes each client's address from this header (its realip module, trusting the test's
 * loopback connections), so a test on one machine can play clients from anywhere on the internet.
 */
export const TEST_CLIENT_HEADER = 'X-Test-Client'

/** The ```nginx block of the documentation (README.md and docs/*.md), with the listen port, name, certificate and upstream of this test. */
export function readmeSite(o: { port: number; upstreamPort: number; cert: string; key: string; remoteClients?: boolean }): string {
  const block = /```nginx\n([\s\S]*?)```/.exec(documentation())?.[1]
  if (!block) throw new Error('the documentation has no ```nginx example')
  const swaps: [string | RegExp, string][] = [
    ['listen 443 ssl;', `listen 127.0.0.1:${o.port} ssl;`],
    [
      'server_name pod.example;',
      `server_name localhost;${o.remoteClients ? `\n    set_real_ip_from 127.0.0.1;\n    real_ip_header ${TEST_CLIENT_HEADER};` : ''}`,
    ],
    [/ssl_certificate\s+\S+;/, `ssl_certificate ${o.cert};`],
    [/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${o.key};`],
    // test only: nginx connects from 127.0.0.2, so the pod can tell the proxy (peer) from the browser (127.0.0.1)
    ['proxy_pass http://127.0.0.1:3000;', `proxy_pass http://127.0.0.1:${o.upstreamPort};\n        proxy_bind ${PROXY_ADDRESS};`],
  ]
  return swaps.reduce((site, [from, to]) => {
    if (!(typeof from === 'string' ? site.includes(from) : from.test(site))) throw new Error(`the documentation's nginx example changed: no ${String(from)}`)
    return site.replace(from, to)
  }, block)
}

/** The documentation's start command behind the proxy, as written there. */
export const README_START = 'npm start -- --base-url https://pod.example --port 3000 --trust-proxy 127.0.0.1'

/**
 * The flags of README_START (which must be in the documentation) for this test: its public origin, the
 * address nginx connects from, and no fixed port (the test's pod lets the system pick one).
 */
export function readmeStartFlags(o: { publicOrigin: string; proxyAddress: string }): string[] {
  if (!documentation().includes(README_START)) throw new Error(`the documentation no longer says: ${README_START}`)
  const flags = README_START.split(' ').slice(3)
  const at = (flag: string) => {
    const i = flags.indexOf(flag)
    if (i < 0) throw new Error(`README_START has no ${flag}`)
    return i
  }
  flags[at('--base-url') + 1] = o.publicOrigin
  flags[at('--trust-proxy') + 1] = o.proxyAddress
  flags.splice(at('--port'), 2)
  return flags
}

/** A self-signed certificate for `localhost` (P-256, one day). */
function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem')
  const key = join(dir, 'key.pem')
  const made = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr.toString()}`)
  return { cert, key }
}

/** Starts nginx on 127.0.0.1:`port` with the documentation's site forwarding to 127.0.0.1:`upstreamPort` (`remoteClients`: see TEST_CLIENT_HEADER). */
export async function startNginxProxy(port: number, upstreamPort: number, o: { remoteClients?: boolean } = {}): Promise<NginxProxy> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx package (.ci/run does)`)
  const prefix = mkdtempSync(join(tmpdir(), 'solopod-nginx-'))
  // nginx's worker processes may run as another user: they write temp files and logs here
  chmodSync(prefix, 0o777)
  for (const d of ['logs', 'tmp']) mkdirSync(join(prefix, d), { mode: 0o777 })
  const { cert, key } = makeCertificate(prefix)
  const conf = join(prefix, 'nginx.conf')
  const tmp = (name: string) => `${name} ${join(prefix, 'tmp', name.replace('_temp_path', ''))};`
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log ${join(prefix, 'logs', 'access.log')};
  ${['client_body_temp_path', 'proxy_temp_path', 'fastcgi_temp_path', 'uwsgi_temp_path', 'scgi_temp_path'].map(tmp).join('\n  ')}
${readmeSite({ port, upstreamPort, cert, key, ...o })}
}
`,
  )
  const proc: Subprocess = Bun.spawn([NGINX, '-p', prefix, '-c', conf, '-e', join(prefix, 'logs', 'error.log')], { stdout: 'pipe', stderr: 'pipe' })
  const certPem = readFileSync(cert, 'utf8')
  const origin = `https://localhost:${port}`
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM')
      await proc.exited
    }
    rmSync(prefix, { recursive: true, force: true })
  }
  const deadline = Date.now() + 10_000
  for (;;) {
    if (proc.exitCode !== null) {
      const log = existsSync(join(prefix, 'logs', 'error.log')) ? readFileSync(join(prefix, 'logs', 'error.log'), 'utf8') : ''
      await stop()
      throw new Error(`nginx exited with ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()} ${log}`)
    }
    try {
      await fetch(`${origin}/.well-known/openid-configuration`, { tls: { ca: certPem }, signal: AbortSignal.timeout(1000) })
      break
    } catch (err) {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`nginx did not answer on ${origin}: ${String(err)}`)
      }
      await Bun.sleep(50)
    }
  }
  return {
    origin,
    certPem,
    stop,
    accessLog: () => {
      const p = join(prefix, 'logs', 'access.log')
      return existsSync(p) ? readFileSync(p, 'utf8') : ''
    },
  }
}
