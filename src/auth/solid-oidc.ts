// Solid-OIDC DPoP-bound JWT access tokens at the resource server (Solid-OIDC §8, RFC 9449 §6): token + proof in, identity out.

import {
  compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors,
  type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey, type ProtectedHeaderParameters,
} from 'jose'
import { HttpError } from '../http/errors.ts'
import { ASYMMETRIC_JWS_ALGS, type VerifiedProof } from './dpop.ts'
import type { ClientId, WebId } from './principal.ts'
import { show } from '../lib/text.ts'

/** A JWKS document, or a resolver over one (e.g. jose's `createLocalJWKSet`). */
export type IssuerKeys = JSONWebKeySet | JWTVerifyGetKey

export const TOKEN_CLOCK_TOLERANCE_S = 60

// Bound before parsing: our tokens are ~1 KB; a header-sized input is never legitimate.
const MAX_TOKEN_CHARS = 16384
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

export interface AccessTokenFacts {
  /** The value after `Authorization: DPoP `. Never echoed in an error. */
  readonly token: string
  /** The request's proof, already through `verifyDpopProof` (with `accessToken` set, for `ath`). */
  readonly proof: VerifiedProof
  /** Epoch milliseconds. */
  readonly now: number
  /** The issuer's JWKS (OP discovery → jwks_uri); throws an HttpError when it cannot be read. */
  getIssuerKeys(iss: string): Promise<IssuerKeys>
  /** The WebID profile's `solid:oidcIssuer` objects (Solid-OIDC §4). */
  getWebIdIssuers(webid: WebId): Promise<readonly string[]>
  /** Seconds of clock skew for exp and iat (default 60; CSS uses 120). */
  readonly clockToleranceSeconds?: number
  /** Local policy: the subset of ASYMMETRIC_JWS_ALGS accepted (default all of them). */
  readonly algorithms?: readonly string[]
}

export interface VerifiedAccessToken {
  readonly webid: WebId
  /** `client_id`, else `azp` (Solid-OIDC §8, RFC 9449 §6 (9)). */
  readonly clientId: ClientId | undefined
  readonly issuer: string
  readonly jkt: string
  /** Seconds since the epoch: callers may cache the result until then. */
  readonly exp: number
}

const tokenError = (description: string, cause?: unknown) => new HttpError(401, 'invalid_token', description, { cause })

/**
 * Solid-OIDC §8, RFC 9449 §6 steps 2–7 in order. Step 1 (scheme DPoP, RFC 9449 §7.2) and step 6 (the proof)
 * are the caller's, before this. Throws HttpError 401 `invalid_token`.
 */
