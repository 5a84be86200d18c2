// The access tokens (RPTs) our UMA authorization server issues; auth/uma-token.ts verifies them at our resource server.

import { SignJWT } from 'jose'
import { UMA_TOKEN_TYP, WEBID_ISSUER_CLAIM } from '../auth/uma-token.ts'
import type { ClientId, WebId } from '../account/ids.ts'
import type { SigningKey } from '../account/signing-keys.ts'
import type { UmaPermission } from '../uma/permission.ts'

/** Five minutes: the token is checked locally, so its life bounds how long a revoked permission could last. */
export const UMA_TOKEN_TTL_S = 300

export interface UmaGrant {
  /** Our issuer (= the resource server's origin, also `aud`). */
  readonly issuer: string
  readonly webid: WebId
  /** `azp` of the ID token: the app the requesting party used. */
  readonly clientId: ClientId
  /** `iss` of the ID token: the OpenID provider that vouched for the WebID (ours: our base URL). */
  readonly webidIssuer: string
  readonly permissions: readonly UmaPermission[]
  /** RFC 7638 thumbprint of the token request's DPoP key (RFC 9449 §6.1 `cnf.jkt`). */
  readonly jkt: string
  /** Epoch milliseconds. */
  readonly now: number
  /** The app session of our own ID token the grant was made for: checked for revocation on every request. */
  readonly sid?: string
}

const jti = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')

/** UMA Grant §3.3.5: the RPT, a JWT carrying the permissions as UMA names them (resource_id, resource_scopes). */
export function signUmaAccessToken(key: SigningKey, g: UmaGrant): Promise<string> {
  const iat = Math.floor(g.now / 1000)
  return new SignJWT({
    // WEBID_ISSUER_CLAIM: the resource server judges acl:IssuerCondition rules (WAC 1.1 ED §4.4.2) by it, as for a DPoP token
    azp: g.clientId,
    [WEBID_ISSUER_CLAIM]: g.webidIssuer,
    cnf: { jkt: g.jkt },
    ...(g.sid !== undefined ? { sid: g.sid } : {}),
    permissions: g.permissions.map(p => ({ resource_id: p.resource, resource_scopes: [...p.modes] })),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: UMA_TOKEN_TYP })
    .setIssuer(g.issuer)
    .setSubject(g.webid)
    .setAudience(g.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + UMA_TOKEN_TTL_S)
    .setJti(jti())
    .sign(key.privateKey)
}
