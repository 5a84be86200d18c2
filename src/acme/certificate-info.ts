// What the pod needs to know of a certificate it serves: for whom, by whom, and from when to when.

import { X509Certificate } from 'node:crypto'

export interface CertificateInfo {
  /** Epoch milliseconds. */
  readonly notBefore: number
  readonly notAfter: number
  /** The issuer's common name (e.g. Let's Encrypt's "R11"). */
  readonly issuer: string
  /** The DNS names of subjectAltName (RFC 5280 §4.2.1.6). */
  readonly names: readonly string[]
  /** Hex serial number: tells one issuance from the next. */
  readonly serial: string
}

/** The leaf of a PEM chain (its first certificate). Throws on anything else than a PEM certificate. */
export function readCertificateInfo(chainPem: string): CertificateInfo {
  const cert = new X509Certificate(chainPem)
  const names = (cert.subjectAltName ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(s => s.startsWith('DNS:'))
    .map(s => s.slice(4))
  return {
    notBefore: Date.parse(cert.validFrom),
    notAfter: Date.parse(cert.validTo),
    issuer: /(?:^|\n)CN=([^\n]*)/.exec(cert.issuer)?.[1] ?? cert.issuer,
    names,
    serial: cert.serialNumber,
  }
}
