// RFC 7638 JWK thumbprints (RFC 8037 §2 for OKP keys): the one place the pod computes a `jkt`.

import { createHash } from 'node:crypto'
import type { JWK } from 'jose'

/** RFC 7638 §3.2 / RFC 8037 §2: the members that define each key type, in lexicographic order. */
const REQUIRED: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
}

/**
 * RFC 7638 §3: SHA-256 over the required members only, names sorted, no whitespace, base64url
 * without padding; `kid`, `alg`, `use` are ignored. This is the value of `cnf.jkt` (RFC 9449 §6.1)
 * and of `dpop_jkt` (RFC 9449 §10). Computed synchronously: it runs on every DPoP request, and
 * WebCrypto's async digest costs ~50× more than node:crypto here.
 */
export async function jwkThumbprint(jwk: JWK): Promise<string> {
  return jwkThumbprintSync(jwk)
}

/** `jwkThumbprint`, for callers on a synchronous path (the DPoP proof's key cache). */
export function jwkThumbprintSync(jwk: JWK): string {
  const members = typeof jwk.kty === 'string' ? REQUIRED[jwk.kty] : undefined
  if (!members) throw new TypeError(`unsupported JWK key type ${JSON.stringify(jwk.kty)}`)
  const canonical: Record<string, unknown> = {}
  for (const m of members) {
    const v = (jwk as Record<string, unknown>)[m]
    if (typeof v !== 'string') throw new TypeError(`the JWK member "${m}" is missing or not a string`)
    canonical[m] = v
  }
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url')
}
