// POST /.oidc/token: form checks, client authentication, the DPoP proof, then the grant.

import { jsonResponse } from '../http/json-response.ts'
import type { Deps } from '../deps.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { singleValuedForm } from '../http/oauth-form.ts'
import { verifyDpopProof } from '../auth/dpop.ts'
import { checkJti, jtiExpiry } from '../auth/dpop-replay.ts'
import { grantAuthorizationCode } from './authorization-code-grant.ts'
import { authenticateClient, type TokenClient } from './client-auth.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { grantRefreshToken } from './refresh-token-grant.ts'
import { grantClientCredentials, type ClientCredentialsResponse } from './client-credentials-grant.ts'
import type { TokenResponse } from './issue-tokens.ts'

export interface TokenRequestFacts {
  readonly contentType: string | null
  /** The parsed form: a repeated name arrives as an array. */
  readonly form: Record<string, unknown>
  readonly authorization: string | null
  readonly dpop: string | null
}

const GRANTS = ['authorization_code', 'refresh_token', 'client_credentials']

/**
 * RFC 6749 §5.2 unauthorized_client: the owner's client credentials use only client_credentials (§4.4: a
 * confidential client acting on its own authority, here the owner's), and no other client may use it.
 */
function checkGrantAllowed(grantType: string, client: TokenClient): void {
  if (grantType === 'client_credentials' && !client.credential) {
    throw new HttpError(
      400,
      'unauthorized_client',
      'grant_type client_credentials is only for client credentials the pod owner made (dashboard, Apps; or solopod clients add)',
    )
  }
  if (grantType !== 'client_credentials' && client.credential) {
    throw new HttpError(400, 'unauthorized_client', `a client credential may only use grant_type client_credentials, not ${grantType}`)
  }
}

export function makeTokenEndpoint(deps: Pick<Deps, 'cfg' | 'store' | 'now' | 'signingKeys' | 'revocations' | 'tokenEndpointReplay'>) {
  const replay = deps.tokenEndpointReplay
  const htu = deps.cfg.baseUrl + OP_PATHS.token

  return async function exchangeToken(f: TokenRequestFacts): Promise<Response> {
    const now = deps.now()
    const form = singleValuedForm(f.contentType, f.form)
    const grantType = form.grant_type
    if (grantType === undefined) throw badRequest('grant_type is required')
    if (!GRANTS.includes(grantType))
      throw new HttpError(
        400,
        'unsupported_grant_type',
        `grant_type ${JSON.stringify(grantType.slice(0, 60))} is not supported; use authorization_code, refresh_token or client_credentials`,
      )
    const client = await authenticateClient(deps.store, form, f.authorization, now)
    checkGrantAllowed(grantType, client)
    // RFC 9449 §5: every token we issue is DPoP-bound, so every token request carries a proof
    const proof = await verifyDpopProof({ header: f.dpop, method: 'POST', url: htu, now, status: 400 })
    // RFC 9449 §11.1: a proof is used once. Taken before the grant (a concurrent replay is refused
    // while the first request runs) and given back when the grant fails, so refused requests take no room.
    checkJti(
      replay.remember(proof.jkt, proof.jti, proof.htu, jtiExpiry(proof.iat), now),
      () => new HttpError(400, 'invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request'),
    )
    let body: TokenResponse | ClientCredentialsResponse
    try {
      body =
        grantType === 'authorization_code'
          ? await grantAuthorizationCode(deps, client, form, proof, now)
          : grantType === 'refresh_token'
            ? await grantRefreshToken(deps, client, form, proof, now)
            : await grantClientCredentials(deps, client.credential!, proof, now)
    } catch (err) {
      replay.release(proof.jkt, proof.jti, proof.htu, now)
      throw err
    }
    // RFC 6749 §5.1: never cached
    return jsonResponse(body, { headers: { pragma: 'no-cache' } })
  }
}