export async function verifySolidAccessToken(f: AccessTokenFacts): Promise<VerifiedAccessToken> {
  const tolerance = f.clockToleranceSeconds ?? TOKEN_CLOCK_TOLERANCE_S
  const algs = f.algorithms ? ASYMMETRIC_JWS_ALGS.filter((a) => f.algorithms!.includes(a)) : ASYMMETRIC_JWS_ALGS

  // (1) JWT shape: RFC 7519 §7.2, compact JWS with JSON header and payload
  if (f.token.length > MAX_TOKEN_CHARS) throw tokenError(`the access token is ${f.token.length} characters; at most ${MAX_TOKEN_CHARS} are accepted`)
  if (!COMPACT_JWS.test(f.token)) throw tokenError('the access token is not a JWT: expected three base64url parts separated by dots')
  let header: ProtectedHeaderParameters
  let claims: JWTPayload
  try {
    header = decodeProtectedHeader(f.token)
    claims = decodeJwt(f.token)
  } catch (cause) {
    throw tokenError('the access token is not a well-formed JWT: header and payload must be base64url JSON objects', cause)
  }
  const { webid, iss, aud, iat, exp, cnf, client_id: clientId, azp } = claims
  // (2) required claims: webid, iss, aud, iat, exp, cnf.jkt (§1.7 (2); RFC 9449 §6.1 for cnf)
  if (typeof webid !== 'string' || webid === '') throw tokenError('the access token has no webid claim')
  if (typeof iss !== 'string' || iss === '') throw tokenError('the access token has no iss claim')
  if (!(typeof aud === 'string' || (Array.isArray(aud) && aud.every((a) => typeof a === 'string')))) throw tokenError('the access token has no aud claim (a string or an array of strings)')
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw tokenError('the access token has no numeric iat claim')
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw tokenError('the access token has no numeric exp claim')
  if (!isObject(cnf) || typeof cnf.jkt !== 'string' || cnf.jkt === '') throw tokenError('the access token has no cnf.jkt: it is not bound to a DPoP key')
  const jkt = cnf.jkt
  if (clientId !== undefined && typeof clientId !== 'string') throw tokenError('client_id must be a string')
  if (azp !== undefined && typeof azp !== 'string') throw tokenError('azp must be a string')
  // (3) https only; http solely for the host "localhost" (as CSS; not 127.0.0.1: token verifiers of widely used clients accept http only there)
  if (!isSecureOrLocalhost(webid)) throw tokenError(`webid ${show(webid)} must be an https URL (http only on localhost)`)
  if (!isSecureOrLocalhost(iss)) throw tokenError(`iss ${show(iss)} must be an https URL (http only on localhost)`)
  // (4) iss is one of the WebID's solid:oidcIssuer values, exact string equality (Solid-OIDC §4; OIDC Discovery §4.3)
  const issuers = await f.getWebIdIssuers(webid as WebId).catch((cause: unknown) => { throw tokenError(`the WebID profile ${show(webid)} could not be read${reason(cause)}`, cause) })
  if (!issuers.includes(iss)) throw tokenError(`iss ${show(iss)} is not a solid:oidcIssuer of ${show(webid)}; the profile lists ${issuers.length > 0 ? issuers.slice(0, 5).map(show).join(', ') : 'none'}`)
  // (5) signature against the issuer's JWKS, asymmetric algorithms only (RFC 8725 §3.1)
  const alg = header.alg
  if (typeof alg !== 'string' || !algs.includes(alg)) throw tokenError(`alg ${show(alg)} is not accepted; tokens must be signed with one of ${algs.join(', ')}`)
  const keys = await f.getIssuerKeys(iss).catch((cause: unknown) => { throw tokenError(`the keys of issuer ${show(iss)} could not be read${reason(cause)}`, cause) })
  try {
    await compactVerify(f.token, typeof keys === 'function' ? keys : createLocalJWKSet(keys), { algorithms: [alg] })
  } catch (cause) {
    if (cause instanceof errors.JWKSNoMatchingKey) throw tokenError(`no key of issuer ${show(iss)} matches kid ${show(header.kid)} and alg ${alg}`, cause)
    throw tokenError(`the access token signature does not verify with the keys of issuer ${show(iss)}`, cause)
  }
  // (6) aud contains "solid" (Solid-OIDC §3)
  if (!(typeof aud === 'string' ? [aud] : aud).includes('solid')) throw tokenError('aud must contain "solid"')
  // (7) exp in the future, iat not in the future (RFC 7519 §4.1.4, §4.1.6), within the clock tolerance
  const nowS = f.now / 1000
  if (nowS - exp >= tolerance) throw tokenError(`the access token expired ${Math.floor(nowS - exp)} s ago; get a new one`)
  if (iat - nowS > tolerance) throw tokenError(`iat is ${Math.ceil(iat - nowS)} s in the future; at most ${tolerance} s of clock skew is allowed — check the issuer's clock`)
  // (8) RFC 9449 §6.1, §7.1: the proof key is the key the token was issued to
  if (f.proof.jkt !== jkt) throw tokenError('the DPoP proof key does not match the token\'s cnf.jkt; sign proofs with the key the token was issued to')
  return { webid: webid as WebId, clientId: (clientId ?? azp) as ClientId | undefined, issuer: iss, jkt, exp }
}

/** Solid-OIDC §8, RFC 9449 §6 (3): https, or http when the host is exactly `localhost`. */
function isSecureOrLocalhost(value: string): boolean {
  if (!URL.canParse(value)) return false
  const u = new URL(value)
  return u.protocol === 'https:' || (u.protocol === 'http:' && u.hostname === 'localhost')
}

// A resolver's HttpError already says what went wrong (docs/architecture.md, the guarded fetcher); anything else stays in `cause`.
const reason = (cause: unknown) => (cause instanceof HttpError ? `: ${cause.description}` : '')

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// Attacker-supplied values go into descriptions quoted and cut short.
