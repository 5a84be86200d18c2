// When the pod asks its CA again: pure functions of the certificate's validity and the clock.

import type { CertificateInfo } from './certificate-info.ts'

const SECOND = 1000
const HOUR = 60 * 60 * SECOND
const DAY = 24 * HOUR

/**
 * Renewal is due once a third of the lifetime is left: 30 days of Let's Encrypt's 90, which is what it
 * recommends; the same share of a short-lived certificate (a test CA's) keeps the rule one rule.
 */
export function renewalDueAt(info: Pick<CertificateInfo, 'notBefore' | 'notAfter'>): number {
  return info.notAfter - (info.notAfter - info.notBefore) / 3
}

/**
 * After a failed attempt: again in a tenth of the time left, at least a second and at most an hour apart.
 * An hour stays well inside Let's Encrypt's limit of failed validations (5 an hour per account and name),
 * and a tenth of what is left still leaves several attempts before the certificate expires.
 */
export function retryAt(info: Pick<CertificateInfo, 'notAfter'> | undefined, now: number): number {
  const left = info ? info.notAfter - now : HOUR
  return now + Math.min(HOUR, Math.max(SECOND, left / 10))
}

/** The dashboard warns this long before expiry, and at once after a failed renewal. */
export const WARN_BEFORE_EXPIRY_MS = 14 * DAY

/** setTimeout holds at most 2^31-1 ms (~24.8 days): a longer wait is taken a day at a time. */
export const MAX_TIMER_MS = DAY
