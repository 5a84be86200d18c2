// --domain: the pod obtains its certificate from a real ACME CA (Debian's pebble) over http-01, serves
// https with the issued chain, renews a short-lived certificate without a restart, and copes with a CA
// it cannot reach (RFC 8555).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type TLSSocket } from 'node:tls'
import { freePort, runSolopod, startPod, type RunningPod } from './start-server.ts'
import { startPebble, type Pebble } from './pebble.ts'
import { foreignListener, profileTags, startSolopodBriefly } from './port-sharing.ts'
import { claimSharedPort } from '../../src/server/port-claim.ts'
import { UserError } from '../../src/lib/user-error.ts'

const DOMAIN = 'pod.solopod.test'
/** Renewal is due once a third is left: 20 s after issuance. */
const VALIDITY_SECONDS = 30

let dir: string
let pebble: Pebble
let pod: RunningPod
let httpPort: number
let root: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-acme-'))
  httpPort = await freePort()
  pebble = await startPebble({ dir, httpPort, validitySeconds: VALIDITY_SECONDS })
  root = await pebble.root()
})
afterAll(async () => {
  await pod?.dispose()
  await pebble.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const acmeOptions = () => ({ domain: DOMAIN, httpPort, directoryUrl: pebble.directoryUrl, caFile: pebble.caFile })

/** A TLS connection to the pod as a client of DOMAIN that trusts only pebble's root. */
function openTls(trusting = root): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: pod.port, servername: DOMAIN, ca: trusting, rejectUnauthorized: false }, () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Sends `head` (and `body`) on the connection; resolves with the status line of the answer. */
function statusLine(socket: TLSSocket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('data', d => resolve(String(d).split('\r\n')[0]!))
    socket.once('error', reject)
    socket.write(text)
  })
}

const serialOf = (socket: TLSSocket) => socket.getPeerCertificate().serialNumber

describe('RFC 8555: a certificate from the ACME CA at first start', () => {
  test('the http-01 challenge is answered, and https serves the issued chain for the domain', async () => {
    pod = await startPod({ acme: acmeOptions() })
    expect(pod.baseUrl).toBe(`https://${DOMAIN}:${pod.port}`)
    expect(pod.stdout()).toContain('"event":"acme.certificate_issued"')
    const socket = await openTls()
    try {
      // verified against pebble's root alone: the leaf names the domain and the pod sends the intermediate
      expect(socket.authorized).toBe(true)
      expect(socket.getPeerCertificate().subjectaltname).toBe(`DNS:${DOMAIN}`)
    } finally {
      socket.destroy()
    }
    const card = await fetch(`https://127.0.0.1:${pod.port}/profile/card`, { tls: { ca: root, serverName: DOMAIN } })
    expect(card.status).toBe(200)
    // the base URL follows the domain
    expect(await card.text()).toContain(`solid:oidcIssuer <https://${DOMAIN}:${pod.port}>`)
  }, 30_000)

  test('the http port redirects everything else to https, path and query kept', async () => {
    const res = await fetch(`http://127.0.0.1:${httpPort}/profile/card?x=1`, { redirect: 'manual' })
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe(`https://${DOMAIN}:${pod.port}/profile/card?x=1`)
  })

  test('a challenge token that is not pending is 404 not_found', async () => {
    const res = await fetch(`http://127.0.0.1:${httpPort}/.well-known/acme-challenge/abcDEF_123-x`)
    expect(res.status).toBe(404)
    expect(await res.text()).toStartWith('not_found:')
  })
})

