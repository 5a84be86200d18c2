// grant_type=client_credentials (RFC 6749 §4.4; Solid-OIDC's client credentials): a credential the owner
// made trades its secret and a DPoP proof for an access token acting as the owner, within its folders.

import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { HttpError } from '../http/errors.ts'
import type { VerifiedProof } from '../auth/dpop.ts'
import type { ClientId, WebId } from '../account/ids.ts'
import { saveAppSession } from '../account/app-sessions.ts'
import { touchClientCredential, type ClientCredential } from '../account/client-credentials.ts'
import { randomBase64url } from '../lib/client-secret.ts'
import { log } from '../log.ts'
import { signAccessToken } from './issue-tokens.ts'
import { ACCESS_TOKEN_TTL_S } from './model.ts'

/** RFC 6749 §4.4.3: an access token, no refresh token (the script holds its credential); no ID token (nobody logs in). */
export interface ClientCredentialsResponse {
  access_token: string
  token_type: 'DPoP'
  expires_in: number
  scope: string
}

/**
 * RFC 6749 §3.3: the pod may issue another scope than asked and then names it. `webid` is the only one with
 * meaning here (the token acts as the owner's WebID); what the token may reach is the credential's folders.
 */
const SCOPE = 'webid'

export async function grantClientCredentials(
  deps: Pick<Deps, 'cfg' | 'store' | 'signingKeys' | 'revocations'>,
  credential: ClientCredential,
  proof: VerifiedProof,
  now: number,
): Promise<ClientCredentialsResponse> {
  const clientId = credential.clientId as ClientId
  const webid = ownerWebIdOf(deps.cfg.baseUrl) as WebId
  // Each token is an app session of its own (its `sid`), listed on the dashboard's Apps and sessions page until it expires: removing the
  // credential revokes them all, so a token still within its lifetime is refused on its next request.
  const sid = randomBase64url(16)
  const expiresAt = now + ACCESS_TOKEN_TTL_S * 1000
  await saveAppSession(
    deps.store,
    {
      sid,
      clientId,
      clientName: credential.name,
      webid,
      scope: SCOPE,
      jkt: proof.jkt,
      authTime: now,
      createdAt: now,
      lastUsedAt: now,
    },
    expiresAt,
  )
  // Saved first, checked after: a removal that looked for sessions before this one was saved is seen here
  if (!(await touchClientCredential(deps.store, clientId, now))) {
    await deps.revocations.revoke(sid, now)
    throw new HttpError(401, 'invalid_client', 'this client credential was removed; ask the pod owner for a new one')
  }
  const accessToken = await signAccessToken(deps.signingKeys, deps.cfg.baseUrl, { sid, clientId, webid, scopes: [SCOPE], jkt: proof.jkt }, now)
  log.info('op.tokens_issued', { grant: 'client_credentials', clientId, webid, jkt: proof.jkt, sid })
  return { access_token: accessToken, token_type: 'DPoP', expires_in: ACCESS_TOKEN_TTL_S, scope: SCOPE }
}
