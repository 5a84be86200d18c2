// did:key identifiers (W3C CCG did-method-key) decoded locally into public JWKs: Ed25519, P-256, P-384.

import { createPublicKey } from 'node:crypto'
import { signatureError } from './signature-base.ts'
import type { PublicJwk } from './algorithms.ts'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, i]))

/** Bitcoin base58 (multibase `z`), leading '1's as zero bytes. */
export function decodeBase58(text: string): Uint8Array | undefined {
  let n = 0n
  for (const c of text) {
    const d = DIGIT.get(c)
    if (d === undefined) return undefined
    n = n * 58n + BigInt(d)
  }
  const bytes: number[] = []
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn))
  for (const c of text) {
    if (c !== '1') break
    bytes.unshift(0)
  }
  return Uint8Array.from(bytes)
}

// did-method-key: varint multicodec prefix, raw key length, and the SPKI DER header that wraps such a key.
const CODECS = [
  { prefix: [0xed, 0x01], name: 'Ed25519', length: 32, spki: '302a300506032b6570032100' },
  { prefix: [0x80, 0x24], name: 'P-256', length: 33, spki: '3039301306072a8648ce3d020106082a8648ce3d030107032200' },
  { prefix: [0x81, 0x24], name: 'P-384', length: 49, spki: '3046301006072a8648ce3d020106052b81040022033200' },
] as const

const MAX_DID_KEY_LENGTH = 200

/**
 * The public key a `did:key:z…` (optionally `#fragment`) names. Compressed EC points are decompressed by
 * importing them, which also checks the point is on the curve (did-method-key "invalidPublicKey").
 */
export function didKeyToJwk(did: string): PublicJwk {
  if (did.length > MAX_DID_KEY_LENGTH) throw signatureError('the did:key identifier is too long')
  const id = did.slice('did:key:'.length).split('#', 1)[0]!
  if (!id.startsWith('z')) throw signatureError('a did:key must be multibase base58btc (start with "z")')
  const bytes = decodeBase58(id.slice(1))
  if (!bytes) throw signatureError('the did:key is not valid base58btc')
  const codec = CODECS.find(c => bytes[0] === c.prefix[0] && bytes[1] === c.prefix[1])
  if (!codec) throw signatureError('the did:key names a key type the pod does not support; use Ed25519, P-256 or P-384')
  const raw = bytes.subarray(2)
  if (raw.length !== codec.length) throw signatureError(`the did:key ${codec.name} key must be ${codec.length} bytes (invalidPublicKeyLength)`)
  try {
    const der = Buffer.concat([Buffer.from(codec.spki, 'hex'), raw])
    return createPublicKey({ key: der, format: 'der', type: 'spki' }).export({ format: 'jwk' }) as PublicJwk
  } catch (err) {
    throw signatureError(`the did:key ${codec.name} key is not a valid point (invalidPublicKey)`, err)
  }
}
