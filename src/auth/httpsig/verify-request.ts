// RFC 9421 §3.2 verification of one request signature with the HttpSig application requirements (pure).

import { parseDictionary, type InnerList, type Item } from 'structured-headers'
import { algsForKey, isSignatureAlg, SIGNATURE_ALGS, verifySignatureBytes, type PublicJwk, type SignatureAlg, type VerificationKey } from './algorithms.ts'
import { buildSignatureBase, signatureError, type RequestFacts } from './signature-base.ts'
import { DIGEST_REQUIRED, parseContentDigest, type ContentDigest } from './content-digest.ts'

/** How far `created` may lie in the past and in the future (clock skew), in seconds. */
export const CREATED_MAX_AGE_S = 60
export const CREATED_MAX_SKEW_S = 5
const MAX_NONCE_LENGTH = 256

export interface SignedRequestFacts extends RequestFacts {
  /** The signature label the credential names (`proof=`). */
  readonly label: string
  /** Components that must be covered, as identifiers without parameters (`@method`, `authorization`). */
  readonly required: readonly string[]
  /** Epoch ms. */
  readonly now: number
  /** The public key `keyid` names; throws an HttpError when there is none. */
  readonly resolveKey: (keyid: string) => Promise<VerificationKey>
}

export interface VerifiedSignature {
  readonly keyid: string
  readonly alg: SignatureAlg
  readonly nonce: string
  /** Epoch ms after which the nonce need not be remembered: the window refuses the signature by then. */
  readonly replayUntil: number
  /** RFC 9530: the Content-Digest field, when the signature covers it whole; the body is checked against it where it is read. */
  readonly contentDigest?: ContentDigest
}

/**
 * Checks in the order of RFC 9421 §3.2: both fields and the label (steps 1–3), the application's
 * requirements (step 4: covered components, a checkable Content-Digest when covered, created window,
 * expires, nonce present), the key and its
 * algorithm (steps 5–6), the base (step 7) and the signature (step 8). The nonce is remembered by the
 * caller afterwards.
 */
export async function verifySignedRequest(f: SignedRequestFacts): Promise<VerifiedSignature> {
  const input = dictionaryMember(f.headers, 'signature-input', f.label)
  const signature = dictionaryMember(f.headers, 'signature', f.label)
  if (!Array.isArray(input[0])) throw signatureError(`Signature-Input member ${f.label} must be an inner list of components`)
  if (!(signature[0] instanceof ArrayBuffer)) throw signatureError(`Signature member ${f.label} must be a byte sequence (:base64:)`)
  const [items, params] = input as InnerList
  const sigBytes = new Uint8Array(signature[0])

  // §2.1.2: `;key` covers one member of a Dictionary, not the field: an unsigned member could be added beside it.
  const covered = new Set(items.filter(i => !i[1].has('key')).map(i => i[0]))
  const missing = f.required.filter(c => !covered.has(c))
  if (missing.includes('content-digest')) throw signatureError(DIGEST_REQUIRED)
  if (missing.length > 0) throw signatureError(`the signature must cover ${missing.join(', ')} (see Accept-Signature)`)
  const contentDigest = covered.has('content-digest') ? parseContentDigest(f.headers.get('content-digest')) : undefined

  const created = params.get('created')
  if (!Number.isInteger(created)) throw signatureError('the signature needs a created parameter (integer seconds)')
  const createdMs = (created as number) * 1000
  if (createdMs < f.now - CREATED_MAX_AGE_S * 1000) throw signatureError(`created is more than ${CREATED_MAX_AGE_S} s in the past; sign each request afresh`)
  if (createdMs > f.now + CREATED_MAX_SKEW_S * 1000) throw signatureError(`created is more than ${CREATED_MAX_SKEW_S} s in the future; check the client clock`)
  const expires = params.get('expires')
  if (expires !== undefined && !Number.isInteger(expires)) throw signatureError('expires must be an integer')
  if (expires !== undefined && (expires as number) * 1000 <= f.now) throw signatureError('the signature has expired (expires is past)')
  const nonce = params.get('nonce')
  if (typeof nonce !== 'string' || nonce === '') throw signatureError('the signature needs a nonce parameter, unique per request')
  if (nonce.length > MAX_NONCE_LENGTH) throw signatureError(`the nonce is longer than ${MAX_NONCE_LENGTH} characters`)
  const keyid = params.get('keyid')
  if (typeof keyid !== 'string' || keyid === '') throw signatureError('the signature needs a keyid parameter: the URL of the signing key')
  const algParam = params.get('alg')
  if (algParam !== undefined && (typeof algParam !== 'string' || !isSignatureAlg(algParam))) {
    throw signatureError(`alg must be one of ${SIGNATURE_ALGS.join(', ')}`)
  }

  // The base first: a malformed message is refused before any key is fetched.
  const base = buildSignatureBase(f, input as InnerList)
  const { jwk, key } = await f.resolveKey(keyid)
  const alg = chooseAlg(jwk, algParam)
  if (!verifySignatureBytes(alg, key, new TextEncoder().encode(base), sigBytes)) {
    throw signatureError(`the signature does not verify with the key ${keyid}: the signed components differ from this request, or another key signed it`)
  }
  const windowEnd = createdWindowEnd(created as number)
  const replayUntil = expires === undefined ? windowEnd : Math.min(windowEnd, (expires as number) * 1000)
  return { keyid, alg, nonce, replayUntil, ...(contentDigest ? { contentDigest } : {}) }
}

/**
 * When a signature with this `created` (seconds) leaves the window, in epoch ms: it is still accepted
 * at created + max age exactly (the check is strict), so its nonce is remembered a millisecond past it.
 */
export function createdWindowEnd(created: number): number {
  return (created + CREATED_MAX_AGE_S) * 1000 + 1
}

// §3.2 step 6: the algorithm comes from the key; an `alg` parameter must agree with it.
function chooseAlg(jwk: PublicJwk, algParam: SignatureAlg | undefined): SignatureAlg {
  const allowed = algsForKey(jwk)
  if (allowed.length === 0) throw signatureError('the key is not usable for any supported signature algorithm')
  if (algParam !== undefined) {
    if (!allowed.includes(algParam)) throw signatureError(`alg ${algParam} does not match the key, which is for ${allowed.join(' or ')}`)
    return algParam
  }
  if (allowed.length > 1) throw signatureError(`the key fits ${allowed.join(' and ')}: name one with the alg parameter`)
  return allowed[0]!
}

function dictionaryMember(headers: Headers, field: 'signature-input' | 'signature', label: string): Item | InnerList {
  const name = field === 'signature' ? 'Signature' : 'Signature-Input'
  const raw = headers.get(field)
  if (raw === null) throw signatureError(`the request has no ${name} field`)
  let dict: Map<string, Item | InnerList>
  try {
    dict = parseDictionary(raw)
  } catch (err) {
    throw signatureError(`${name} is not a structured Dictionary (RFC 8941)`, err)
  }
  const member = dict.get(label)
  if (member === undefined) throw signatureError(`${name} has no member ${label} (the proof label of the Authorization header)`)
  return member
}
