// Solid-OIDC DPoP-bound JWT access tokens at the resource server (Solid-OIDC §8, RFC 9449 §6): token + proof in, identity out.

import { invalidToken } from '../http/errors.ts'
import { decodeCompactJwt, MAX_TOKEN_CHARS } from './compact-jwt.ts'
import { ASYMMETRIC_JWS_ALGS, type VerifiedProof } from './dpop.ts'
import { checkIssuerSignature, checkWebIdIssuer, isObject, isSecureOrLocalhost, type GetIssuerKeys, type GetWebIdIssuers } from './issuer-checks.ts'
import type { ClientId, WebId } from '../account/ids.ts'
import { show } from '../lib/text.ts'

export type { IssuerKeys } from './issuer-checks.ts'

export const TOKEN_CLOCK_TOLERANCE_S = 60

export interface AccessTokenFacts {
  /** The value after `Authorization: DPoP `. Never echoed in an error. */
  readonly token: string
  /** The request's proof, already through `verifyDpopProof` (with `accessToken` set, for `ath`). */
  readonly proof: VerifiedProof
  /** Epoch milliseconds. */
  readonly now: number
  readonly getIssuerKeys: GetIssuerKeys
  readonly getWebIdIssuers: GetWebIdIssuers
  /** Seconds of clock skew for exp and iat (default 60; CSS uses 120). */
  readonly clockToleranceSeconds?: number
  /**
   * Our own issuer: its access tokens carry `typ: at+jwt` (RFC 9068 §2.1) and its ID tokens do not,
   * so the typ tells them apart. Other issuers' are not checked: Solid-OIDC names no typ.
   */
  readonly ownIssuer?: string
  /** Local policy: the subset of ASYMMETRIC_JWS_ALGS accepted (default all of them). */
  readonly algorithms?: readonly string[]
  /**
   * The verifying pod's own origin (its issuer): its own issuer and WebIDs pass rule (3) on any
   * scheme and host, e.g. a base URL on http://127.0.0.1 — its keys come from its own store.
   */
  readonly ownOrigin?: string
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

/**
 * Solid-OIDC §8, RFC 9449 §6 steps 2–7 in order. Step 1 (scheme DPoP, RFC 9449 §7.2) and step 6 (the proof)
 * are the caller's, before this. Throws HttpError 401 `invalid_token`.
 */
export async function verifySolidAccessToken(f: AccessTokenFacts): Promise<VerifiedAccessToken> {
  const tolerance = f.clockToleranceSeconds ?? TOKEN_CLOCK_TOLERANCE_S
  const algs = f.algorithms ? ASYMMETRIC_JWS_ALGS.filter(a => f.algorithms!.includes(a)) : ASYMMETRIC_JWS_ALGS

  // (1) JWT shape: RFC 7519 §7.2, compact JWS with JSON header and payload
  const { header, claims } = decodeCompactJwt(f.token, { what: 'the access token', maxChars: MAX_TOKEN_CHARS, shape: 'a JWT', fail: invalidToken })
  const { webid, iss, aud, iat, exp, nbf, cnf, client_id: clientId, azp } = claims
  // (2) required claims: webid, iss, aud, iat, exp, cnf.jkt (§1.7 (2); RFC 9449 §6.1 for cnf)
  if (typeof webid !== 'string' || webid === '') throw invalidToken('the access token has no webid claim')
  if (typeof iss !== 'string' || iss === '') throw invalidToken('the access token has no iss claim')
  if (!(typeof aud === 'string' || (Array.isArray(aud) && aud.every(a => typeof a === 'string'))))
    throw invalidToken('the access token has no aud claim (a string or an array of strings)')
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw invalidToken('the access token has no numeric iat claim')
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw invalidToken('the access token has no numeric exp claim')
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) throw invalidToken('nbf must be a number (seconds since the epoch)')
  if (!isObject(cnf) || typeof cnf.jkt !== 'string' || cnf.jkt === '') throw invalidToken('the access token has no cnf.jkt: it is not bound to a DPoP key')
  const jkt = cnf.jkt
  if (clientId !== undefined && typeof clientId !== 'string') throw invalidToken('client_id must be a string')
  if (azp !== undefined && typeof azp !== 'string') throw invalidToken('azp must be a string')
  // (3) https only; http solely for the host "localhost" (as CSS; not 127.0.0.1: token verifiers of widely used clients accept http only there). The rule guards
  // against other issuers; the pod's own issuer and WebIDs are its own, whatever its base URL.
  const own = (value: string) => f.ownOrigin !== undefined && URL.canParse(value) && new URL(value).origin === f.ownOrigin
  if (!isSecureOrLocalhost(webid) && !own(webid)) throw invalidToken(`webid ${show(webid)} must be an https URL (http only on localhost)`)
  if (!isSecureOrLocalhost(iss) && !own(iss)) throw invalidToken(`iss ${show(iss)} must be an https URL (http only on localhost)`)
  // RFC 9068 §4: our own access tokens are typed at+jwt (application/ prefix optional, RFC 7515 §4.1.9);
  // our ID tokens, bound to the same key, must not pass as one
  if (iss === f.ownIssuer && !(typeof header.typ === 'string' && /^(application\/)?at\+jwt$/i.test(header.typ))) {
    throw invalidToken(`the token's typ is ${show(header.typ)}; an access token of this pod has typ "at+jwt" (an ID token is not an access token)`)
  }
  // (5) signature against the issuer's JWKS, asymmetric algorithms only (RFC 8725 §3.1). Before (4): a token
  // that does not verify stops here, and no WebID profile is fetched or parsed for it
  await checkIssuerSignature(f.token, header, iss, { getIssuerKeys: f.getIssuerKeys, algorithms: algs, what: 'access token', fail: invalidToken })
  // (4) iss is one of the WebID's solid:oidcIssuer values, exact string equality (Solid-OIDC §4; OIDC Discovery §4.3)
  await checkWebIdIssuer(webid, iss, f.getWebIdIssuers, invalidToken)
  // (6) aud contains "solid" (Solid-OIDC §3)
  if (!(typeof aud === 'string' ? [aud] : aud).includes('solid')) throw invalidToken('aud must contain "solid"')
  // (7) exp in the future, iat not in the future (RFC 7519 §4.1.4, §4.1.6), within the clock tolerance
  const nowS = f.now / 1000
  if (nowS - exp >= tolerance) throw invalidToken(`the access token expired ${Math.floor(nowS - exp)} s ago; get a new one`)
  // RFC 7519 §4.1.5
  if (nbf !== undefined && nbf - nowS > tolerance)
    throw invalidToken(`the access token is not valid for another ${Math.ceil(nbf - nowS)} s (nbf); at most ${tolerance} s of clock skew is allowed`)
  if (iat - nowS > tolerance)
    throw invalidToken(`iat is ${Math.ceil(iat - nowS)} s in the future; at most ${tolerance} s of clock skew is allowed — check the issuer's clock`)
  // (8) RFC 9449 §6.1, §7.1: the proof key is the key the token was issued to
  if (f.proof.jkt !== jkt) throw invalidToken("the DPoP proof key does not match the token's cnf.jkt; sign proofs with the key the token was issued to")
  return { webid: webid as WebId, clientId: (clientId ?? azp) as ClientId | undefined, issuer: iss, jkt, exp }
}
