// RFC 7638 JWK thumbprints (RFC 8037 §2 for OKP keys): the one place the pod computes a `jkt`.

import { calculateJwkThumbprint, type JWK } from 'jose'

/**
 * RFC 7638 §3: SHA-256 over the required members only (EC crv,kty,x,y; RSA e,kty,n; OKP crv,kty,x),
 * names sorted, no whitespace, base64url without padding. `kid`, `alg`, `use` are ignored.
 * This is the value of `cnf.jkt` (RFC 9449 §6.1) and of `dpop_jkt` (RFC 9449 §10).
 */
export function jwkThumbprint(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(jwk, 'sha256')
}
