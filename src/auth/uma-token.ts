// Verification at our resource server of the access tokens (RPTs) our UMA authorization server issues (as/uma-access-token.ts signs them).

import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, type JWTPayload } from 'jose'
import { invalidToken } from '../http/errors.ts'
import { COMPACT_JWS, MAX_TOKEN_CHARS } from './compact-jwt.ts'
import { show } from '../lib/text.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { isObject } from './issuer-checks.ts'
import type { UmaPermission } from '../uma/permission.ts'
import type { ClientId, WebId } from '../account/ids.ts'

/**
 * RFC 8725 §3.11 explicit typing: our OP's access tokens (`at+jwt`) and ID tokens (`JWT`) are signed
 * with the same keys, so the type header keeps one kind from ever being taken for another.
 */
export const UMA_TOKEN_TYP = 'uma-rpt+jwt'

/**
 * Our private claim (RFC 7519 §4.3) for the issuer of the ID token the RPT was bought with: `iss` is our AS,
 * so the identity's issuer needs a name of its own. Acl:IssuerCondition rules (WAC 1.1 ED §4.4.2) judge it.
 */
export const WEBID_ISSUER_CLAIM = 'webid_iss'

const MODES = new Set(['read', 'write', 'append', 'control'])
const MAX_PERMISSIONS = 32
const CLOCK_TOLERANCE_S = 30

/** Cheap routing test for the authenticator: does this look like one of our RPTs? Nothing is verified here. */
export function isUmaAccessToken(token: string): boolean {
  if (token.length > MAX_TOKEN_CHARS || !COMPACT_JWS.test(token)) return false
  return umaHeaders.memo(token.slice(0, token.indexOf('.')), isUmaHeader)
}

/**
 * The answer per protected header: every DPoP or Bearer request asks, and one issuer's tokens share a
 * few headers (alg, kid, typ), so the header is decoded once, not per request. Bounded: odd headers only evict.
 */
const umaHeaders = forgetWhenIdle(new LruCache<string, boolean>(256))

function isUmaHeader(encodedHeader: string): boolean {
  try {
    return decodeProtectedHeader(`${encodedHeader}..`).typ === UMA_TOKEN_TYP
  } catch {
    return false // not a JWT at all: certainly not one of ours
  }
}

export interface UmaTokenFacts {
  readonly token: string
  /** Our issuer: the only one whose RPTs this resource server accepts. */
  readonly issuer: string
  /** Our signing keys' public half (the JWKS at jwks_uri). */
  readonly keys: JSONWebKeySet
  readonly now: number
}

export interface VerifiedUmaToken {
  readonly webid: WebId
  readonly clientId: ClientId
  /** The ID token's issuer; absent in a token issued before the pod named it (it then meets no issuer condition). */
  readonly webidIssuer?: string
  readonly jkt: string
  readonly permissions: readonly UmaPermission[]
  /** Present when the token was bought with our own ID token: its app session, revocable. */
  readonly sid?: string
  /** Seconds since the epoch: the verification may be cached until then. */
  readonly exp: number
}

/** Signature, issuer, audience, expiry and the permissions' shape; throws 401 `invalid_token`. */
export async function verifyUmaAccessToken(f: UmaTokenFacts): Promise<VerifiedUmaToken> {
  if (!isUmaAccessToken(f.token)) throw invalidToken(`the token is not a UMA access token of this pod (typ ${UMA_TOKEN_TYP})`)
  try {
    await compactVerify(f.token, createLocalJWKSet(f.keys), { algorithms: ['ES256'] })
  } catch (cause) {
    throw invalidToken("the UMA access token's signature does not verify with this pod's keys; get a new token from its authorization server", cause)
  }
  const claims: JWTPayload = decodeJwt(f.token)
  const { iss, sub, aud, azp, exp, cnf, permissions, sid } = claims
  if (iss !== f.issuer) throw invalidToken(`the UMA access token was issued by ${show(iss)}; this pod accepts only its own (${f.issuer})`)
  if (aud !== f.issuer) throw invalidToken(`the UMA access token is for audience ${show(aud)}, not ${f.issuer}`)
  if (typeof exp !== 'number' || f.now / 1000 - exp >= CLOCK_TOLERANCE_S)
    throw invalidToken('the UMA access token has expired; trade a new ticket for a new one')
  if (typeof sub !== 'string' || sub === '') throw invalidToken('the UMA access token has no sub')
  if (typeof azp !== 'string') throw invalidToken('the UMA access token has no azp')
  if (!isObject(cnf) || typeof cnf.jkt !== 'string') throw invalidToken('the UMA access token has no cnf.jkt')
  if (sid !== undefined && typeof sid !== 'string') throw invalidToken('the UMA access token has a malformed sid')
  const webidIssuer = claims[WEBID_ISSUER_CLAIM]
  if (webidIssuer !== undefined && (typeof webidIssuer !== 'string' || webidIssuer === ''))
    throw invalidToken(`the UMA access token has a malformed ${WEBID_ISSUER_CLAIM}`)
  return {
    webid: sub as WebId,
    clientId: azp as ClientId,
    jkt: cnf.jkt,
    permissions: readPermissions(permissions),
    exp,
    ...(sid !== undefined ? { sid } : {}),
    ...(webidIssuer !== undefined ? { webidIssuer } : {}),
  }
}

function readPermissions(value: unknown): UmaPermission[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PERMISSIONS) throw invalidToken('the UMA access token has no valid permissions claim')
  return value.map((p: unknown) => {
    if (
      !isObject(p) ||
      typeof p.resource_id !== 'string' ||
      !Array.isArray(p.resource_scopes) ||
      !p.resource_scopes.every(m => typeof m === 'string' && MODES.has(m))
    )
      throw invalidToken('the UMA access token has a malformed permission')
    return { resource: p.resource_id, modes: p.resource_scopes as string[] }
  })
}