describe('renewal ahead of expiry', () => {
  test('a connection opened after the renewal gets the new certificate; one opened before is still answered', async () => {
    // a request under way across the switch: its body is half sent shortly before the renewal is due
    // (an idle connection is closed by the server after 10 s)
    const probe = await openTls()
    const { valid_from, valid_to } = probe.getPeerCertificate()
    probe.destroy()
    const notBefore = Date.parse(valid_from),
      notAfter = Date.parse(valid_to)
    await Bun.sleep(Math.max(0, notAfter - (notAfter - notBefore) / 3 - 2000 - Date.now()))
    const before = await openTls()
    const oldSerial = serialOf(before)
    const body = 'grant_type=authorization_code'
    before.write(
      `POST /.oidc/token HTTP/1.1\r\nHost: ${DOMAIN}:${pod.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    )
    await pod.waitForOutput(/"event":"acme.certificate_in_use"/, 30_000)
    const after = await openTls()
    try {
      expect(after.authorized).toBe(true)
      expect(serialOf(after)).not.toBe(oldSerial)
      expect(await statusLine(after, `GET /profile/card HTTP/1.1\r\nHost: ${DOMAIN}:${pod.port}\r\n\r\n`)).toBe('HTTP/1.1 200 OK')
      // the old connection, on the old certificate, gets its answer (the OP refuses the incomplete grant)
      expect(await statusLine(before, body.slice(10))).toBe('HTTP/1.1 400 Bad Request')
      expect(serialOf(before)).toBe(oldSerial)
    } finally {
      before.destroy()
      after.destroy()
    }
  }, 45_000)
})

describe('the https port across certificate swaps (SO_REUSEPORT)', () => {
  const swaps = () => pod.stdout().split('"event":"acme.certificate_in_use"').length - 1
  const refusal = (port: number, why: string) =>
    `solopod: cannot listen on 127.0.0.1:${port} (--port): ${why}; stop it, or give this pod another port with --port`
  /** `solopod serve` of a --domain pod with the data directory `data` under the test's folder. */
  const acmeArgs = (data: string, port: number, http: number) => [
    'serve',
    '--data',
    join(dir, data),
    '--port',
    String(port),
    '--domain',
    DOMAIN,
    '--acme-email',
    'owner@example.org',
    '--acme-directory',
    pebble.directoryUrl,
    '--acme-ca-file',
    pebble.caFile,
    '--http-port',
    String(http),
    '--host',
    '127.0.0.1',
  ]

  test('no moment of a swap lets another pod claim the port, and a second pod is refused after it', async () => {
    // What a second --domain pod does first (server/port-claim.ts), and a plain bind, over and over
    // from before the next swap to after it: each must be refused.
    const before = swaps()
    let attempts = 0
    const claimed: string[] = []
    let trying = true
    const tries = (async () => {
      while (trying) {
        try {
          claimSharedPort('127.0.0.1', pod.port, '--port').release()
          claimed.push('the port lock')
        } catch (err) {
          if (!(err instanceof UserError)) throw err
        }
        try {
          Bun.listen({ hostname: '127.0.0.1', port: pod.port, exclusive: true, socket: { data() {} } }).stop(true)
          claimed.push('a plain bind')
        } catch {}
        attempts++
        await Bun.sleep(1)
      }
    })()
    const deadline = Date.now() + 35_000
    while (swaps() === before && Date.now() < deadline) await Bun.sleep(20)
    await Bun.sleep(200)
    trying = false
    await tries
    expect(swaps()).toBeGreaterThan(before)
    expect(attempts).toBeGreaterThan(50)
    expect(claimed).toEqual([])
    // after the swap, real pods: with --domain the lock refuses it, without it the plain bind
    const [own] = await profileTags(`https://127.0.0.1:${pod.port}`, 1, { tls: { ca: root, serverName: DOMAIN } })
    const withDomain = await startSolopodBriefly(10_000, ...acmeArgs('second-domain', pod.port, await freePort()))
    const plain = await startSolopodBriefly(10_000, 'serve', '--data', join(dir, 'second-plain'), '--port', String(pod.port))
    const tags = await profileTags(`https://127.0.0.1:${pod.port}`, 40, { tls: { ca: root, serverName: DOMAIN } })
    await withDomain.stop()
    await plain.stop()
    expect(tags.filter(t => t !== own)).toEqual([])
    expect(withDomain.code).toBe(2)
    expect(withDomain.stderr).toContain(refusal(pod.port, 'another solopod serves it'))
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain(refusal(pod.port, 'another process listens there'))
  }, 60_000)

  test('a program listening with SO_REUSEPORT on the https port or the http port: the pod refuses to join it', async () => {
    const https = await freePort()
    const foreign = await foreignListener(https)
    try {
      const run = await startSolopodBriefly(10_000, ...acmeArgs('beside-foreign', https, await freePort()))
      await run.stop()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(refusal(https, 'another process listens there'))
    } finally {
      await foreign.stop()
    }
    const http = await freePort()
    const onHttp = await foreignListener(http)
    try {
      const run = await startSolopodBriefly(10_000, ...acmeArgs('beside-foreign-http', await freePort(), http))
      await run.stop()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(
        `solopod: cannot listen on 127.0.0.1:${http} (--http-port): another process listens there; stop it, or give this pod another port with --http-port`,
      )
    } finally {
      await onHttp.stop()
    }
  }, 40_000)
})

describe('a CA that cannot be reached', () => {
  let serving: string

  test('a failed renewal keeps the old certificate served and is logged at warn with its reason', async () => {
    const s = await openTls()
    serving = serialOf(s)
    s.destroy()
    await pebble.stop()
    const line = (await pod.waitForOutput(/\{[^\n]*"event":"acme.renewal_failed"[^\n]*\}/, 30_000))[0]
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', domain: DOMAIN, serving })
    const again = await openTls()
    try {
      expect(serialOf(again)).toBe(serving)
    } finally {
      again.destroy()
    }
    // a Prometheus on the machine sees it too: the expiry of what is served, and the failing renewal
    const metrics = await (await fetch(`https://127.0.0.1:${pod.port}/.well-known/solopod/metrics`, { tls: { ca: root, serverName: DOMAIN } })).text()
    expect(metrics).toMatch(/^solopod_certificate_expiry_seconds\{source="acme"\} \d+$/m)
    expect(metrics).toMatch(/^solopod_certificate_renewal_failing 1$/m)
  }, 45_000)

  test('at start, with a certificate stored: the pod says so and serves the one it has', async () => {
    await pod.restart()
    expect(pod.stdout()).toMatch(/"event":"acme.directory_unreachable"/)
    const s = await openTls()
    try {
      expect(serialOf(s)).toBe(serving)
    } finally {
      s.destroy()
    }
  }, 40_000)

  test('at first start, with nothing stored: the pod refuses to start and says why', async () => {
    const port = await freePort()
    const empty = join(dir, 'empty-data')
    const { code, stderr } = await runSolopod(
      'serve',
      '--data',
      empty,
      '--port',
      String(port),
      '--domain',
      DOMAIN,
      '--acme-email',
      'owner@example.org',
      '--acme-directory',
      pebble.directoryUrl,
      '--acme-ca-file',
      pebble.caFile,
      '--http-port',
      String(await freePort()),
      '--host',
      '127.0.0.1',
    )
    expect(code).toBe(2)
    expect(stderr).toContain(`solopod: could not obtain a certificate for ${DOMAIN} from ${pebble.directoryUrl}`)
  }, 40_000)
})
