// grant_type=authorization_code (RFC 6749 §4.1.3, primer steps 16–18): code → session + tokens.

import type { Deps } from '../deps.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { verifyPkce } from './pkce.ts'
import { randomId } from '../account/owner-session.ts'
import { saveAppSession, type AppSession } from '../account/app-sessions.ts'
import { touchRegisteredClient } from '../account/registered-clients.ts'
import type { ClientId } from '../account/ids.ts'
import type { VerifiedProof } from '../auth/dpop.ts'
import { log } from '../log.ts'
import { redeemAuthorizationCode } from './authorization-codes.ts'
import type { TokenClient } from './client-auth.ts'
import { issueTokens, type TokenResponse } from './issue-tokens.ts'
import { ACCESS_TOKEN_TTL_S, REFRESH_TTL_MS } from './model.ts'
import { newRefreshFamily, refreshTokenOf } from './refresh-tokens.ts'

const invalidGrant = (description: string) => new HttpError(400, 'invalid_grant', description)

export async function grantAuthorizationCode(
  deps: Pick<Deps, 'cfg' | 'store' | 'signingKeys' | 'revocations'>,
  client: TokenClient,
  form: Record<string, string>,
  proof: VerifiedProof,
  now: number,
): Promise<TokenResponse> {
  const { cfg, store } = deps
  const code = form.code
  const redirectUri = form.redirect_uri
  if (code === undefined) throw badRequest('code is required')
  if (redirectUri === undefined) throw badRequest('redirect_uri is required: the one sent in the authorization request')
  const sid = randomId()
  const redemption = await redeemAuthorizationCode(store, code, sid, now, r => {
    // primer step 16: the code was issued to this client
    if (r.clientId !== client.clientId) throw invalidGrant('the authorization code was issued to another client')
    // RFC 6749 §4.1.3: redirect_uri identical to the authorization request's
    if (r.redirectUri !== redirectUri) throw invalidGrant('redirect_uri differs from the one in the authorization request')
    // primer step 17, RFC 7636 §4.6
    if (r.codeChallenge !== undefined) verifyPkce(form.code_verifier, r.codeChallenge, r.codeChallengeMethod ?? 'plain')
    else if (form.code_verifier !== undefined) throw invalidGrant('code_verifier was sent, but the authorization request had no code_challenge')
    // RFC 9449 §10: a code bound with dpop_jkt is redeemed only with that key
    if (r.dpopJkt !== undefined && r.dpopJkt !== proof.jkt)
      throw invalidGrant('the DPoP proof key is not the one named by dpop_jkt in the authorization request')
  })
  if (!redemption.ok) {
    // RFC 6749 §4.1.2: a code used twice revokes what the first use issued
    await deps.revocations.revoke(redemption.replayOf, now)
    log.warn('op.code_replayed', { clientId: client.clientId, sid: redemption.replayOf })
    throw invalidGrant('the authorization code was already used; the tokens issued with it are revoked')
  }
  const r = redemption.record
  // The owner revoked the sign-in that approved this code (dashboard): it opens no new session
  if (r.loginSessionId !== undefined && (await deps.revocations.isLoginRevoked(r.loginSessionId, now))) {
    throw invalidGrant('the sign-in that approved this authorization was revoked by the owner; sign in again')
  }
  const refreshable = r.scopes.includes('offline_access') && (client.registered === undefined || client.registered.grantTypes.includes('refresh_token'))
  const refresh = refreshable ? newRefreshFamily() : undefined
  const session: AppSession = {
    sid,
    clientId: r.clientId as ClientId,
    webid: r.webid,
    scope: r.scopes.join(' '),
    jkt: proof.jkt,
    authTime: r.authTime,
    createdAt: now,
    lastUsedAt: now,
    ...(r.clientName !== undefined ? { clientName: r.clientName } : {}),
    ...(r.loginSessionId !== undefined ? { loginSessionId: r.loginSessionId } : {}),
    ...(refresh ? { refresh } : {}),
  }
  await saveAppSession(store, session, refresh ? now + REFRESH_TTL_MS : now + ACCESS_TOKEN_TTL_S * 1000)
  if (client.registered) await touchRegisteredClient(store, client.registered, now, client.secretHash)
  log.info('op.tokens_issued', { grant: 'authorization_code', clientId: client.clientId, webid: r.webid, jkt: proof.jkt, sid })
  return issueTokens(
    deps.signingKeys,
    cfg.baseUrl,
    {
      sid,
      clientId: r.clientId,
      webid: r.webid,
      scopes: r.scopes,
      jkt: proof.jkt,
      authTime: r.authTime,
      includeAuthTime: r.includeAuthTime,
      ...(r.nonce !== undefined ? { nonce: r.nonce } : {}),
    },
    now,
    refresh ? refreshTokenOf(sid, refresh) : undefined,
  )
}
