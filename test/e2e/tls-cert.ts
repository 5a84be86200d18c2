// A self-signed certificate for localhost made with openssl, usable as its own CA (tests only).

import { join } from 'node:path'

export interface TestCertificate {
  readonly cert: string
  readonly key: string
}

/** Writes cert.pem and key.pem (P-256, 1 day, SAN localhost and 127.0.0.1, CA:TRUE) into `dir`. */
export function makeLocalhostCertificate(dir: string): TestCertificate {
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
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr}`)
  return { cert, key }
}
