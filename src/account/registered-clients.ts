// Clients known by registration (RFC 7591 dynamic, or static ones the owner adds): metadata and secrets.

import type { JSONWebKeySet } from 'jose'
import { HttpError } from '../http/errors.ts'
import type { Store } from '../store/open-store.ts'
import { deleteRecord, getRecord, putRecord, readRecords } from '../store/records.ts'
import { show } from '../lib/text.ts'
import { isSecretOf, newClientSecret, randomBase64url } from '../lib/client-secret.ts'
import { sha256Base64url } from '../lib/text.ts'

const KIND = 'client'
/** Unused dynamic registrations expire (anyone may register); each login extends it. */
export const DYNAMIC_CLIENT_TTL_MS = 90 * 24 * 3600 * 1000

export type ClientAuthMethod = 'none' | 'client_secret_basic'

export interface ClientMetadata {
  readonly redirectUris: readonly string[]
  readonly postLogoutRedirectUris: readonly string[]
  readonly authMethod: ClientAuthMethod
  readonly grantTypes: readonly string[]
  readonly responseTypes: readonly string[]
  /** Space-separated; undefined means "any scope we support". */
  readonly scope?: string
  readonly clientName?: string
  readonly clientUri?: string
  readonly logoUri?: string
  readonly policyUri?: string
  readonly tosUri?: string
  readonly contacts?: readonly string[]
  readonly applicationType: 'web' | 'native'
  /** Public keys for ES256 request objects (RFC 9101). */
  readonly jwks?: JSONWebKeySet
  readonly defaultMaxAge?: number
  readonly requireAuthTime?: boolean
}

export interface RegisteredClient extends ClientMetadata {
  readonly clientId: string
  readonly registration: 'dynamic' | 'static'
  /** SHA-256 of the secret (a 256-bit random value, so no slow hash is needed); confidential clients only. */
  readonly secretHash?: string
  /**
   * Secrets given before to the same metadata registering again and never yet used for a login (newest first, at
   * most EARLIER_SECRETS): anyone may register any metadata, so these are what a flood of registrations turns over.
   */
  readonly earlierSecretHashes?: readonly string[]
  /**
   * Secrets that obtained tokens (most recently used first, at most USED_SECRETS): each login of a browser app
   * registers anew, and the sessions of its earlier logins refresh with theirs. Registrations never push these
   * out, so a stranger re-registering an app's metadata cannot retire the secret the app is using.
   */
  readonly usedSecretHashes?: readonly string[]
  readonly createdAt: number
}

const metadataError = (description: string) => new HttpError(400, 'invalid_client_metadata', description)
const redirectError = (description: string) => new HttpError(400, 'invalid_redirect_uri', description)

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const PRIVATE_KEY_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth', 'priv']

/**
 * RFC 6749 §3.1.2 and RFC 8252 §7: absolute, no fragment; https, http only on loopback,
 * or a private-use scheme with a dot (reverse domain name) for native apps.
 */
export function checkRedirectUri(value: unknown, field: string): string {
  if (typeof value !== 'string' || !URL.canParse(value)) throw redirectError(`${field} must hold absolute URLs; got ${show(value)}`)
  const u = new URL(value)
  if (u.hash || value.includes('#')) throw redirectError(`${field}: ${show(value)} has a fragment; redirect URIs must not (RFC 6749 §3.1.2)`)
  if (u.protocol === 'https:') return value
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return value
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(u.protocol)) return value
  throw redirectError(`${field}: ${show(value)} must be https, http on a loopback host, or a private-use scheme such as com.example.app:`)
}

const stringArray = (v: unknown, field: string): string[] => {
  if (!Array.isArray(v) || !v.every(s => typeof s === 'string')) throw metadataError(`${field} must be an array of strings`)
  return v as string[]
}
const optString = (v: unknown, field: string): string | undefined => {
  if (v === undefined) return undefined
  if (typeof v !== 'string' || v.length > 2048) throw metadataError(`${field} must be a string of at most 2048 characters`)
  return v
}
const optUrl = (v: unknown, field: string): string | undefined => {
  const s = optString(v, field)
  if (s !== undefined && !(URL.canParse(s) && /^https?:$/.test(new URL(s).protocol))) throw metadataError(`${field} must be an http(s) URL`)
  return s
}

