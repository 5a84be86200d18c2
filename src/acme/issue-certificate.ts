// One certificate order with the ACME client library (acme-client, RFC 8555): account, order, http-01
// challenge, finalization, and the chain. The directory is one the operator configured (--acme-directory),
// not a URL a request named, so it is reached directly, not through the guarded fetcher (docs/architecture.md).

import acme from 'acme-client'
import { Agent } from 'node:https'
import { rootCertificates } from 'node:tls'
import type { HttpChallenges } from './http-challenges.ts'

export interface OrderRequest {
  readonly directoryUrl: string
  readonly email: string
  readonly domain: string
  /** PEM of the account key (acme-records.ts); the same key finds the same account again (RFC 8555 §7.3.1). */
  readonly accountKeyPem: string
  /** Extra CA certificates (PEM) to trust for the directory's https, beside the system's. */
  readonly directoryCaPem?: string
  readonly challenges: HttpChallenges
}

export interface IssuedCertificate {
  readonly certPem: string
  readonly keyPem: string
}

export type IssueCertificate = (order: OrderRequest) => Promise<IssuedCertificate>

// acme-client sends every request through one axios instance of its own. Its default of five retries
// 5 s, 10 s … apart would hold a start for over a minute when the directory is down; the pod's own
// schedule retries (renewal-schedule.ts), so the library tries twice. No answer within 30 s is a failure.
const settings = (acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number; retryDefaultDelay: number } }).acmeSettings
settings.retryMaxAttempts = 2
settings.retryDefaultDelay = 2
acme.axios.defaults.timeout = 30_000

export const makeAccountKey = async (): Promise<string> => (await acme.crypto.createPrivateEcdsaKey()).toString()

export async function issueCertificate(order: OrderRequest): Promise<IssuedCertificate> {
  // The library's requests all go through that instance, so the trusted CAs are set there, for this order
  // (one pod per process: nothing else orders meanwhile).
  acme.axios.defaults.httpsAgent = order.directoryCaPem ? new Agent({ ca: [...rootCertificates, order.directoryCaPem] }) : undefined
  const client = new acme.Client({ directoryUrl: order.directoryUrl, accountKey: order.accountKeyPem })
  const [key, csr] = await acme.crypto.createCsr({ commonName: order.domain, altNames: [order.domain] }, await acme.crypto.createPrivateEcdsaKey())
  const certPem = await client.auto({
    csr,
    email: order.email,
    termsOfServiceAgreed: true,
    challengePriority: ['http-01'],
    // The library would first fetch the challenge itself through the domain's DNS; from behind NAT or a
    // firewall that check fails where the CA's succeeds, and the CA checks anyway (RFC 8555 §8.3).
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
      order.challenges.set(challenge.token, keyAuthorization)
    },
    challengeRemoveFn: async (_authz, challenge) => {
      order.challenges.delete(challenge.token)
    },
  })
  return { certPem, keyPem: key.toString() }
}
