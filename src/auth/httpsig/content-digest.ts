// RFC 9530 Content-Digest of a signed request: which requests must sign one, parsing it, checking it against the body (pure).

import { createHash, timingSafeEqual } from 'node:crypto'
import { parseDictionary, type InnerList, type Item } from 'structured-headers'
import { signatureError } from './signature-base.ts'

/** RFC 9530 §7.2 algorithms with status "Active"; the deprecated ones (md5, sha, crc32c, …) are ignored. */
export const DIGEST_ALGS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const
export type DigestAlg = keyof typeof DIGEST_ALGS

/** The members of a Content-Digest field the pod can check: algorithm → digest bytes. */
export type ContentDigest = ReadonlyMap<DigestAlg, Uint8Array>

/**
 * What a verified HttpSig signature says of the body it came with: the Content-Digest it covered, or none,
 * in which case the body must be empty. The resource server checks it where it reads the body.
 */
export interface SignedBody {
  readonly contentDigest: ContentDigest | undefined
}

/**
 * A request whose headers announce content (Content-Length > 0) must cover `content-digest`, and is refused
 * before any key is fetched when it does not. A chunked body has no length up front: its bytes are checked when
 * read (`checkBodyDigest`). An empty body (Content-Length: 0, or none) needs no digest: a body added on the way
 * makes the request announce content, and the signature then lacks the digest.
 */
export const declaresContent = (headers: Headers) => Number(headers.get('content-length') ?? '0') > 0

/** Whether a refused request may carry content: then the challenge asks for `content-digest` too. */
export const mayHaveContent = (headers: Headers) => declaresContent(headers) || headers.has('transfer-encoding')

/** The reason of a refused body without a covered digest, the same wherever it is found missing. */
export const DIGEST_REQUIRED =
  'a request with a body must send Content-Digest (RFC 9530, sha-256 or sha-512) and the signature must cover the whole content-digest field (see Accept-Signature)'

const isKnownAlg = (alg: string): alg is DigestAlg => Object.hasOwn(DIGEST_ALGS, alg)

/** RFC 9530 §2: a Dictionary of algorithm → Byte Sequence; unknown algorithms are ignored, at least one known is needed. */
export function parseContentDigest(raw: string | null): ContentDigest {
  if (raw === null) throw signatureError('the signature covers content-digest but the request has no Content-Digest field')
  let dict: Map<string, Item | InnerList>
  try {
    dict = parseDictionary(raw)
  } catch (err) {
    throw signatureError('Content-Digest is not a structured Dictionary (RFC 9530 §2)', err)
  }
  const digests = new Map<DigestAlg, Uint8Array>()
  for (const [alg, member] of dict) {
    if (!isKnownAlg(alg)) continue
    if (!(member[0] instanceof ArrayBuffer)) throw signatureError(`Content-Digest member ${alg} must be a byte sequence (:base64:)`)
    digests.set(alg, new Uint8Array(member[0]))
  }
  if (digests.size === 0) throw signatureError(`Content-Digest must carry a digest the pod can check: ${Object.keys(DIGEST_ALGS).join(' or ')}`)
  return digests
}

/**
 * RFC 9530 §2 over the body as received (after transfer decoding, before anything else): every known digest
 * must match, compared in constant time. Without a covered digest the body must be empty.
 */
export function checkBodyDigest(signed: SignedBody, body: Uint8Array): void {
  const check = bodyDigestCheck(signed)
  check.observe(body)
  check.verify()
}

/** The same check over a body seen chunk by chunk as it streams to disk: `observe` each chunk, then `verify`. */
export function bodyDigestCheck(signed: SignedBody): { observe(chunk: Uint8Array): void; verify(): void } {
  const expected = signed.contentDigest
  let seen = 0
  const hashers = [...(expected ?? [])].map(([alg, digest]) => ({ alg, digest, hash: createHash(DIGEST_ALGS[alg]) }))
  return {
    observe(chunk) {
      seen += chunk.byteLength
      for (const h of hashers) h.hash.update(chunk)
    },
    verify() {
      if (expected === undefined) {
        if (seen > 0) throw signatureError(DIGEST_REQUIRED)
        return
      }
      for (const { alg, digest, hash } of hashers) {
        const actual = hash.digest()
        if (actual.byteLength !== digest.byteLength || !timingSafeEqual(actual, digest)) {
          throw signatureError(
            `the body does not match the signed Content-Digest (${alg}): it changed after it was signed, or the digest was computed over other bytes`,
          )
        }
      }
    },
  }
}

/** RFC 9530 §2: the Content-Digest of `body` as a sender writes it, with sha-256. */
export const contentDigestOf = (body: string | Uint8Array) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