/**
 * RFC 7591 §2 client metadata → our record, with defaults (§2: `client_secret_basic`,
 * `authorization_code`, `code`). Throws 400 `invalid_client_metadata` / `invalid_redirect_uri`.
 * `requireWebidScope`: a dynamically registered client that declares a scope must include webid,
 * or it could never log in (Solid-OIDC §5 asks for the webid scope). A registration without
 * `scope` is accepted, as widely used Solid clients send none (RFC 7591 §2 makes it optional); the
 * authorization request is where webid is checked.
 */
export function parseClientMetadata(m: Record<string, unknown>, requireWebidScope: boolean): ClientMetadata {
  const redirectUris = stringArray(m.redirect_uris ?? [], 'redirect_uris').map(u => checkRedirectUri(u, 'redirect_uris'))
  if (redirectUris.length === 0) throw redirectError('redirect_uris is required: list at least one redirect URI')
  const postLogoutRedirectUris = stringArray(m.post_logout_redirect_uris ?? [], 'post_logout_redirect_uris').map(u =>
    checkRedirectUri(u, 'post_logout_redirect_uris'),
  )
  const authMethod = m.token_endpoint_auth_method ?? 'client_secret_basic'
  if (authMethod !== 'none' && authMethod !== 'client_secret_basic')
    throw metadataError(`token_endpoint_auth_method ${show(authMethod)} is not supported; use none or client_secret_basic`)
  const grantTypes = stringArray(m.grant_types ?? ['authorization_code'], 'grant_types')
  const badGrant = grantTypes.find(g => g !== 'authorization_code' && g !== 'refresh_token')
  if (badGrant !== undefined) throw metadataError(`grant_types: ${show(badGrant)} is not supported; use authorization_code and refresh_token`)
  const responseTypes = stringArray(m.response_types ?? ['code'], 'response_types')
  if (responseTypes.some(r => r !== 'code')) throw metadataError('response_types may only contain "code"')
  const scope = optString(m.scope, 'scope')
  if (requireWebidScope && scope !== undefined && !scope.split(' ').includes('webid'))
    throw metadataError('scope must include "webid" (Solid-OIDC): register with scope "openid webid offline_access", or without scope')
  const applicationType = m.application_type ?? 'web'
  if (applicationType !== 'web' && applicationType !== 'native') throw metadataError('application_type must be web or native')
  if (m.jwks_uri !== undefined) throw metadataError('jwks_uri is not supported; send the public keys inline as jwks')
  for (const field of ['id_token_signed_response_alg', 'request_object_signing_alg', 'token_endpoint_auth_signing_alg'] as const) {
    if (m[field] !== undefined && m[field] !== 'ES256') throw metadataError(`${field} must be ES256, the only algorithm this provider signs and accepts`)
  }
  if (m.subject_type !== undefined && m.subject_type !== 'public') throw metadataError('subject_type must be public')
  if (m.default_max_age !== undefined && !(Number.isInteger(m.default_max_age) && (m.default_max_age as number) >= 0))
    throw metadataError('default_max_age must be a non-negative integer')
  if (m.require_auth_time !== undefined && typeof m.require_auth_time !== 'boolean') throw metadataError('require_auth_time must be a boolean')
  return {
    redirectUris,
    postLogoutRedirectUris,
    authMethod,
    grantTypes,
    responseTypes,
    applicationType,
    ...(scope !== undefined ? { scope } : {}),
    ...definedOnly({
      clientName: optString(m.client_name, 'client_name'),
      clientUri: optUrl(m.client_uri, 'client_uri'),
      logoUri: optUrl(m.logo_uri, 'logo_uri'),
      policyUri: optUrl(m.policy_uri, 'policy_uri'),
      tosUri: optUrl(m.tos_uri, 'tos_uri'),
      contacts: m.contacts === undefined ? undefined : stringArray(m.contacts, 'contacts'),
      jwks: m.jwks === undefined ? undefined : parsePublicJwks(m.jwks),
      defaultMaxAge: m.default_max_age as number | undefined,
      requireAuthTime: m.require_auth_time as boolean | undefined,
    }),
  }
}

