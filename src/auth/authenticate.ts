// Step 1 of the pipeline (docs/architecture.md, request pipeline): the Authorization scheme picks the verifier.

import { decodeJwt } from 'jose'
import type { FetchDoc } from '../fetch/guarded-fetch.ts'
import type { Store } from '../store/open-store.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import type { SessionRevocations } from './app-sessions.ts'
import { ASYMMETRIC_JWS_ALGS, verifyDpopProof } from './dpop.ts'
import { JtiReplayCache, jtiExpiry } from './dpop-replay.ts'
import { makeIssuerKeyResolver } from './issuer-keys.ts'
import type { SigningKeys } from './signing-keys.ts'
import { ANONYMOUS, type Principal } from './principal.ts'
import { verifySolidAccessToken, type VerifiedAccessToken } from './solid-oidc.ts'
import { makeWebIdIssuerResolver } from './webid-issuers.ts'
import { sha256Base64url } from '../lib/text.ts'

export type Authenticate = (request: Request) => Promise<Principal>

/** RFC 9449 §7.1 `algs`: the proof algorithms we accept, ES256 first. */
export const DPOP_ALGS = ASYMMETRIC_JWS_ALGS.join(' ')

const TOKEN_CACHE_ENTRIES = 10_000

interface CachedToken extends VerifiedAccessToken {
  /** Our own tokens name their app session, so a revocation reaches them before they expire. */
  readonly sid?: string
}

/**
 * RFC 6750 §3: error_description is a quoted-string of %x20-21 / %x23-5B / %x5D-7E; our
 * descriptions quote values with `"` and use dashes, so those are replaced, not escaped.
 */
const quotable = (s: string) => s.replace(/"/g, "'").replace(/\\/g, '/').replace(/[^\x20-\x7e]/g, '-')

/** RFC 9449 §7.1: the challenge of a refused DPoP request, with the reason in `error`. */
export function dpopChallenge(code: string, description: string): string {
  return `DPoP error="${code}", error_description="${quotable(description)}", algs="${DPOP_ALGS}"`
}

const refuse = (code: 'invalid_token' | 'invalid_dpop_proof', description: string, cause?: unknown) =>
  new HttpError(401, code, description, { cause, headers: { 'www-authenticate': dpopChallenge(code, description) } })

/** An HttpError of a verifier, re-sent as a 401 with its challenge (RFC 9449 §7.1). */
const withChallenge = (err: unknown): unknown => {
  if (!(err instanceof HttpError) || err.status !== 401) return err
  const code = err.code === 'invalid_dpop_proof' ? 'invalid_dpop_proof' : 'invalid_token'
  return refuse(code, err.description, err.cause)
}

// RFC 9110 §11.6.2 credentials: auth-scheme [ 1*SP token68 ]; repeated headers arrive joined by ", ".
const CREDENTIAL = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +([A-Za-z0-9\-._~+/]+=*))?$/

function parseAuthorization(header: string): { scheme: string; token: string | undefined }[] {
  return header.split(',').map((part) => part.trim()).filter((p) => p !== '').map((part) => {
    const m = CREDENTIAL.exec(part)
    if (!m) throw badRequest('the Authorization header is malformed: expected "<scheme> <token>"')
    return { scheme: m[1]!.toLowerCase(), token: m[2] }
  })
}

/** RFC 9449 §7.2: a token carrying `cnf` is bound to a key and must never be accepted as a Bearer token. */
function isDpopBound(token: string): boolean {
  try {
    const cnf = decodeJwt(token).cnf as { jkt?: unknown } | undefined
    return typeof cnf?.jkt === 'string'
  } catch {
    return false // not a JWT: certainly not one of ours with cnf; refused below as an unknown Bearer token
  }
}


/**
 * The authenticator the resource server (and userinfo) calls once per request. `DPoP`: proof
 * (RFC 9449 §4.3, incl. ath when sent), jti replay, then the token (Solid-OIDC §8, RFC 9449 §6), whose
 * verification is cached until it expires, so a repeated token costs one proof verification.
 */
