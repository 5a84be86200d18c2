// POST /.oidc/token: form checks, client authentication, the DPoP proof, then the grant.

import type { Deps } from '../deps.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { verifyDpopProof } from '../auth/dpop.ts'
import { jtiExpiry } from '../auth/dpop-replay.ts'
import { grantAuthorizationCode } from './authorization-code-grant.ts'
import { authenticateClient } from './client-auth.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { grantRefreshToken } from './refresh-token-grant.ts'

export interface TokenRequestFacts {
  readonly contentType: string | null
  /** The parsed form: a repeated name arrives as an array. */
  readonly form: Record<string, unknown>
  readonly authorization: string | null
  readonly dpop: string | null
}

const GRANTS = ['authorization_code', 'refresh_token']

/** RFC 6749 §3.2: form-encoded; §3.1: no parameter twice. */
function singleValuedForm(f: TokenRequestFacts): Record<string, string> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(f.contentType ?? '')) throw badRequest('the token request must be application/x-www-form-urlencoded')
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(f.form)) {
    if (typeof value !== 'string') throw badRequest(`parameter ${name} must be sent once`)
    if (value !== '') out[name] = value
  }
  return out
}

export function makeTokenEndpoint(deps: Pick<Deps, 'cfg' | 'store' | 'now' | 'signingKeys' | 'revocations' | 'tokenEndpointReplay'>) {
  const replay = deps.tokenEndpointReplay
  const htu = deps.cfg.baseUrl + OP_PATHS.token

  return async function exchangeToken(f: TokenRequestFacts): Promise<Response> {
    const now = deps.now()
    const form = singleValuedForm(f)
    const grantType = form.grant_type
    if (grantType === undefined) throw badRequest('grant_type is required')
    if (!GRANTS.includes(grantType)) throw new HttpError(400, 'unsupported_grant_type', `grant_type ${JSON.stringify(grantType.slice(0, 60))} is not supported; use authorization_code or refresh_token`)
    const client = await authenticateClient(deps.store, form, f.authorization, now)
    // RFC 9449 §5: every token we issue is DPoP-bound, so every token request carries a proof
    const proof = await verifyDpopProof({ header: f.dpop, method: 'POST', url: htu, now, status: 400 })
    if (!replay.remember(proof.jti, proof.htu, jtiExpiry(proof.iat), now)) throw new HttpError(400, 'invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request')
    const body = grantType === 'authorization_code'
      ? await grantAuthorizationCode(deps, client, form, proof, now)
      : await grantRefreshToken(deps, client, form, proof, now)
    // RFC 6749 §5.1: never cached
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' } })
  }
}
