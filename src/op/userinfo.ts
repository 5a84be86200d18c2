// OIDC Core §5.3 userinfo: DPoP-bound access tokens of this provider only.

import { refuseDpop, type Authenticate } from '../auth/authenticate.ts'
import { dpopChallenge } from '../auth/challenges.ts'
import { HttpError } from '../http/errors.ts'

export async function readUserinfo(authenticate: Authenticate, issuer: string, request: Request): Promise<{ sub: string; webid: string }> {
  const principal = await authenticate(request)
  // RFC 6750 §3: no credentials → a challenge without an error code
  if (principal.scheme === 'anonymous')
    throw new HttpError(401, 'invalid_token', 'userinfo needs "Authorization: DPoP <access token>" and a DPoP proof', {
      headers: { 'www-authenticate': dpopChallenge() },
    })
  if (principal.issuer !== issuer || principal.webid === undefined) throw refuseDpop('invalid_token', 'this access token was not issued by this provider')
  return { sub: principal.webid, webid: principal.webid }
}
