// Bounded decoding of a compact JWS (RFC 7515 §7.1) before any verification: one rule for DPoP proofs, ID tokens and access tokens.

import { decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose'
import type { HttpError } from '../http/errors.ts'

export const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/** Bound before parsing: our tokens are ~1 KB; a header-sized input is never legitimate. */
export const MAX_TOKEN_CHARS = 16384

export interface CompactJwtRule {
  /** How the refusal names the value, e.g. "the DPoP proof". */
  readonly what: string
  readonly maxChars: number
  /** What a value of the wrong shape is not, e.g. "a compact JWS". */
  readonly shape: string
  fail(description: string, cause?: unknown): HttpError
}

/** The JOSE header and claims of a size-bounded compact JWT, or the rule's refusal saying what was wrong. */
export function decodeCompactJwt(value: string, r: CompactJwtRule): { header: ProtectedHeaderParameters; claims: JWTPayload } {
  if (value.length > r.maxChars) throw r.fail(`${r.what} is ${value.length} characters; at most ${r.maxChars} are accepted`)
  if (!COMPACT_JWS.test(value)) throw r.fail(`${r.what} is not ${r.shape}: expected three base64url parts separated by dots`)
  try {
    return { header: decodeProtectedHeader(value), claims: decodeJwt(value) }
  } catch (cause) {
    throw r.fail(`${r.what} is not a well-formed JWT: header and payload must be base64url JSON objects`, cause)
  }
}
