// The owner's remembered consents: which client may receive which scopes, until revoked.

import type { Store } from '../store/open-store.ts'
import { deleteRecord, getRecord, putRecord, readRecords } from '../store/records.ts'

const KIND = 'consent'

export interface Consent {
  readonly clientId: string
  readonly clientName?: string
  /** http(s) only: the client's logo_uri (Client ID Document or registration) when the owner allowed it. */
  readonly logoUri?: string
  readonly scopes: readonly string[]
  readonly grantedAt: number
}

export const getConsent = (store: Store, clientId: string, now: number) => getRecord<Consent>(store, KIND, clientId, now)

/** Remembered without expiry: the owner revokes it in the session list. Widens an earlier consent. */
export async function saveConsent(store: Store, consent: Consent): Promise<void> {
  const before = await getConsent(store, consent.clientId, consent.grantedAt)
  const scopes = [...new Set([...(before?.scopes ?? []), ...consent.scopes])]
  await putRecord(store, KIND, consent.clientId, { ...consent, scopes })
}

export const coversScopes = (consent: Consent | undefined, scopes: readonly string[]) => consent !== undefined && scopes.every(s => consent.scopes.includes(s))

export async function listConsents(store: Store, now: number): Promise<Consent[]> {
  return (await readRecords<Consent>(store, KIND, now)).map(r => r.value).sort((a, b) => a.grantedAt - b.grantedAt)
}

export async function revokeConsent(store: Store, clientId: string, now: number): Promise<boolean> {
  if (!(await getConsent(store, clientId, now))) return false
  await deleteRecord(store, KIND, clientId)
  return true
}
