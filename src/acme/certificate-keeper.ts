// Keeps the pod's certificate: the one in the database at start (or a new one when there is none, or it is
// due), then a renewal ahead of expiry, and after a failure another attempt, while the old certificate is
// served on. Each new certificate is handed to `onRenewed`, which puts it on the listener without a restart.

import { readFileSync } from 'node:fs'
import type { AcmeConfig } from '../config.ts'
import type { Store } from '../store/open-store.ts'
import { UserError } from '../lib/user-error.ts'
import { describeCause, log } from '../log.ts'
import { getAccountKey, getStoredCertificate, putAccountKey, putStoredCertificate, type StoredCertificate } from './acme-records.ts'
import { readCertificateInfo, type CertificateInfo } from './certificate-info.ts'
import type { CertificateState } from './certificate-status.ts'
import type { HttpChallenges } from './http-challenges.ts'
import type { IssueCertificate } from './issue-certificate.ts'
import { MAX_TIMER_MS, renewalDueAt, retryAt } from './renewal-schedule.ts'

export class CertificateUnavailableError extends UserError {}

// The ACME client (acme-client with axios, node-forge, @peculiar/x509) costs ~200 ms to load: loaded when
// an order is placed, not on every start (a pod with a stored certificate that is not due never loads it).
const loadClient = () => import('./issue-certificate.ts')

export interface KeeperDeps {
  readonly acme: AcmeConfig
  readonly store: Store
  readonly now: () => number
  readonly challenges: HttpChallenges
  readonly state: CertificateState
}

export interface CertificateKeeper {
  /**
   * The certificate to serve at start: the stored one, renewed first when due. When the CA cannot be
   * reached, the stored one anyway (logged at warn); with none stored, a CertificateUnavailableError.
   */
  obtain(): Promise<StoredCertificate>
  /** Renews ahead of expiry from now on, handing each new certificate to `onRenewed`. */
  start(onRenewed: (cert: StoredCertificate) => void): void
  /** No further attempt; resolves once an order under way has ended (it still writes to the store). */
  stop(): Promise<void>
}

export function makeCertificateKeeper(d: KeeperDeps): CertificateKeeper {
  const { acme } = d
  const issue: IssueCertificate = async o => (await loadClient()).issueCertificate(o)
  const directoryCaPem = acme.directoryCaFile ? readFileSync(acme.directoryCaFile, 'utf8') : undefined
  let serving: { cert: StoredCertificate; info: CertificateInfo; obtainedAt?: number } | undefined
  let lastFailure: { at: number; reason: string } | undefined
  let nextAttemptAt: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false

  const publish = () => {
    if (!serving) return
    d.state.set({
      source: 'acme',
      info: serving.info,
      ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
      ...(lastFailure ? { lastFailure } : {}),
      ...(serving.obtainedAt !== undefined ? { obtainedAt: serving.obtainedAt } : {}),
    })
  }

  async function order(): Promise<StoredCertificate> {
    let accountKeyPem = await getAccountKey(d.store)
    if (accountKeyPem === undefined) {
      accountKeyPem = await (await loadClient()).makeAccountKey()
      await putAccountKey(d.store, accountKeyPem)
    }
    const started = performance.now()
    const issued = await issue({
      directoryUrl: acme.directoryUrl,
      email: acme.email,
      domain: acme.domain,
      accountKeyPem,
      challenges: d.challenges,
      ...(directoryCaPem ? { directoryCaPem } : {}),
    })
    const cert = { domain: acme.domain, ...issued }
    const info = readCertificateInfo(cert.certPem)
    await putStoredCertificate(d.store, cert)
    serving = { cert, info, obtainedAt: d.now() }
    lastFailure = undefined
    log.info('acme.certificate_issued', {
      domain: acme.domain,
      serial: info.serial,
      notAfter: new Date(info.notAfter).toISOString(),
      ms: Math.round(performance.now() - started),
    })
    return cert
  }

  /** The reason of a failed order, for the log and the owner's dashboard: never a key (none is in these messages). */
  const failed = (err: unknown) => {
    lastFailure = { at: d.now(), reason: describeCause(err) }
    return lastFailure.reason
  }

  async function obtain(): Promise<StoredCertificate> {
    const stored = await getStoredCertificate(d.store)
    if (stored && stored.domain === acme.domain) serving = { cert: stored, info: readCertificateInfo(stored.certPem) }
    if (serving && d.now() < renewalDueAt(serving.info)) {
      publish()
      return serving.cert
    }
    try {
      return await order()
    } catch (err) {
      const reason = failed(err)
      if (!serving) {
        throw new CertificateUnavailableError(
          `could not obtain a certificate for ${acme.domain} from ${acme.directoryUrl}, and the data directory holds none to serve meanwhile: ${reason}`,
          { cause: err },
        )
      }
      const expired = serving.info.notAfter <= d.now()
      log[expired ? 'error' : 'warn']('acme.directory_unreachable', {
        domain: acme.domain,
        reason,
        serving: serving.info.serial,
        notAfter: new Date(serving.info.notAfter).toISOString(),
      })
      return serving.cert
    } finally {
      publish()
    }
  }

  function schedule(onRenewed: (cert: StoredCertificate) => void) {
    if (stopped || !serving) return
    const at = lastFailure ? retryAt(serving.info, d.now()) : renewalDueAt(serving.info)
    nextAttemptAt = Math.max(at, d.now())
    publish()
    timer = setTimeout(
      () => {
        // A long wait is taken a day at a time (setTimeout's limit); the time is checked again on waking.
        if (d.now() < nextAttemptAt!) {
          schedule(onRenewed)
          return
        }
        running = renew(onRenewed).finally(() => {
          running = undefined
        })
      },
      Math.min(MAX_TIMER_MS, Math.max(0, nextAttemptAt - d.now())),
    )
  }

  async function renew(onRenewed: (cert: StoredCertificate) => void) {
    try {
      const cert = await order()
      if (!stopped) onRenewed(cert)
    } catch (err) {
      const reason = failed(err)
      log.warn('acme.renewal_failed', { domain: acme.domain, reason, serving: serving!.info.serial, notAfter: new Date(serving!.info.notAfter).toISOString() })
    }
    schedule(onRenewed)
  }

  return {
    obtain,
    start: onRenewed => schedule(onRenewed),
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
