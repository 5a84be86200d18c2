// RFC 9449 §4.3 DPoP proof checks: one request's facts and a clock in, the proof's key and jti out.

import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto'
import { compactVerify, importJWK, type JWK } from 'jose'
import { HttpError } from '../http/errors.ts'
import { decodeCompactJwt, decodeJsonPart } from './compact-jwt.ts'
import { jwkThumbprint, jwkThumbprintSync } from '../lib/jwk-thumbprint.ts'
import { show } from '../lib/text.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'

/** RFC 9449 §4.3 (5): registered asymmetric JWS algorithms (RFC 7518 §3.1, RFC 8037); never `none` or HS*. */
export const ASYMMETRIC_JWS_ALGS: readonly string[] = Object.freeze([
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
  'Ed25519',
])

/**
 * RFC 9449 §11.1: "seconds or minutes"; the defaults of the acceptance window. One minute past: a
 * proof is made for one request just before it is sent, and every accepted proof is remembered
 * (dpop-replay.ts) for this long.
 */
export const DPOP_MAX_AGE_S = 60
export const DPOP_FUTURE_SKEW_S = 60

// Bounds on attacker-sized input: an RSA-8192 proof is under 5 000 chars; a 96-bit jti is 16.
const MAX_PROOF_CHARS = 8192
const MAX_JTI_CHARS = 256

// RFC 9449 §4.3 (7), RFC 7518 §6.2.2, §6.3.2, §6.4 and jose's AKP `priv`: members only a private key has.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth', 'priv'] as const

// RFC 7515 §7.1: BASE64URL(header) '.' BASE64URL(payload) '.' BASE64URL(signature)

export interface ProofFacts {
  /** Raw `DPoP` request header: the string, or every value when the framework gives a list. */
  readonly header: string | readonly string[] | null | undefined
  /** Request method exactly as received (`request.method`). */
  readonly method: string
  /** Absolute request URL (`request.url`); query and fragment are ignored. */
  readonly url: string
  /** Epoch milliseconds. */
  readonly now: number
  /** Access token sent with the proof (resource requests): enables the `ath` comparison. */
  readonly accessToken?: string
  /** `accessTokenHash(accessToken)` when the caller has it already (it keys the verified-token cache too). */
  readonly accessTokenHash?: string
  /** `strictAth`: refuse proofs without `ath` (default off: Inrupt's client omits it). */
  readonly requireAth?: boolean
  /** The `DPoP-Nonce` the server currently requires (RFC 9449 §8, §9); omit when nonces are off. */
  readonly expectedNonce?: string
  /** Oldest accepted proof, seconds (default 60). */
  readonly maxAgeSeconds?: number
  /** Accepted clock skew into the future, seconds (default 60). */
  readonly futureSkewSeconds?: number
  /** Local policy: the subset of ASYMMETRIC_JWS_ALGS accepted (default all of them). */
  readonly algorithms?: readonly string[]
  /** 400 at the token endpoint (RFC 9449 §5), 401 at a resource (RFC 9449 §7.1). Default 400. */
  readonly status?: 400 | 401
}

export interface VerifiedProof {
  /** RFC 7638 SHA-256 thumbprint of the proof key: compare with `cnf.jkt` (RFC 9449 §6.1). */
  readonly jkt: string
  readonly jti: string
  /** Seconds since the epoch, as in the proof. */
  readonly iat: number
  /** The proof's htu, normalised, without query or fragment: the replay-cache scope. */
  readonly htu: string
  readonly jwk: JWK
}

/** RFC 9449 §4.2 `ath`: base64url(SHA-256(ASCII(access token))), no padding. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url')
}

/**
 * RFC 9449 §4.3: every check, in the order of the list there (7 before 6, see below).
 * Throws one HttpError: `invalid_dpop_proof`, or `use_dpop_nonce` with a `DPoP-Nonce` header.
 * jti replay is stateful and lives in `dpop-replay.ts`; the cnf.jkt binding in `solid-oidc.ts`.
 */