function parsePublicJwks(v: unknown): JSONWebKeySet {
  if (typeof v !== 'object' || v === null || !Array.isArray((v as { keys?: unknown }).keys)) throw metadataError('jwks must be a JWK Set: {"keys": [...]}')
  const keys = (v as { keys: unknown[] }).keys
  if (keys.length === 0 || keys.length > 10) throw metadataError('jwks must hold 1 to 10 keys')
  for (const k of keys) {
    if (typeof k !== 'object' || k === null) throw metadataError('every member of jwks.keys must be a JWK object')
    const leaked = PRIVATE_KEY_MEMBERS.filter(p => p in k)
    if (leaked.length > 0) throw metadataError(`jwks holds private key members (${leaked.join(', ')}); register public keys only`)
  }
  return { keys } as JSONWebKeySet
}

/** RFC 7591 §3.2.1 response members for a stored client. */
export function clientMetadataJson(c: RegisteredClient): Record<string, unknown> {
  return definedOnly({
    client_id: c.clientId,
    client_id_issued_at: Math.floor(c.createdAt / 1000),
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    token_endpoint_auth_method: c.authMethod,
    grant_types: c.grantTypes,
    response_types: c.responseTypes,
    application_type: c.applicationType,
    scope: c.scope,
    client_name: c.clientName,
    client_uri: c.clientUri,
    logo_uri: c.logoUri,
    policy_uri: c.policyUri,
    tos_uri: c.tosUri,
    contacts: c.contacts,
    jwks: c.jwks,
    default_max_age: c.defaultMaxAge,
    require_auth_time: c.requireAuthTime,
    id_token_signed_response_alg: 'ES256',
  })
}

/** Never-used secrets an app that registers again keeps valid besides the newest (a login under way with one). */
export const EARLIER_SECRETS = 4
/** Secrets that obtained tokens, kept valid while in use: one per browser or device the app is signed in on. */
export const USED_SECRETS = 16
/** `client-by-metadata` records: the client id a dynamic registration of exactly this metadata was given. */
const BY_METADATA = 'client-by-metadata'

/** One string for metadata, whatever order its lists and fields came in: the same app registering again gives the same. */
function metadataKey(m: ClientMetadata): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted).sort()
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v
  return sha256Base64url(JSON.stringify(sorted(m)))
}

/**
 * Stores a client; returns it and, for a confidential client, its secret (shown once, stored hashed). A dynamic
 * registration of exactly the metadata of a client registered before (an app logging in again: same redirect URIs,
 * name and the rest) is that client again — one entry in Apps and sessions, not one per login. A public client
 * gets its client id back (it holds no secret); a confidential one gets it with a new secret. The secrets that
 * obtained tokens stay valid (USED_SECRETS of them), and of the never-used ones the last EARLIER_SECRETS.
 */
