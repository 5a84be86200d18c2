// RFC 7636 PKCE at the token endpoint: verifier syntax, S256 transform and the verifier/challenge check.

import { createHash } from 'node:crypto'
import { HttpError } from '../http/errors.ts'

// RFC 7636 §4.1: code-verifier = 43*128unreserved; unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/

export type PkceMethod = 'S256' | 'plain'

// RFC 7636 §4.6: missing, malformed and mismatching verifiers all answer 400 invalid_grant.
const pkceError = (description: string) => new HttpError(400, 'invalid_grant', description)

/** RFC 7636 §4.1: throws 400 `invalid_grant` unless `v` is 43–128 unreserved characters. */
export function checkCodeVerifierSyntax(v: unknown): asserts v is string {
  // RFC 7636 §4.5: the client MUST send code_verifier when the authorization request had a challenge
  if (typeof v !== 'string' || v === '') throw pkceError('code_verifier is required: the authorization request carried a code_challenge')
  // RFC 7636 §4.1: minimum length 43, maximum 128
  if (v.length < 43 || v.length > 128) throw pkceError(`code_verifier is ${v.length} characters long; it must be 43 to 128`)
  // RFC 7636 §4.1: only unreserved characters [A-Z] [a-z] [0-9] - . _ ~
  if (!UNRESERVED.test(v)) throw pkceError('code_verifier may only contain A-Z a-z 0-9 - . _ ~')
}

/** RFC 7636 §4.2: code_challenge = BASE64URL-ENCODE(SHA256(ASCII(code_verifier))), no padding. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}

/**
 * RFC 7636 §4.6: recompute the challenge from the verifier with the stored method and compare.
 * Throws 400 `invalid_grant` (RFC 7636 §4.6, RFC 6749 §5.2) on any failure.
 */
export function verifyPkce(verifier: unknown, challenge: string, method: string): void {
  checkCodeVerifierSyntax(verifier)
  // RFC 7636 §4.3: the only transforms are S256 and plain (the authorization endpoint refuses others)
  if (method !== 'S256' && method !== 'plain') throw pkceError(`code_challenge_method ${JSON.stringify(method.slice(0, 20))} is not supported; expected S256`)
  // RFC 7636 §4.6: S256 compares BASE64URL(SHA256(verifier)); plain compares the verifier itself
  const derived = method === 'S256' ? s256Challenge(verifier) : verifier
  if (derived !== challenge) throw pkceError(`code_verifier does not match the code_challenge (method ${method})`)
}
