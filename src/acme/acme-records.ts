// The pod's ACME account key and its certificate, kept as `system` records of the database: inside the data
// directory (whose files are 0600, data-dir.ts), written synced, and carried by export and import with the pod.

import type { Store } from '../store/open-store.ts'

/** PEM of the account's private key (RFC 8555 §6.2: every request is signed with it); made once, kept for good. */
export const ACME_ACCOUNT_KEY = 'acme-account-key'
/** The certificate the pod serves: its domain, the chain and the private key it was issued for. */
export const ACME_CERTIFICATE = 'acme-certificate'

export interface StoredCertificate {
  readonly domain: string
  /** The leaf first, then the intermediates, as the CA sent them (RFC 8555 §7.4.2). */
  readonly certPem: string
  readonly keyPem: string
}

export async function getAccountKey(store: Store): Promise<string | undefined> {
  const value = await store.system.get(ACME_ACCOUNT_KEY)
  return typeof value === 'string' ? value : undefined
}

export async function putAccountKey(store: Store, pem: string): Promise<void> {
  await store.system.put(ACME_ACCOUNT_KEY, pem, { sync: true })
}

export async function getStoredCertificate(store: Store): Promise<StoredCertificate | undefined> {
  const value = (await store.system.get(ACME_CERTIFICATE)) as StoredCertificate | undefined
  return value && typeof value.certPem === 'string' && typeof value.keyPem === 'string' ? value : undefined
}

/** Synced: a certificate the CA issued is not asked for again after a crash (the CA's rate limits count each one). */
export async function putStoredCertificate(store: Store, cert: StoredCertificate): Promise<void> {
  await store.system.put(ACME_CERTIFICATE, cert, { sync: true })
}