export async function verifyDpopProof(f: ProofFacts): Promise<VerifiedProof> {
  const status = f.status ?? 400
  const fail = (description: string, cause?: unknown) => new HttpError(status, 'invalid_dpop_proof', description, { cause })
  const maxAge = f.maxAgeSeconds ?? DPOP_MAX_AGE_S
  const skew = f.futureSkewSeconds ?? DPOP_FUTURE_SKEW_S
  const algs = f.algorithms ? ASYMMETRIC_JWS_ALGS.filter(a => f.algorithms!.includes(a)) : ASYMMETRIC_JWS_ALGS
  const values = f.header == null ? [] : typeof f.header === 'string' ? [f.header] : f.header

  const proof = values[0]?.trim() ?? ''
  if (proof === '') throw fail('the DPoP header is missing; send one DPoP proof JWT')
  // (1) not more than one DPoP header; Fetch joins repeated fields with ", " and a JWS has no comma
  if (values.length > 1 || proof.includes(',')) throw fail('more than one DPoP header; send exactly one')
  // (2) a single well-formed JWT (size-bounded before any parsing)
  const { header, claims } = decodeCompactJwt(proof, { what: 'the DPoP proof', maxChars: MAX_PROOF_CHARS, shape: 'a compact JWS', fail, decodeHeader })
  const { jti, htm, htu, iat, ath, nonce } = claims
  // (3) required claims of §4.2: jti, htm, htu, iat (and ath, nonce typed when present)
  if (typeof jti !== 'string' || jti === '') throw fail('jti is missing; the proof needs a unique jti string')
  // §11.1: the server remembers jti, so absurdly long ones are refused rather than stored
  if (jti.length > MAX_JTI_CHARS) throw fail(`jti is ${jti.length} characters; at most ${MAX_JTI_CHARS} are accepted`)
  if (typeof htm !== 'string' || htm === '') throw fail(`htm is missing; expected the request method "${f.method}"`)
  if (typeof htu !== 'string' || htu === '') throw fail('htu is missing; expected the request URL without query and fragment')
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw fail('iat is missing or not a number; expected seconds since the epoch')
  if (ath !== undefined && typeof ath !== 'string') throw fail('ath must be a base64url string')
  if (nonce !== undefined && typeof nonce !== 'string') throw fail('nonce must be a string')
  // (4) typ is dpop+jwt: keeps other JWTs from being replayed as proofs
  if (normalizeTyp(header.typ) !== 'dpop+jwt') throw fail(`typ is ${show(header.typ)}; expected "dpop+jwt"`)
  // (5) alg asymmetric, not none, supported, allowed by policy
  const alg = header.alg
  if (typeof alg !== 'string' || !algs.includes(alg)) throw fail(`alg ${show(alg)} is not accepted; use one of ${algs.join(', ')}`)
  const jwk: unknown = header.jwk
  if (!isObject(jwk)) throw fail('the jwk header is missing; the proof must carry its public key')
  // (7) before (6) so a private key is never imported: jwk has no private members
  const leaked = PRIVATE_MEMBERS.filter(m => m in jwk)
  if (leaked.length > 0) throw fail(`jwk contains private key members (${leaked.join(', ')}); send the public key only`)
  // (6) the signature verifies with the header jwk, under the alg just checked
  if ('crit' in header) throw fail('the proof header has crit extensions this pod does not understand')
  let jkt: string
  if (alg === 'ES256') jkt = verifyEs256(proof, header, jwk, fail)
  else {
    const key = await importJWK(jwk as JWK, alg).catch((cause: unknown) => {
      throw fail(`jwk is not a valid public key for ${alg}`, cause)
    })
    await compactVerify(proof, key, { algorithms: [alg] }).catch((cause: unknown) => {
      throw fail('the proof signature does not verify with its jwk', cause)
    })
    jkt = await jwkThumbprint(jwk as JWK)
  }
  // (8) htm equals the request method, case-sensitive
  if (htm !== f.method) throw fail(`htm is ${show(htm)}; expected "${f.method}" (case-sensitive)`)
  // (9) htu equals the request URI without query and fragment, after RFC 3986 §6.2.2–6.2.3 normalisation
  const proofHtu = normalizeHtu(htu)
  if (proofHtu === undefined) throw fail(`htu ${show(htu)} is not an absolute http(s) URL`)
  const requestHtu = normalizeHtu(f.url)
  if (proofHtu !== requestHtu) throw fail(`htu ${show(htu)} does not match the request URL; expected ${requestHtu}`)
  // (10) when the server issued a nonce, the proof carries it (§8 and §9: answer use_dpop_nonce + DPoP-Nonce)
  if (f.expectedNonce !== undefined && nonce !== f.expectedNonce) {
    const description =
      nonce === undefined
        ? 'the proof has no nonce; resend it with the DPoP-Nonce value'
        : 'nonce is not the current DPoP-Nonce; resend the proof with the DPoP-Nonce value'
    throw new HttpError(status, 'use_dpop_nonce', description, { headers: { 'DPoP-Nonce': f.expectedNonce } })
  }
  // (11) iat inside the acceptance window (§11.1), with a small future skew
  const nowS = f.now / 1000
  if (nowS - iat > maxAge) throw fail(`iat is ${Math.ceil(nowS - iat)} s in the past; proofs must be at most ${maxAge} s old — check the client's clock`)
  if (iat - nowS > skew) throw fail(`iat is ${Math.ceil(iat - nowS)} s in the future; at most ${skew} s of clock skew is allowed — check the client's clock`)
  // (12) ath equals the hash of the presented token; absence tolerated unless strict (RFC 9449 §4.3 makes ath required; Inrupt's client omits it)
  if (f.requireAth && ath === undefined) throw fail('ath is missing; a proof sent with an access token must carry ath = base64url(SHA-256(token))')
  if (ath !== undefined && f.accessToken !== undefined && ath !== (f.accessTokenHash ?? accessTokenHash(f.accessToken)))
    throw fail('ath does not match the SHA-256 hash of the access token presented with the proof')
  return { jkt, jti, iat, htu: proofHtu, jwk: jwk as JWK }
}

