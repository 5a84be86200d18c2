// HttpSig key documents: a public JWK as `sec:publicKeyJwk` (rdf:JSON), its checks, and `cert:key` links.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../../http/errors.ts'
import { CERT, RDF, SEC } from '../../rdf/namespaces.ts'
import { algsForKey, importPublicJwk, type PublicJwk } from './algorithms.ts'

const PUBLIC_KEY_JWK = SEC('publicKeyJwk')
const RDF_JSON = RDF('JSON')

// RFC 7518 §6.2.2, §6.3.2, §6.4.1, RFC 8037 §2: members that only a private (or secret) key has.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']
const BASE64URL = /^[A-Za-z0-9_-]+$/
// Raw coordinate lengths per curve (RFC 7518 §6.2.1.2, RFC 8037 §2).
const CURVE_BYTES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  EC: { 'P-256': 32, 'P-384': 48 },
  OKP: { Ed25519: 32 },
}
const MIN_RSA_BITS = 2048 // NIST SP 800-131A: shorter RSA keys are disallowed for signatures

const bytesOf = (v: string) => Buffer.from(v, 'base64url')

/**
 * Why `value` is not a public signing JWK the pod can verify with, naming the member; undefined when it is.
 * Used when a key document is written (400) and when one is read to verify (401).
 */
export function publicJwkProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'publicKeyJwk must be a JSON object'
  const jwk = value as Record<string, unknown>
  for (const m of PRIVATE_MEMBERS) {
    if (m in jwk) return `publicKeyJwk must not contain the private member "${m}": publish only the public key`
  }
  const b64 = (member: string): string | undefined => {
    const v = jwk[member]
    if (typeof v !== 'string' || !BASE64URL.test(v)) return `publicKeyJwk member "${member}" must be base64url (no padding)`
    return undefined
  }
  const kty = jwk.kty
  if (kty === 'EC' || kty === 'OKP') {
    const curves = CURVE_BYTES[kty]!
    if (typeof jwk.crv !== 'string' || !Object.hasOwn(curves, jwk.crv))
      return `publicKeyJwk member "crv" must be one of ${Object.keys(curves).join(', ')} for kty ${kty}`
    for (const m of kty === 'EC' ? ['x', 'y'] : ['x']) {
      const problem = b64(m)
      if (problem) return problem
      if (bytesOf(jwk[m] as string).length !== curves[jwk.crv]) return `publicKeyJwk member "${m}" must be ${curves[jwk.crv]} bytes for ${jwk.crv}`
    }
  } else if (kty === 'RSA') {
    const problem = b64('n') ?? b64('e')
    if (problem) return problem
    const n = bytesOf(jwk.n as string)
    const start = n.findIndex(b => b !== 0)
    const bits = start < 0 ? 0 : (n.length - start - 1) * 8 + 32 - Math.clz32(n[start]!)
    if (bits < MIN_RSA_BITS) return `publicKeyJwk member "n": the RSA key has ${bits} bits, at least ${MIN_RSA_BITS} are required`
  } else {
    return 'publicKeyJwk member "kty" must be EC, OKP or RSA'
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'publicKeyJwk member "use" must be "sig"'
  if (jwk.alg !== undefined && algsForKey(jwk as PublicJwk).length === 0) return `publicKeyJwk member "alg" does not fit this ${kty} key`
  try {
    importPublicJwk(jwk as PublicJwk)
  } catch {
    return `publicKeyJwk does not describe a valid ${kty} public key (e.g. the point is not on the curve)`
  }
  return undefined
}

/**
 * The check on every RDF write: each `sec:publicKeyJwk` must be a usable public key, so a private key is
 * never stored (and served) and a key document that cannot verify anything is refused when it is written.
 */
export function checkKeyDocument(quads: readonly Quad[]): void {
  for (const q of quads) {
    if (q.predicate.value !== PUBLIC_KEY_JWK) continue
    if (q.object.termType !== 'Literal' || q.object.datatype.value !== RDF_JSON) {
      throw new HttpError(400, 'invalid_key', 'sec:publicKeyJwk must be an rdf:JSON literal (in JSON-LD: publicKeyJwk as an object under the JWS-2020 context)')
    }
    const problem = publicJwkProblem(JSON.parse(q.object.value))
    if (problem) throw new HttpError(400, 'invalid_key', problem)
  }
}

