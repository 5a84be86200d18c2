// OIDC Core §5.3 userinfo: DPoP-bound access tokens of this provider only.

import { DPOP_ALGS, dpopChallenge, type Authenticate } from '../auth/authenticate.ts'
import { HttpError } from '../http/errors.ts'

const refuse = (description: string) => new HttpError(401, 'invalid_token', description,
  { headers: { 'www-authenticate': dpopChallenge('invalid_token', description) } })

export async function readUserinfo(authenticate: Authenticate, issuer: string, request: Request): Promise<{ sub: string; webid: string }> {
  const principal = await authenticate(request)
  // RFC 6750 §3: no credentials → a challenge without an error code
  if (principal.scheme === 'anonymous') throw new HttpError(401, 'invalid_token', 'userinfo needs "Authorization: DPoP <access token>" and a DPoP proof', { headers: { 'www-authenticate': `DPoP algs="${DPOP_ALGS}"` } })
  if (principal.issuer !== issuer || principal.webid === undefined) throw refuse('this access token was not issued by this provider')
  return { sub: principal.webid, webid: principal.webid }
}
