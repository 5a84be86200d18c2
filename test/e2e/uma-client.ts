// A UMA client over real HTTP, as a Solid app drives it: 401 → the UMA challenge → the AS's
// discovery → ticket + ID token + DPoP proof at its token endpoint → the access token.

import { dpopProof, FORM, type DpopKey } from '../op/op-fixture.ts'

export const ID_TOKEN_FORMAT = 'http://openid.net/specs/openid-connect-core-1_0.html#IDToken'
export const UMA_GRANT = 'urn:ietf:params:oauth:grant-type:uma-ticket'

export interface UmaChallenge {
  readonly asUri: string
  readonly ticket: string
}

/** The `UMA` challenge of a 401 (UMA Grant §3.2). */
export function readUmaChallenge(res: Response): UmaChallenge {
  const m = /UMA realm="[^"]*", as_uri="([^"]+)", ticket="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')
  if (!m) throw new Error(`no UMA challenge in ${res.status} ${res.headers.get('www-authenticate')}`)
  return { asUri: m[1]!, ticket: m[2]! }
}

/** UMA Grant §2: the token endpoint from `as_uri` + /.well-known/uma2-configuration. */
export async function umaTokenEndpoint(asUri: string): Promise<string> {
  const meta = (await (await fetch(`${asUri.replace(/\/$/, '')}/.well-known/uma2-configuration`)).json()) as { token_endpoint: string; issuer: string }
  if (meta.issuer !== asUri) throw new Error(`the AS names issuer ${meta.issuer}, not ${asUri}`)
  return meta.token_endpoint
}

/** UMA Grant §3.3.1: the token request. */
export async function requestUmaToken(tokenEndpoint: string, ticket: string, idToken: string, key: DpopKey): Promise<Response> {
  return fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': FORM, dpop: await dpopProof(key, 'POST', tokenEndpoint, Date.now()) },
    body: new URLSearchParams({ grant_type: UMA_GRANT, ticket, claim_token: idToken, claim_token_format: ID_TOKEN_FORMAT }),
  })
}