/** The public key `keyUrl` names in its document: `<keyUrl> sec:publicKeyJwk "{…}"^^rdf:JSON`. */
export function findPublicKey(quads: readonly Quad[], keyUrl: string): { jwk?: PublicJwk; problem?: string } {
  const q = quads.find(t => t.subject.value === keyUrl && t.predicate.value === PUBLIC_KEY_JWK)
  if (!q) return { problem: 'no such key: its document does not exist (a deleted key no longer verifies) or does not describe it with sec:publicKeyJwk' }
  if (q.object.termType !== 'Literal' || q.object.datatype.value !== RDF_JSON)
    return { problem: `the sec:publicKeyJwk of <${keyUrl}> is not an rdf:JSON literal` }
  let jwk: unknown
  try {
    jwk = JSON.parse(q.object.value)
  } catch {
    return { problem: `the sec:publicKeyJwk of <${keyUrl}> is not JSON` }
  }
  const problem = publicJwkProblem(jwk)
  return problem ? { problem } : { jwk: jwk as PublicJwk }
}

/** HttpSig step 7: a WebID profile proves its agent holds a key by `<webid> cert:key <keyUrl>`. */
export const linksKey = (quads: readonly Quad[], webid: string, keyUrl: string) =>
  quads.some(q => q.subject.value === webid && q.predicate.value === CERT('key') && q.object.value === keyUrl)

const VC_TYPES = ['https://www.w3.org/2018/credentials#VerifiableCredential', 'https://www.w3.org/ns/credentials/v2#VerifiableCredential']

/** Is this document a Verifiable Credential (which the pod cannot evaluate yet)? */
export const isVerifiableCredential = (quads: readonly Quad[]) => quads.some(q => q.predicate.value === RDF('type') && VC_TYPES.includes(q.object.value))

/**
 * What verification needs of a key document or WebID profile, and nothing else: each key it describes
 * (usable or why not), its `cert:key` links, whether it is a credential. Kept instead of the triples: a
 * document's facts are a fraction of its parsed form (~20 times its bytes).
 */
export interface KeyDocumentFacts {
  /** Every subject with a `sec:publicKeyJwk`: its usable JWK, or why it cannot be used. */
  readonly keys: ReadonlyMap<string, { readonly jwk?: PublicJwk; readonly problem?: string }>
  /** `<subject>\n<key>` of every `cert:key` statement. */
  readonly certKeys: ReadonlySet<string>
  readonly isCredential: boolean
  /** A rough size in bytes, for byte-bounded caches. */
  readonly weight: number
}

export const NO_FACTS: KeyDocumentFacts = Object.freeze({ keys: new Map(), certKeys: new Set<string>(), isCredential: false, weight: 0 })

export function keyDocumentFacts(quads: readonly Quad[]): KeyDocumentFacts {
  const keys = new Map<string, { jwk?: PublicJwk; problem?: string }>()
  const certKeys = new Set<string>()
  let weight = 0
  for (const q of quads) {
    if (q.predicate.value === PUBLIC_KEY_JWK && !keys.has(q.subject.value)) {
      keys.set(q.subject.value, findPublicKey(quads, q.subject.value))
      weight += q.subject.value.length + q.object.value.length
    } else if (q.predicate.value === CERT('key')) {
      certKeys.add(`${q.subject.value}\n${q.object.value}`)
      weight += q.subject.value.length + q.object.value.length
    }
  }
  return { keys, certKeys, isCredential: isVerifiableCredential(quads), weight }
}

/** findPublicKey on a document's facts. */
export const publicKeyIn = (facts: KeyDocumentFacts, keyUrl: string): { jwk?: PublicJwk; problem?: string } =>
  facts.keys.get(keyUrl) ?? findPublicKey([], keyUrl)

/** linksKey on a document's facts. */
export const factsLinkKey = (facts: KeyDocumentFacts, webid: string, keyUrl: string) => facts.certKeys.has(`${webid}\n${keyUrl}`)