/**
 * RFC 9449 §4.3 (9): RFC 3986 §6.2.2 syntax-based (case, percent-encoding, dot segments) and §6.2.3
 * scheme-based (default port, empty path = "/") normalisation; query and fragment dropped.
 * WHATWG URL does all but the percent-encoding part, done below. `undefined` unless absolute http(s).
 */
export function normalizeHtu(value: string): string | undefined {
  return normalizedHtus.memo(value, normalize)
}

/**
 * The htus seen last, normalised: a client sends the same few URLs over and over, and the proof's
 * and the request's are both normalised on every request. Bounded, so distinct URLs only evict.
 */
const normalizedHtus = forgetWhenIdle(new LruCache<string, string | undefined>(1024))

function normalize(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined
  const u = new URL(value)
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined
  const userinfo = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : ''
  return `${u.protocol}//${userinfo}${u.host}${normalizePercentEncoding(u.pathname)}`
}

// RFC 3986 §6.2.2.1–6.2.2.2: uppercase hex digits, decode octets that are unreserved characters
const normalizePercentEncoding = (path: string) =>
  path.replace(/%[0-9A-Fa-f]{2}/g, m => {
    const c = String.fromCharCode(Number.parseInt(m.slice(1), 16))
    return /[A-Za-z0-9\-._~]/.test(c) ? c : m.toUpperCase()
  })

// RFC 7515 §4.1.9: typ is a media type, compared case-insensitively, "application/" optional
const normalizeTyp = (typ: unknown) => (typ === 'dpop+jwt' ? typ : typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : undefined)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// Attacker-supplied values go into descriptions quoted and cut short.

/**
 * Proof headers decoded last, by their base64url text: a client signs every proof with one header (typ,
 * alg, its jwk), so the same bytes are decoded to the same, frozen, object (~1 µs of base64 and JSON a
 * request). Every check of the header still runs on every proof. Distinct headers only evict.
 */
const decodedHeaders = forgetWhenIdle(new LruCache<string, Record<string, unknown> | undefined>(1024))

const decodeHeader = (part: string) => decodedHeaders.memo(part, decodeFrozen)

function decodeFrozen(part: string): Record<string, unknown> | undefined {
  const header = decodeJsonPart(part)
  if (header && isObject(header.jwk)) Object.freeze(header.jwk)
  return header && Object.freeze(header)
}

/**
 * P-256 keys imported last, with their RFC 7638 thumbprint, by their coordinates: a client signs every
 * proof with one key, and importing it (~6 µs) and hashing its thumbprint (~3 µs) each time was a
 * tenth of a DPoP request's work besides the signature. ~400 bytes an entry; distinct keys only evict.
 */
const importedKeys = forgetWhenIdle(new LruCache<string, ImportedKey>(1024))

interface ImportedKey {
  readonly key: KeyObject
  readonly jkt: string
}

/** The key of a decoded (frozen, cached) header, found without building its coordinates' string each time. */
const keysOfHeaders = new WeakMap<object, ImportedKey>()

/**
 * ES256 is what Solid clients send on every request; node:crypto verifies it with less CPU than
 * WebCrypto (measured 20k against 16k verifications per CPU-second), and a DPoP request's cost is
 * this one verification. Returns the key's thumbprint.
 */
function verifyEs256(proof: string, header: object, jwk: Record<string, unknown>, fail: (why: string, cause?: unknown) => HttpError): string {
  let imported = keysOfHeaders.get(header)
  if (!imported) {
    imported = importEs256Key(jwk, fail)
    keysOfHeaders.set(header, imported)
  }
  const dot = proof.lastIndexOf('.')
  // RFC 7515 §7.1: the signing input is ASCII (the proof passed the compact-JWS shape check), so latin1 is its bytes
  const signingInput = Buffer.from(proof.slice(0, dot), 'latin1')
  const signature = Buffer.from(proof.slice(dot + 1), 'base64url')
  let ok = false
  try {
    // RFC 7518 §3.4: an ES256 signature is R || S, 32 octets each
    ok = signature.length === 64 && verifySignature('sha256', signingInput, { key: imported.key, dsaEncoding: 'ieee-p1363' }, signature)
  } catch (cause) {
    throw fail('the proof signature does not verify with its jwk', cause)
  }
  if (!ok) throw fail('the proof signature does not verify with its jwk')
  return imported.jkt
}

function importEs256Key(jwk: Record<string, unknown>, fail: (why: string, cause?: unknown) => HttpError): ImportedKey {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw fail('jwk is not a valid public key for ES256: expected an EC P-256 key')
  }
  const coordinates = `${jwk.x}.${jwk.y}`
  let imported = importedKeys.get(coordinates)
  if (!imported) {
    const publicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }
    try {
      // refuses a point off the curve, or coordinates of the wrong length
      imported = { key: createPublicKey({ key: publicJwk, format: 'jwk' }), jkt: jwkThumbprintSync(publicJwk) }
    } catch (cause) {
      throw fail('jwk is not a valid public key for ES256', cause)
    }
    importedKeys.set(coordinates, imported)
  }
  return imported
}