export async function registerClient(
  store: Store,
  metadata: ClientMetadata,
  registration: 'dynamic' | 'static',
  now: number,
): Promise<{ client: RegisteredClient; secret?: string; again?: true }> {
  const made = metadata.authMethod === 'client_secret_basic' ? newClientSecret() : undefined
  const key = registration === 'dynamic' ? metadataKey(metadata) : undefined
  const knownId = key === undefined ? undefined : await getRecord<string>(store, BY_METADATA, key, now)
  const known = knownId === undefined ? undefined : await getRegisteredClient(store, knownId, now)
  if (known && key !== undefined && metadataKey(stripRecord(known)) === key) {
    const again: RegisteredClient = made
      ? {
          ...known,
          secretHash: made.secretHash,
          earlierSecretHashes: [known.secretHash, ...(known.earlierSecretHashes ?? [])]
            .filter((h): h is string => h !== undefined && !(known.usedSecretHashes ?? []).includes(h))
            .slice(0, EARLIER_SECRETS),
        }
      : known
    await putRecord(store, KIND, again.clientId, again, now + DYNAMIC_CLIENT_TTL_MS)
    await putRecord(store, BY_METADATA, key, again.clientId, now + DYNAMIC_CLIENT_TTL_MS)
    return { client: again, again: true, ...(made ? { secret: made.secret } : {}) }
  }
  const client: RegisteredClient = {
    ...metadata,
    clientId: randomBase64url(16),
    registration,
    createdAt: now,
    ...(made ? { secretHash: made.secretHash } : {}),
  }
  await putRecord(store, KIND, client.clientId, client, registration === 'dynamic' ? now + DYNAMIC_CLIENT_TTL_MS : undefined)
  if (key !== undefined) await putRecord(store, BY_METADATA, key, client.clientId, now + DYNAMIC_CLIENT_TTL_MS)
  return { client, ...(made ? { secret: made.secret } : {}) }
}

/** A stored client's metadata alone, as parseClientMetadata gave it. */
function stripRecord(c: RegisteredClient): ClientMetadata {
  const { clientId: _id, registration: _r, secretHash: _s, earlierSecretHashes: _e, usedSecretHashes: _u, createdAt: _c, ...metadata } = c
  return metadata
}

export const getRegisteredClient = (store: Store, clientId: string, now: number) => getRecord<RegisteredClient>(store, KIND, clientId, now)

/**
 * Keeps a dynamic client that is in use from expiring (and what finds it again when the app registers anew), and
 * marks the secret that obtained tokens as used, so later registrations of the same metadata do not retire it.
 */
export async function touchRegisteredClient(store: Store, client: RegisteredClient, now: number, secretHash?: string): Promise<void> {
  if (client.registration !== 'dynamic') return
  const fresh = (await getRegisteredClient(store, client.clientId, now)) ?? client
  const used = fresh.usedSecretHashes ?? []
  const marked: RegisteredClient =
    secretHash === undefined || used[0] === secretHash
      ? fresh
      : {
          ...fresh,
          usedSecretHashes: [secretHash, ...used.filter(h => h !== secretHash)].slice(0, USED_SECRETS),
          ...(fresh.earlierSecretHashes ? { earlierSecretHashes: fresh.earlierSecretHashes.filter(h => h !== secretHash) } : {}),
        }
  await putRecord(store, KIND, marked.clientId, marked, now + DYNAMIC_CLIENT_TTL_MS)
  await putRecord(store, BY_METADATA, metadataKey(stripRecord(marked)), marked.clientId, now + DYNAMIC_CLIENT_TTL_MS)
}

/**
 * Constant-time comparison of the secret's hash against every secret the client holds: the newest, the used
 * ones, and the never-used earlier ones. Answers the matching hash (to mark it used), or undefined.
 */
export function matchingClientSecret(client: RegisteredClient, secret: string): string | undefined {
  const all = [client.secretHash, ...(client.usedSecretHashes ?? []), ...(client.earlierSecretHashes ?? [])]
  return all.find((h): h is string => isSecretOf(h, secret))
}

export async function listRegisteredClients(store: Store, now: number): Promise<RegisteredClient[]> {
  return (await readRecords<RegisteredClient>(store, KIND, now)).map(r => r.value).sort((a, b) => a.createdAt - b.createdAt)
}

export async function deleteRegisteredClient(store: Store, clientId: string, now: number): Promise<boolean> {
  if (!(await getRegisteredClient(store, clientId, now))) return false
  await deleteRecord(store, KIND, clientId)
  return true
}

function definedOnly<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never
}
