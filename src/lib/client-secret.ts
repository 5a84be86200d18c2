// Client secrets: 256-bit random values, stored only as their SHA-256 and compared in constant time.

import { timingSafeEqual } from 'node:crypto'
import { sha256Base64url } from './text.ts'

/** Random bytes as base64url (RFC 4648 §5): ids and secrets. */
export const randomBase64url = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')

/** A new secret and the hash to store. 256 random bits need no slow hash: nothing can be guessed from it. */
export function newClientSecret(): { secret: string; secretHash: string } {
  const secret = randomBase64url(32)
  return { secret, secretHash: sha256Base64url(secret) }
}

/** Constant-time comparison of the secret's hash with the stored one. */
export function isSecretOf(secretHash: string | undefined, secret: string): boolean {
  if (!secretHash) return false
  const a = Buffer.from(sha256Base64url(secret))
  const b = Buffer.from(secretHash)
  return a.length === b.length && timingSafeEqual(a, b)
}
