// Where a token issuer's keys come from: our own from the store, others by OP discovery + jwks_uri.

import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose'
import { REMOTE_DOCUMENT_CAPS, type FetchDoc } from '../fetch/guarded-fetch.ts'
import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import type { IssuerKeys } from './issuer-checks.ts'

export interface IssuerKeyOptions {
  readonly baseUrl: string
  /** Our own issuer's public keys, read without the network. */
  readonly ownJwks: (now: number) => Promise<JSONWebKeySet>
  readonly fetchDoc: FetchDoc
  readonly now: () => number
  /** How long a remote JWKS is used before it is fetched again (default 10 min). */
  readonly ttlMs?: number
  /** A kid we do not know triggers a refetch, at most this often per issuer (default 60 s). */
  readonly refetchAfterMs?: number
}

const JSON_TYPES = ['application/json', 'application/jwk-set+json']
const keysError = (description: string, cause?: unknown) => new HttpError(502, 'issuer_keys_unavailable', description, { cause })

/** OIDC Discovery §4: strip one trailing slash, append the well-known path. */
export const discoveryUrlOf = (issuer: string) => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`

function parseJsonObject(body: string, what: string): Record<string, unknown> {
  let v: unknown
  try {
    v = JSON.parse(body)
  } catch (cause) {
    throw keysError(`${what} is not JSON`, cause)
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw keysError(`${what} is not a JSON object`)
  return v as Record<string, unknown>
}

/**
 * `getIssuerKeys` for verifySolidAccessToken. Our own issuer never touches the network; remote
 * JWKS are cached (bounded) and refetched early when a token names a kid we have not seen, which
 * is how an issuer's key rotation reaches us.
 */
export function makeIssuerKeyResolver(o: IssuerKeyOptions): (iss: string) => Promise<IssuerKeys> {
  const ttlMs = o.ttlMs ?? 10 * 60 * 1000
  const refetchAfterMs = o.refetchAfterMs ?? 60 * 1000
  const cache = new LruCache<string, { jwks: JSONWebKeySet; fetchedAt: number }>(100)

  async function fetchJwks(iss: string): Promise<JSONWebKeySet> {
    const discovery = await o.fetchDoc(discoveryUrlOf(iss), {
      accept: 'application/json',
      allowedTypes: ['application/json'],
      maxBytes: REMOTE_DOCUMENT_CAPS.issuerJson,
    })
    const meta = parseJsonObject(discovery.body, `the OpenID configuration of ${iss}`)
    // OIDC Discovery §4.3: the issuer in the document is byte-identical to the one used
    if (meta.issuer !== iss) throw keysError(`the OpenID configuration of ${iss} names issuer ${JSON.stringify(meta.issuer)}; it must be identical`)
    if (typeof meta.jwks_uri !== 'string') throw keysError(`the OpenID configuration of ${iss} has no jwks_uri`)
    const doc = await o.fetchDoc(meta.jwks_uri, { accept: JSON_TYPES.join(', '), allowedTypes: JSON_TYPES, maxBytes: REMOTE_DOCUMENT_CAPS.issuerJson })
    const jwks = parseJsonObject(doc.body, `the JWKS of ${iss}`)
    if (!Array.isArray(jwks.keys)) throw keysError(`the JWKS of ${iss} has no keys array`)
    return jwks as unknown as JSONWebKeySet
  }

  async function load(iss: string, fresh: boolean): Promise<{ jwks: JSONWebKeySet; fetchedAt: number }> {
    const now = o.now()
    const hit = fresh ? undefined : cache.get(iss, now)
    if (hit) return hit
    const entry = { jwks: await fetchJwks(iss), fetchedAt: now }
    cache.set(iss, entry, now + ttlMs)
    return entry
  }

  return async iss => {
    if (iss === o.baseUrl) return o.ownJwks(o.now())
    let entry = await load(iss, false)
    const getKey: JWTVerifyGetKey = async (header, token) => {
      try {
        return await createLocalJWKSet(entry.jwks)(header, token)
      } catch (err) {
        if (!(err instanceof errors.JWKSNoMatchingKey) || o.now() - entry.fetchedAt < refetchAfterMs) throw err
        entry = await load(iss, true)
        return createLocalJWKSet(entry.jwks)(header, token)
      }
    }
    return getKey
  }
}
