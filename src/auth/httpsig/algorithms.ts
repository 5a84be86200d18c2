// RFC 9421 §3.3 signature algorithms over public JWKs, and which algorithm a key allows.

import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto'

/** RFC 9421 §6.2.2 registry values the pod verifies (hmac-sha256 needs a shared secret: not for HttpSig). */
export const SIGNATURE_ALGS = ['ecdsa-p256-sha256', 'ecdsa-p384-sha384', 'ed25519', 'rsa-pss-sha512', 'rsa-v1_5-sha256'] as const
export type SignatureAlg = (typeof SIGNATURE_ALGS)[number]

export const isSignatureAlg = (alg: string): alg is SignatureAlg => (SIGNATURE_ALGS as readonly string[]).includes(alg)

/** A public key as a JWK (RFC 7517), already checked by `checkPublicJwk`. */
export type PublicJwk = Readonly<Record<string, unknown>> & { readonly kty: string }

// JWS `alg` (RFC 7518 §3.1, RFC 8037 §3.1) of a JWK ↔ the RFC 9421 algorithm it means.
const JWS_TO_SIG: Readonly<Record<string, SignatureAlg>> = {
  ES256: 'ecdsa-p256-sha256',
  ES384: 'ecdsa-p384-sha384',
  EdDSA: 'ed25519',
  Ed25519: 'ed25519',
  PS512: 'rsa-pss-sha512',
  RS256: 'rsa-v1_5-sha256',
}

/**
 * The algorithms `jwk` may be used with. EC and OKP keys fix theirs by the curve (RFC 9421 §3.3.4–3.3.6);
 * an RSA key serves both RSA algorithms unless its JWK `alg` names one. A JWK `alg` that contradicts its
 * curve allows nothing.
 */
export function algsForKey(jwk: PublicJwk): readonly SignatureAlg[] {
  const byCurve: SignatureAlg[] =
    jwk.kty === 'EC' && jwk.crv === 'P-256'
      ? ['ecdsa-p256-sha256']
      : jwk.kty === 'EC' && jwk.crv === 'P-384'
        ? ['ecdsa-p384-sha384']
        : jwk.kty === 'OKP' && jwk.crv === 'Ed25519'
          ? ['ed25519']
          : jwk.kty === 'RSA'
            ? ['rsa-pss-sha512', 'rsa-v1_5-sha256']
            : []
  if (typeof jwk.alg !== 'string') return byCurve
  const named = Object.hasOwn(JWS_TO_SIG, jwk.alg) ? JWS_TO_SIG[jwk.alg] : undefined
  return named !== undefined && byCurve.includes(named) ? [named] : []
}

/** The JWS `alg` a JWK of this algorithm carries (for key documents the pod writes). */
export const jwsAlgOf = (alg: SignatureAlg): string => Object.entries(JWS_TO_SIG).find(([, sig]) => sig === alg)![0]

export function importPublicJwk(jwk: PublicJwk): KeyObject {
  return createPublicKey({ key: jwk as unknown as JsonWebKey, format: 'jwk' })
}

/** A public key as published and as imported for verification (imported once per key document version). */
export interface VerificationKey {
  readonly jwk: PublicJwk
  readonly key: KeyObject
}

export const toVerificationKey = (jwk: PublicJwk): VerificationKey => ({ jwk, key: importPublicJwk(jwk) })

/**
 * RFC 9421 §3.3: does `signature` sign `base` under `alg`? ECDSA signatures are raw r‖s (§3.3.4–3.3.5),
 * RSA-PSS uses SHA-512 with MGF1-SHA-512 (§3.3.1), Ed25519 signs the base itself (§3.3.6).
 */
export function verifySignatureBytes(alg: SignatureAlg, key: KeyObject, base: Uint8Array, signature: Uint8Array): boolean {
  try {
    switch (alg) {
      case 'ecdsa-p256-sha256':
        return verify('sha256', base, { key, dsaEncoding: 'ieee-p1363' }, signature)
      case 'ecdsa-p384-sha384':
        return verify('sha384', base, { key, dsaEncoding: 'ieee-p1363' }, signature)
      case 'ed25519':
        return verify(null, base, key, signature)
      // §3.3.1 signs with a 64-byte salt; any salt length is accepted (RFC 8017 §9.1.2 recovers it), because a widely
      // used npm signer (http-message-signatures) signs with the maximum, and the length adds nothing to the proof.
      case 'rsa-pss-sha512':
        return verify('sha512', base, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, signature)
      case 'rsa-v1_5-sha256':
        return verify('sha256', base, { key, padding: constants.RSA_PKCS1_PADDING }, signature)
    }
  } catch {
    return false // a key of another type or a malformed signature: it does not verify, whatever the reason
  }
}
