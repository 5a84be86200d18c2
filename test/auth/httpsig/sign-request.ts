// Signs test requests with an independent RFC 9421 implementation (npm http-message-signatures), never with the pod's code.

import { createHash, createPrivateKey, type KeyObject } from 'node:crypto'
import { createSigner, httpbis } from 'http-message-signatures'

export interface SignOptions {
  readonly key: KeyObject
  readonly alg: string
  readonly keyid: string
  readonly method?: string
  /** The `Authorization` value that is signed and sent; default `HttpSig proof=sig1` (+ cred). */
  readonly authorization?: string
  readonly cred?: string
  /** Unix seconds; default now. */
  readonly created?: number
  readonly expires?: number
  readonly nonce?: string | null
  readonly fields?: readonly string[]
  /** Signature parameters to write, in order; default created, nonce, keyid. */
  readonly params?: readonly string[]
  readonly headers?: Record<string, string>
  /** The body to be sent: its RFC 9530 Content-Digest is computed here and covered, unless `digest` is null. */
  readonly body?: string | Uint8Array
  /** Default sha-256 when there is a body. */
  readonly digest?: 'sha-256' | 'sha-512' | null
}

/** RFC 9530 §2: `alg=:base64 of the digest of the body bytes:`, with node:crypto (not the pod's code). */
export const contentDigestOf = (body: string | Uint8Array, alg: 'sha-256' | 'sha-512' = 'sha-256') =>
  `${alg}=:${createHash(alg.replace('-', '')).update(body).digest('base64')}:`

export const privateKeyOf = (jwk: Record<string, unknown>) => createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })

/** The request headers (with Authorization, Signature-Input, Signature) for `url`. */
export async function signedHeaders(url: string, o: SignOptions): Promise<Record<string, string>> {
  const authorization = o.authorization ?? `HttpSig proof=sig1${o.cred ? `, cred="<${o.cred}>"` : ''}`
  const nonce = o.nonce === undefined ? crypto.randomUUID() : o.nonce
  const params = o.params ?? ['created', ...(nonce === null ? [] : ['nonce']), 'keyid', ...(o.expires ? ['expires'] : [])]
  const digest = o.body === undefined || o.digest === null ? undefined : contentDigestOf(o.body, o.digest)
  const signed = await httpbis.signMessage(
    {
      key: createSigner(o.key, o.alg, o.keyid),
      name: 'sig1',
      fields: [...(o.fields ?? ['@method', '@target-uri', 'authorization', ...(digest ? ['content-digest'] : [])])],
      params: [...params],
      paramValues: {
        ...(o.created !== undefined ? { created: new Date(o.created * 1000) } : {}),
        ...(o.expires !== undefined ? { expires: new Date(o.expires * 1000) } : {}),
        ...(nonce !== null ? { nonce } : {}),
      },
    },
    { method: o.method ?? 'GET', url, headers: { ...o.headers, ...(digest ? { 'content-digest': digest } : {}), authorization } },
  )
  return signed.headers as Record<string, string>
}
