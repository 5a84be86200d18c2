// Client credentials the owner makes for scripts and bots (RFC 6749 §4.4): an id, a name, the secret's hash,
// and the folders it is limited to (kept in app-scopes under its id, as for any app). Its tokens act as the owner.

import type { Store } from '../store/open-store.ts'
import { getRecord, readRecords, putRecord, updateRecord } from '../store/records.ts'
import { badRequest } from '../http/errors.ts'
import { isSecretOf, newClientSecret, randomBase64url } from '../lib/client-secret.ts'
import type { AppScopes, FolderScope } from './app-scopes.ts'
import type { SessionRevocations } from './app-sessions.ts'

const KIND = 'client-credential'
/** Recognisable in logs and on the dashboard's Scripts and bots page, and never the id of a registered client (22 characters, no prefix). */
export const CLIENT_CREDENTIAL_PREFIX = 'script-'
export const MAX_CREDENTIAL_NAME = 100

export interface ClientCredential {
  readonly clientId: string
  readonly name: string
  /** SHA-256 of the secret; the secret itself is shown once, when made. */
  readonly secretHash: string
  readonly createdAt: number
  /** When a token was last issued with it: a script uses its credential only to get tokens. */
  readonly lastUsedAt?: number
}

/** A credential as the owner sees it: never its hash. `folders` undefined: full access as the owner. */
export interface CredentialSummary {
  readonly clientId: string
  readonly name: string
  readonly createdAt: number
  readonly lastUsedAt?: number
  readonly folders?: readonly FolderScope[]
}

/** What adding, listing and removing credentials touch: the records, the folder limits, the app sessions. */
export interface CredentialKeeper {
  readonly store: Store
  readonly appScopes: Pick<AppScopes, 'set' | 'foldersOf'>
  readonly revocations: Pick<SessionRevocations, 'revokeClient'>
}

export const isClientCredentialId = (id: string) => id.startsWith(CLIENT_CREDENTIAL_PREFIX)

export const getClientCredential = (store: Store, clientId: string, now: number) =>
  isClientCredentialId(clientId) ? getRecord<ClientCredential>(store, KIND, clientId, now) : Promise.resolve(undefined)

export const isCredentialSecretValid = (c: ClientCredential, secret: string) => isSecretOf(c.secretHash, secret)

/** A name the owner will recognise on the dashboard's Scripts and bots page and in the apps' session list; no control characters. */
export function checkCredentialName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : ''
  if (trimmed === '' || trimmed.length > MAX_CREDENTIAL_NAME || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest(`the credential needs a name of 1 to ${MAX_CREDENTIAL_NAME} characters, without line breaks (what the script is for, e.g. "Photo backup")`)
  }
  return trimmed
}

/**
 * Makes a credential limited to `folders` (undefined: full access as the owner). The scope is set before
 * the record exists, so no token of it is ever issued without its limit.
 */
export async function addClientCredential(
  k: CredentialKeeper,
  name: string,
  folders: readonly FolderScope[] | undefined,
  now: number,
): Promise<{ credential: CredentialSummary; secret: string }> {
  // The name first: a refused one leaves no folder made and no scope behind
  const record: Omit<ClientCredential, 'secretHash'> = {
    clientId: CLIENT_CREDENTIAL_PREFIX + randomBase64url(16),
    name: checkCredentialName(name),
    createdAt: now,
  }
  const { secret, secretHash } = newClientSecret()
  const clientId = record.clientId
  if (folders !== undefined) await k.appScopes.set(clientId, folders, now)
  await putRecord<ClientCredential>(k.store, KIND, clientId, { ...record, secretHash })
  return { credential: summaryOf({ ...record, secretHash }, folders), secret }
}

const summaryOf = (c: ClientCredential, folders: readonly FolderScope[] | undefined): CredentialSummary => ({
  clientId: c.clientId,
  name: c.name,
  createdAt: c.createdAt,
  ...(c.lastUsedAt !== undefined ? { lastUsedAt: c.lastUsedAt } : {}),
  ...(folders !== undefined ? { folders } : {}),
})

export async function listClientCredentials(k: CredentialKeeper, now: number): Promise<CredentialSummary[]> {
  const records = (await readRecords<ClientCredential>(k.store, KIND, now)).map(r => r.value).sort((a, b) => a.createdAt - b.createdAt)
  return Promise.all(records.map(async c => summaryOf(c, await k.appScopes.foldersOf(c.clientId))))
}

/**
 * Notes a token issued with the credential. False when it was removed meanwhile: the caller then revokes
 * what it just made (the removal may have looked for sessions before this one was saved).
 */
export function touchClientCredential(store: Store, clientId: string, now: number): Promise<boolean> {
  return updateRecord<ClientCredential, boolean>(store, KIND, clientId, now, c =>
    c === undefined ? { result: false } : { next: { ...c, lastUsedAt: now }, result: true },
  )
}

/**
 * Removes a credential: no token is issued with it from now on, and every token issued with it is refused on
 * its next request (its app sessions are revoked). The folder limit goes last, so no live token is ever
 * without it. False when there is no such credential.
 */
export async function removeClientCredential(k: CredentialKeeper, clientId: string, now: number): Promise<boolean> {
  if (!isClientCredentialId(clientId)) return false
  const existed = await updateRecord<ClientCredential, boolean>(k.store, KIND, clientId, now, c =>
    c === undefined ? { result: false } : { next: null, result: true },
  )
  if (!existed) return false
  await k.revocations.revokeClient(clientId, now)
  await k.appScopes.set(clientId, undefined, now)
  return true
}
