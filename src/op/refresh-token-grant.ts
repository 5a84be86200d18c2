// grant_type=refresh_token: same client, same DPoP key (RFC 9449 §5), rotated; reuse revokes the family.

import type { Deps } from '../deps.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { updateAppSession } from '../account/app-sessions.ts'
import type { VerifiedProof } from '../auth/dpop.ts'
import { log } from '../log.ts'
import type { TokenClient } from './client-auth.ts'
import { touchRegisteredClient } from '../account/registered-clients.ts'
import { issueTokens, type TokenResponse } from './issue-tokens.ts'
import { REFRESH_TTL_MS } from './model.ts'
import { isGenuine, parseRefreshToken, refreshTokenOf, type RefreshFamily } from './refresh-tokens.ts'

const invalidGrant = (description: string) => new HttpError(400, 'invalid_grant', description)

type Outcome = { ok: true; family: RefreshFamily; scopes: string[]; session: { webid: string; authTime: number } } | { ok: false }

export async function grantRefreshToken(
  deps: Pick<Deps, 'cfg' | 'store' | 'signingKeys' | 'revocations'>,
  client: TokenClient,
  form: Record<string, string>,
  proof: VerifiedProof,
  now: number,
): Promise<TokenResponse> {
  const { cfg, store } = deps
  if (form.refresh_token === undefined) throw badRequest('refresh_token is required')
  const presented = parseRefreshToken(form.refresh_token)
  if (!presented) throw invalidGrant('the refresh token is not one this provider issued')
  const { sid } = presented
  const outcome = await updateAppSession<Outcome>(store, sid, now, s => {
    if (!s?.refresh) throw invalidGrant('the refresh token is unknown, expired or revoked; sign in again')
    if (!isGenuine(s.refresh, presented)) throw invalidGrant('the refresh token is not one this provider issued')
    // RFC 9700 §4.14.2: a rotated (used) token presented again means it leaked; revoke the family
    if (presented.generation !== s.refresh.generation) return { result: { ok: false } }
    if (s.clientId !== client.clientId) throw invalidGrant('the refresh token was issued to another client')
    // RFC 9449 §5: a public client's refresh token is bound to the DPoP key that obtained it
    if (s.jkt !== proof.jkt) throw invalidGrant('the refresh token is bound to a different DPoP key; sign the proof with the key used at the code exchange')
    const granted = s.scope.split(' ')
    // RFC 6749 §6: a narrower scope may be asked for, never a wider one
    const scopes = form.scope === undefined ? granted : form.scope.split(' ').filter(x => x !== '')
    const extra = scopes.filter(x => !granted.includes(x))
    if (extra.length > 0) throw new HttpError(400, 'invalid_scope', `scope may only narrow the granted scope; not granted: ${extra.join(', ')}`)
    const family = { secret: s.refresh.secret, generation: s.refresh.generation + 1 }
    return { next: { ...s, refresh: family, lastUsedAt: now }, expiresAt: now + REFRESH_TTL_MS, result: { ok: true, family, scopes, session: s } }
  })
  if (!outcome.ok) {
    await deps.revocations.revoke(sid, now)
    log.warn('op.refresh_reused', { clientId: client.clientId, sid })
    throw invalidGrant('the refresh token was already used; every token of this session is revoked, sign in again')
  }
  // A session from before secrets were marked used refreshes with an unmarked one: mark it, so that registrations
  // of the same metadata do not retire it
  const registered = client.registered
  if (registered && client.secretHash && !(registered.usedSecretHashes ?? []).includes(client.secretHash))
    await touchRegisteredClient(store, registered, now, client.secretHash)
  log.info('op.tokens_issued', { grant: 'refresh_token', clientId: client.clientId, jkt: proof.jkt, sid })
  return issueTokens(
    deps.signingKeys,
    cfg.baseUrl,
    {
      sid,
      clientId: client.clientId,
      webid: outcome.session.webid as never,
      scopes: outcome.scopes,
      jkt: proof.jkt,
      authTime: outcome.session.authTime,
      includeAuthTime: false,
    },
    now,
    refreshTokenOf(sid, outcome.family),
  )
}
