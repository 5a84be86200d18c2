// The Solid-OIDC DPoP-bound ID token as a UMA claim token: the AS's checks, in the order of the
// Solid-OIDC Primer's request flow (steps 5, 7b–12). The DPoP proof itself (steps 6–7a) is dpop.ts's.

import { type JWTPayload, type ProtectedHeaderParameters } from 'jose'
import { HttpError } from '../http/errors.ts'
import { decodeCompactJwt, MAX_TOKEN_CHARS } from './compact-jwt.ts'
import { show } from '../lib/text.ts'
import { ASYMMETRIC_JWS_ALGS, type VerifiedProof } from './dpop.ts'
import { checkIssuerSignature, checkWebIdIssuer, isObject, isSecureOrLocalhost, type GetIssuerKeys, type GetWebIdIssuers } from './issuer-checks.ts'
import type { ClientId, WebId } from '../account/ids.ts'

/** UMA Grant §3.3.1 `claim_token_format` for an OpenID Connect ID token (Solid-OIDC §6, "Obtaining an Access Token"). */
export const ID_TOKEN_FORMAT = 'http://openid.net/specs/openid-connect-core-1_0.html#IDToken'

const CLOCK_TOLERANCE_S = 60
/** Typ values of access tokens: RFC 9068 (`at+jwt`, media-type prefix optional per RFC 7515 §4.1.9) and our UMA tokens. */
const ACCESS_TOKEN_TYP = /^(application\/)?(at\+jwt|uma-rpt\+jwt)$/i

/** UMA Grant §3.3.6: a claim token that is missing, expired or cannot be verified asks for (new) claims. */
export const needInfo = (description: string, cause?: unknown) => new HttpError(403, 'need_info', description, { cause })

export interface DecodedIdToken {
  readonly token: string
  readonly header: ProtectedHeaderParameters
  readonly claims: JWTPayload
}

/** Solid-OIDC Primer (https://solidproject.org/TR/oidc-primer), request flow step 5: a JWT whose `exp` is present and in the future. Nothing is fetched yet. */
export function decodeIdToken(token: string | undefined, now: number): DecodedIdToken {
  if (token === undefined || token === '') throw needInfo('claim_token is missing: send the Solid-OIDC ID token of the requesting party')
  // Solid-OIDC sends the compact JWT as it is (no extra base64url layer)
  const { header, claims } = decodeCompactJwt(token, { what: 'the claim token', maxChars: MAX_TOKEN_CHARS, shape: 'a JWT (an ID token)', fail: needInfo })
  // RFC 9068 §2.1, RFC 8725 §3.11: an access token (ours or any issuer's) or one of our UMA tokens is
  // typed so, and is never an identity claim: it was given to a resource server, not to the client
  if (typeof header.typ === 'string' && ACCESS_TOKEN_TYP.test(header.typ)) {
    throw needInfo(`the claim token has typ ${show(header.typ)}: it is an access token, not an ID token; send the Solid-OIDC ID token of the requesting party`)
  }
  const { exp } = claims
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw needInfo('the ID token has no numeric exp claim')
  const nowS = now / 1000
  if (nowS - exp >= CLOCK_TOLERANCE_S) throw needInfo(`the ID token expired ${Math.floor(nowS - exp)} s ago; log in again for a fresh one`)
  return { token, header, claims }
}

export interface IdTokenFacts {
  readonly idToken: DecodedIdToken
  /** The token request's proof, already through verifyDpopProof and the jti replay check. */
  readonly proof: VerifiedProof
  readonly now: number
  readonly getIssuerKeys: GetIssuerKeys
  readonly getWebIdIssuers: GetWebIdIssuers
}

export interface VerifiedIdToken {
  readonly webid: WebId
  /** `azp`: the app the requesting party used (Solid-OIDC §7, ID token claims). */
  readonly clientId: ClientId
  readonly issuer: string
  /** `sid`: the issuer's session the token belongs to, when it names one (ours always do). */
  readonly sid?: string
}

/**
 * Solid-OIDC Primer request flow, steps 7b–12. Throws 403 `need_info`: the claims could not be verified, so the client
 * needs a fresh, verifiable ID token (UMA Grant §3.3.6).
 */
export async function verifyIdToken(f: IdTokenFacts): Promise<VerifiedIdToken> {
  const { token, header, claims } = f.idToken
  const { webid, iss, aud, azp, iat, cnf } = claims
  // (7b) Solid-OIDC §7: the ID token is bound to the key that signs the token request's proof
  if (!isObject(cnf) || typeof cnf.jkt !== 'string') throw needInfo('the ID token has no cnf.jkt: it must be a DPoP-bound Solid-OIDC ID token')
  if (cnf.jkt !== f.proof.jkt)
    throw needInfo("the DPoP proof key does not match the ID token's cnf.jkt; sign the proof with the key the ID token was issued to")
  if (typeof webid !== 'string' || webid === '') throw needInfo('the ID token has no webid claim')
  if (typeof iss !== 'string' || iss === '') throw needInfo('the ID token has no iss claim')
  if (!isSecureOrLocalhost(webid)) throw needInfo(`webid ${show(webid)} must be an https URL (http only on localhost)`)
  if (!isSecureOrLocalhost(iss)) throw needInfo(`iss ${show(iss)} must be an https URL (http only on localhost)`)
  // (12, checked before any fetch) the key is chosen by kid: without one there is nothing to look up
  if (typeof header.kid !== 'string' || header.kid === '') throw needInfo('the ID token header has no kid; the issuer key is looked up by kid')
  // (10–12) OP discovery at iss, its jwks_uri, the key with this kid, the signature. Checked before the
  // profile (8, 9): a token that does not verify stops here, before any WebID profile is fetched and parsed
  await checkIssuerSignature(token, header, iss, { getIssuerKeys: f.getIssuerKeys, algorithms: ASYMMETRIC_JWS_ALGS, what: 'ID token', fail: needInfo })
  // (8, 9) the WebID profile names iss as a solid:oidcIssuer
  await checkWebIdIssuer(webid, iss, f.getWebIdIssuers, needInfo)
  // (12) Solid-OIDC §7: aud holds "solid" and the client; azp names the client
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : []
  if (!audiences.includes('solid')) throw needInfo('the ID token aud must contain "solid"')
  if (typeof azp !== 'string' || azp === '') throw needInfo('the ID token has no azp claim naming the client')
  if (iat !== undefined && (typeof iat !== 'number' || iat - f.now / 1000 > CLOCK_TOLERANCE_S))
    throw needInfo(`the ID token iat is not a number or lies in the future; at most ${CLOCK_TOLERANCE_S} s of clock skew is allowed`)
  const sid = typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : undefined
  return { webid: webid as WebId, clientId: azp as ClientId, issuer: iss, ...(sid !== undefined ? { sid } : {}) }
}