export interface AuthenticatorDeps {
  /** Our own origin: the issuer whose keys are read locally and the origin DPoP `htu` is checked against. */
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
  readonly fetchDoc: FetchDoc
  readonly signingKeys: SigningKeys
  readonly revocations: SessionRevocations
}

export function makeAuthenticator(deps: AuthenticatorDeps): Authenticate {
  const { baseUrl, store, now } = deps
  const replay = new JtiReplayCache()
  const verified = new LruCache<string, CachedToken>(TOKEN_CACHE_ENTRIES)
  const getIssuerKeys = makeIssuerKeyResolver({ baseUrl, ownJwks: deps.signingKeys.publicJwks, fetchDoc: deps.fetchDoc, now })
  const getWebIdIssuers = makeWebIdIssuerResolver(deps.fetchDoc)

  async function verifyToken(token: string, proof: Awaited<ReturnType<typeof verifyDpopProof>>, at: number): Promise<CachedToken> {
    const key = sha256Base64url(token)
    const hit = verified.get(key, at)
    if (hit) {
      // RFC 9449 §7.1: the binding is checked on every request, cached or not
      if (hit.jkt !== proof.jkt) throw refuse('invalid_token', "the DPoP proof key does not match the token's cnf.jkt; sign proofs with the key the token was issued to")
      return hit
    }
    const result = await verifySolidAccessToken({ token, proof, now: at, getIssuerKeys, getWebIdIssuers })
    const sid = result.issuer === baseUrl ? decodeJwt(token).sid : undefined
    const entry: CachedToken = { ...result, ...(typeof sid === 'string' ? { sid } : {}) }
    verified.set(key, entry, result.exp * 1000)
    return entry
  }

  async function authenticateDpop(request: Request, token: string): Promise<Principal> {
    const at = now()
    // RFC 9449 §4.3 (9): htu is checked against our configured origin, never the Host header
    const url = baseUrl + new URL(request.url).pathname
    const proof = await verifyDpopProof({ header: request.headers.get('dpop'), method: request.method, url, now: at, accessToken: token, status: 401 })
    // RFC 9449 §11.1: a proof is used once
    if (!replay.remember(proof.jti, proof.htu, jtiExpiry(proof.iat), at)) throw refuse('invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request')
    const t = await verifyToken(token, proof, at)
    if (t.sid !== undefined && await deps.revocations.isRevoked(t.sid, at)) throw refuse('invalid_token', 'the session this token was issued to has been revoked; sign in again')
    return { webid: t.webid, ...(t.clientId !== undefined ? { clientId: t.clientId } : {}), issuer: t.issuer, keys: [], scheme: 'DPoP' }
  }

  return async (request) => {
    const header = request.headers.get('authorization')
    // An empty `Authorization:` (some clients send one when anonymous) carries no credentials:
    // RFC 9110 §11.6.2 needs at least a scheme, and other Solid servers read it as anonymous too.
    if (header === null || header.trim() === '') return ANONYMOUS
    const credentials = parseAuthorization(header)
    const schemes = new Set(credentials.map((c) => c.scheme))
    // RFC 9449 §7.1, RFC 6750 §3.1: Bearer and DPoP together are ambiguous
    if (schemes.has('dpop') && schemes.has('bearer')) throw badRequest('the request carries both Bearer and DPoP credentials; send exactly one')
    if (credentials.length !== 1) throw badRequest('the Authorization header must carry exactly one credential')
    const { scheme, token } = credentials[0]!
    if (scheme === 'dpop') {
      if (!token) throw refuse('invalid_token', 'the DPoP scheme needs an access token: "Authorization: DPoP <token>"')
      try { return await authenticateDpop(request, token) } catch (err) { throw withChallenge(err) }
    }
    if (scheme === 'bearer' && token && isDpopBound(token)) {
      throw refuse('invalid_token', 'this access token is DPoP-bound (it has cnf.jkt): send it as "Authorization: DPoP <token>" with a DPoP proof, not as Bearer')
    }
    // A credential we cannot check is refused, never downgraded to anonymous.
    throw new HttpError(401, 'invalid_token', `the ${scheme} authorization scheme is not accepted by this pod; use DPoP`,
      { headers: { 'www-authenticate': `DPoP algs="${DPOP_ALGS}"` } })
  }
}
