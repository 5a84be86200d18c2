// RFC 9101 / OIDC Core §6.1 request objects: ES256-signed by a registered client, never unsigned.

import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose'
import { HttpError } from '../http/errors.ts'
import type { OpClient } from './clients.ts'

export interface RequestObjectFacts {
  readonly jwt: string
  readonly client: OpClient
  /** The client_id of the query string (RFC 9101 §5: it stays outside the object). */
  readonly clientId: string
  readonly issuer: string
  /** Epoch ms. */
  readonly now: number
}

const objectError = (description: string, cause?: unknown) => new HttpError(400, 'invalid_request_object', description, { cause })
const SKEW_S = 60

/**
 * Verifies the object and returns its parameters as strings. RFC 9101 §5: the authorization
 * server uses only the parameters inside the object; the query's client_id must match it.
 */
export async function readRequestObject(f: RequestObjectFacts): Promise<Map<string, string>> {
  if (f.jwt.length > 16384) throw objectError('the request object is longer than 16384 characters')
  let alg: unknown
  try {
    alg = decodeProtectedHeader(f.jwt).alg
  } catch (cause) {
    throw objectError('the request object is not a JWT', cause)
  }
  // request_object_signing_alg_values_supported is ["ES256"]: unsigned (alg none) objects are refused
  if (alg === 'none') throw objectError('unsigned request objects (alg "none") are refused; sign it with ES256')
  if (alg !== 'ES256') throw objectError(`the request object is signed with ${JSON.stringify(alg)}; only ES256 is accepted`)
  // Only a registered client has keys we know; a Client ID Document names none
  if (!f.client.jwks)
    throw objectError('request objects are accepted only from registered clients whose registration carries jwks; send the parameters in the query instead')
  let claims: Record<string, unknown>
  try {
    const { payload } = await compactVerify(f.jwt, createLocalJWKSet(f.client.jwks), { algorithms: ['ES256'] })
    claims = JSON.parse(new TextDecoder().decode(payload))
  } catch (cause) {
    throw objectError("the request object's signature does not verify with the client's registered keys", cause)
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw objectError('the request object payload is not a JSON object')
  const nowS = f.now / 1000
  if (claims.iss !== undefined && claims.iss !== f.clientId) throw objectError('the request object iss must be the client_id')
  const aud = claims.aud
  if (aud !== undefined && !(aud === f.issuer || (Array.isArray(aud) && aud.includes(f.issuer))))
    throw objectError(`the request object aud must be the issuer ${f.issuer}`)
  if (typeof claims.exp === 'number' && claims.exp + SKEW_S <= nowS) throw objectError('the request object has expired')
  if (typeof claims.nbf === 'number' && claims.nbf - SKEW_S > nowS) throw objectError('the request object is not valid yet (nbf)')
  if (claims.client_id !== undefined && claims.client_id !== f.clientId) throw objectError('client_id in the request object differs from the one in the query')
  const params = new Map<string, string>()
  for (const [name, value] of Object.entries(claims)) {
    if (['iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'request', 'request_uri'].includes(name)) continue
    if (typeof value === 'string') params.set(name, value)
    else if (typeof value === 'number' && Number.isInteger(value)) params.set(name, String(value))
  }
  params.set('client_id', f.clientId)
  return params
}
