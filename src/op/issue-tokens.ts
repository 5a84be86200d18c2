// Signs the token response: DPoP-bound JWT access token (Solid-OIDC §8, RFC 9449 §6) and ID token (Solid-OIDC §6).

import { SignJWT } from 'jose'
import type { SigningKeys } from '../account/signing-keys.ts'
import type { WebId } from '../account/ids.ts'
import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S } from './model.ts'

export interface TokenGrant {
  /** The app session: `sid` of both tokens, the handle of revocation. */
  readonly sid: string
  readonly clientId: string
  readonly webid: WebId
  readonly scopes: readonly string[]
  /** RFC 7638 thumbprint of the DPoP proof key: `cnf.jkt` (RFC 9449 §6.1). */
  readonly jkt: string
  /** Epoch ms. */
  readonly authTime: number
  readonly includeAuthTime: boolean
  /** Echoed only in the ID token of the code exchange (OIDC Core §12.2: not on refresh). */
  readonly nonce?: string
}

export interface TokenResponse {
  access_token: string
  token_type: 'DPoP'
  expires_in: number
  id_token: string
  scope: string
  refresh_token?: string
}

const jti = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')

/** What an access token says: whose it is, for which app and session, bound to which key. */
export type AccessTokenGrant = Pick<TokenGrant, 'sid' | 'clientId' | 'webid' | 'scopes' | 'jkt'>

/** The DPoP-bound access token alone: the code and refresh grants add an ID token, client_credentials does not. */
export async function signAccessToken(signingKeys: SigningKeys, issuer: string, g: AccessTokenGrant, now: number): Promise<string> {
  const key = await signingKeys.current(now)
  const iat = Math.floor(now / 1000)
  // Solid-OIDC §8, RFC 9449 §6: what Solid resource servers verify (webid, iss, aud ∋ solid, cnf.jkt, exp), plus client_id/azp
  return new SignJWT({
    webid: g.webid,
    client_id: g.clientId,
    azp: g.clientId,
    cnf: { jkt: g.jkt },
    scope: g.scopes.join(' '),
    sid: g.sid,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(g.webid)
    .setAudience(['solid', g.clientId])
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .setJti(jti())
    .sign(key.privateKey)
}

export async function issueTokens(signingKeys: SigningKeys, issuer: string, g: TokenGrant, now: number, refreshToken?: string): Promise<TokenResponse> {
  const key = await signingKeys.current(now)
  const iat = Math.floor(now / 1000)
  const scope = g.scopes.join(' ')
  const accessToken = await signAccessToken(signingKeys, issuer, g, now)
  // Solid-OIDC §6: aud is an array holding azp and "solid"; cnf.jkt binds it to the proof key
  const idToken = await new SignJWT({
    webid: g.webid,
    azp: g.clientId,
    cnf: { jkt: g.jkt },
    sid: g.sid,
    ...(g.nonce !== undefined ? { nonce: g.nonce } : {}),
    ...(g.includeAuthTime ? { auth_time: Math.floor(g.authTime / 1000) } : {}),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(g.webid)
    .setAudience([g.clientId, 'solid'])
    .setIssuedAt(iat)
    .setExpirationTime(iat + ID_TOKEN_TTL_S)
    .setJti(jti())
    .sign(key.privateKey)
  return {
    access_token: accessToken,
    token_type: 'DPoP',
    expires_in: ACCESS_TOKEN_TTL_S,
    id_token: idToken,
    scope,
    ...(refreshToken !== undefined ? { refresh_token: refreshToken } : {}),
  }
}
