// RFC 9421 §3.1: the pod signs a request of its own (a webhook delivery) with its Ed25519 key.

import { sign, type KeyObject } from 'node:crypto'
import { serializeDictionary, type InnerList, type Item } from 'structured-headers'
import { buildSignatureBase } from './signature-base.ts'

export interface SigningFacts {
  readonly method: string
  readonly targetUri: string
  /** The request's fields; every covered one must be among them. */
  readonly headers: Headers
  /** Component identifiers in the order they are signed (`@method`, `content-digest`, …). */
  readonly covered: readonly string[]
  readonly keyid: string
  readonly key: KeyObject
  /** Unix seconds. */
  readonly created: number
  /** A fresh value per request: a receiver can refuse a replay by it. */
  readonly nonce: string
  readonly label?: string
}

/**
 * The `Signature-Input` and `Signature` fields. Parameters: `created`, `nonce`, `keyid` and `alg`
 * (`ed25519`, §3.3.6, which signs the base itself), as the HttpSig verifier of the pod expects them.
 */
export function signRequest(f: SigningFacts): { 'signature-input': string; signature: string } {
  const label = f.label ?? 'sig1'
  const input: InnerList = [
    f.covered.map((c): Item => [c, new Map()]),
    new Map<string, string | number>([
      ['created', f.created],
      ['nonce', f.nonce],
      ['keyid', f.keyid],
      ['alg', 'ed25519'],
    ]),
  ]
  const base = buildSignatureBase({ method: f.method, targetUri: f.targetUri, headers: f.headers }, input)
  const bytes = sign(null, Buffer.from(base, 'ascii'), f.key)
  const signature: Item = [bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, new Map()]
  return {
    'signature-input': serializeDictionary(new Map([[label, input]])),
    signature: serializeDictionary(new Map([[label, signature]])),
  }
}
