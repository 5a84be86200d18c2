// The certificate the pod serves now and how its renewal goes: the dashboard and the metrics read it,
// whoever serves https (the ACME keeper, or --tls-cert's files) writes it.

import type { CertificateInfo } from './certificate-info.ts'
import { WARN_BEFORE_EXPIRY_MS } from './renewal-schedule.ts'

export interface CertificateStatus {
  /** `acme`: obtained and renewed by the pod (--domain); `files`: given with --tls-cert, renewed by someone else. */
  readonly source: 'acme' | 'files'
  readonly info: CertificateInfo
  /** ACME only: when the pod will ask its CA next (epoch ms). */
  readonly nextAttemptAt?: number
  /** ACME only: the last attempt that failed since the last success, with the reason the CA or the network gave. */
  readonly lastFailure?: { readonly at: number; readonly reason: string }
  /** ACME only: when the certificate served now was issued to the pod (epoch ms). */
  readonly obtainedAt?: number
}

export interface CertificateState {
  current(): CertificateStatus | undefined
  set(status: CertificateStatus): void
}

export function makeCertificateState(): CertificateState {
  let status: CertificateStatus | undefined
  return {
    current: () => status,
    set: s => {
      status = s
    },
  }
}

/** What the owner sees: `ok`, `warning` (renewal failed, or expiry within 14 days), or `expired`. */
export function certificateHealth(status: CertificateStatus, now: number): 'ok' | 'warning' | 'expired' {
  if (status.info.notAfter <= now) return 'expired'
  if (status.lastFailure || status.info.notAfter - now <= WARN_BEFORE_EXPIRY_MS) return 'warning'
  return 'ok'
}
