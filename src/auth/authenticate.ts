// Step 1 of the pipeline (DESIGN §3): the Authorization scheme picks the verifier.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { ANONYMOUS, type Principal } from './principal.ts'

export type Authenticate = (request: Request) => Promise<Principal>

export function makeAuthenticator(_deps: Deps): Authenticate {
  return async (request) => {
    const authorization = request.headers.get('authorization')
    if (!authorization) return ANONYMOUS
    const scheme = authorization.split(' ', 1)[0]!
    // A credential we cannot check is refused, never downgraded to anonymous.
    throw new HttpError(401, 'invalid_token', `the ${scheme} authorization scheme is not accepted by this pod`,
      { headers: { 'www-authenticate': 'DPoP algs="ES256"' } })
  }
}
