// The resource server's "authenticate" (docs/architecture.md, the request pipeline, 3): the Authorization scheme picks the verifier.

import { decodeJwt } from 'jose'
import type { Store } from '../store/open-store.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import type { FetchDoc } from '../fetch/guarded-fetch.ts'
import type { SessionRevocations } from '../account/app-sessions.ts'
import { parseAuthorization } from '../http/credentials.ts'
import { methodAsSent } from '../http/head-as-get.ts'
import { verifyDpopProof } from './dpop.ts'
import { bearerChallenge, dpopChallenge } from './challenges.ts'
import { checkJti, JtiReplayCache, jtiExpiry } from './dpop-replay.ts'
import type { GetIssuerKeys, GetWebIdIssuers } from './issuer-checks.ts'
import type { SigningKeys } from '../account/signing-keys.ts'
import { ANONYMOUS, type Principal } from './principal.ts'
import { verifySolidAccessToken, type VerifiedAccessToken } from './solid-oidc.ts'
import { isUmaAccessToken, verifyUmaAccessToken, type VerifiedUmaToken } from './uma-token.ts'
import { makeHttpSigAuthenticator } from './httpsig/http-sig.ts'
import type { NonceCache } from './httpsig/nonce-cache.ts'
import type { ReadableByPublic } from './httpsig/key-lookup.ts'
import { sha256Base64url } from '../lib/text.ts'

export type Authenticate = (request: Request) => Promise<Principal>

const TOKEN_CACHE_ENTRIES = 10_000
/**
 * A verification is reused at most this long, whatever the token's exp: the issuer's keys, the
 * WebID's issuers and the token's own revocation can change under a long-lived token.
 */
export const TOKEN_CACHE_MAX_MS = 2 * 60_000

interface CachedToken extends VerifiedAccessToken {
  /** Our own tokens name their app session, so a revocation reaches them before they expire. */
  readonly sid?: string
}

/** RFC 9449 §7.1: a refused DPoP request, with the reason in its challenge. */
export const refuseDpop = (code: 'invalid_token' | 'invalid_dpop_proof', description: string, cause?: unknown) =>
  new HttpError(401, code, description, { cause, headers: { 'www-authenticate': dpopChallenge({ code, description }) } })

/** RFC 6750 §3: a refused Bearer request. */
const refuseBearer = (description: string, cause?: unknown) =>
  new HttpError(401, 'invalid_token', description, { cause, headers: { 'www-authenticate': bearerChallenge({ code: 'invalid_token', description }) } })

/** An HttpError of a verifier, re-sent as a 401 with its challenge (RFC 9449 §7.1). */
const withChallenge = (err: unknown): unknown => {
  if (!(err instanceof HttpError) || err.status !== 401) return err
  const code = err.code === 'invalid_dpop_proof' ? 'invalid_dpop_proof' : 'invalid_token'
  return refuseDpop(code, err.description, err.cause)
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

/** Where remote issuers' keys and WebID issuer lists come from: built once in makeDeps, shared with the UMA AS. */
export interface IdentityResolvers {
  readonly getIssuerKeys: GetIssuerKeys
  readonly getWebIdIssuers: GetWebIdIssuers
}

/**
 * The authenticator the resource server (and userinfo) calls once per request. `DPoP`: proof
 * (RFC 9449 §4.3, incl. ath when sent), jti replay, then the token (Solid-OIDC §8, RFC 9449 §6), whose
 * verification is cached until it expires (at most TOKEN_CACHE_MAX_MS), so a repeated token costs one proof verification.
 * Our UMA access tokens (`Bearer`, or `DPoP` with a proof) are verified locally and cached the same way.
 */
export interface AuthenticatorDeps extends IdentityResolvers {
  /** Our own origin: the issuer whose keys are read locally and the origin DPoP `htu` is checked against. */
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
  /** The guarded fetcher (HttpSig key documents and credentials on other servers). */
  readonly fetchDoc: FetchDoc
  /** HttpSig key documents and credentials on this pod are read only when the public may read them. */
  readonly readableByPublic: ReadableByPublic
  readonly signingKeys: SigningKeys
  readonly revocations: SessionRevocations
  /** `--uma-token-type`: with `dpop`, our UMA access tokens are accepted only with a proof of their key. */
  readonly umaTokenType: 'bearer' | 'dpop'
}

/** `replay`: the jti memory of resource requests' proofs, when the caller wants to see its fill (the metrics); `nonces`: HttpSig's. */
export function makeAuthenticator(deps: AuthenticatorDeps, o: { replay?: JtiReplayCache; nonces?: NonceCache } = {}): Authenticate {
  const { baseUrl, store, now, getIssuerKeys, getWebIdIssuers } = deps
  const replay = o.replay ?? new JtiReplayCache()
  const verified = forgetWhenIdle(new LruCache<string, CachedToken | VerifiedUmaToken>(TOKEN_CACHE_ENTRIES))
  const authenticateHttpSig = makeHttpSigAuthenticator({
    baseUrl,
    store,
    fetchDoc: deps.fetchDoc,
    now,
    readableByPublic: deps.readableByPublic,
    ...(o.nonces ? { nonces: o.nonces } : {}),
  })

  async function verifyToken(token: string, key: string, proof: Awaited<ReturnType<typeof verifyDpopProof>>, at: number): Promise<CachedToken> {
    const hit = verified.get(key, at)
    if (hit && !('permissions' in hit)) {
      // RFC 9449 §7.1: the binding is checked on every request, cached or not
      if (hit.jkt !== proof.jkt)
        throw refuseDpop('invalid_token', "the DPoP proof key does not match the token's cnf.jkt; sign proofs with the key the token was issued to")
      return hit
    }
    const result = await verifySolidAccessToken({
      token,
      proof,
      now: at,
      getIssuerKeys,
      getWebIdIssuers,
      ownIssuer: baseUrl,
      ownOrigin: new URL(baseUrl).origin,
    })
    const sid = result.issuer === baseUrl ? decodeJwt(token).sid : undefined
    const entry: CachedToken = { ...result, ...(typeof sid === 'string' ? { sid } : {}) }
    verified.set(key, entry, Math.min(result.exp * 1000, at + TOKEN_CACHE_MAX_MS))
    return entry
  }

  async function authenticateDpop(request: Request, token: string): Promise<Principal> {
    const at = now()
    // RFC 9449 §4.3 (9): htu is checked against our configured origin, never the Host header
    const url = baseUrl + new URL(request.url).pathname
    // The token is a token68 (ASCII), so its UTF-8 SHA-256 is its ath (RFC 9449 §4.2), hashed once for both uses
    const tokenHash = sha256Base64url(token)
    const proof = await verifyDpopProof({
      header: request.headers.get('dpop'),
      method: methodAsSent(request),
      url,
      now: at,
      accessToken: token,
      accessTokenHash: tokenHash,
      status: 401,
    })
    const t = await verifyToken(token, tokenHash, proof, at)
    if (t.sid !== undefined && (await deps.revocations.isRevoked(t.sid, at)))
      throw refuseDpop('invalid_token', 'the session this token was issued to has been revoked; sign in again')
    // RFC 9449 §11.1: a proof is used once. Recorded only now, once the token is verified, so
    // requests that fail anyway take no room in the cache.
    checkJti(replay.remember(proof.jkt, proof.jti, proof.htu, jtiExpiry(proof.iat), at, t.issuer), () =>
      refuseDpop('invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request'),
    )
    return {
      webid: t.webid,
      ...(t.clientId !== undefined ? { clientId: t.clientId } : {}),
      issuer: t.issuer,
      keys: [],
      scheme: 'DPoP',
      ...(t.sid !== undefined ? { session: t.sid } : {}),
    }
  }

  async function verifyUma(token: string, at: number): Promise<VerifiedUmaToken> {
    const key = sha256Base64url(token)
    const hit = verified.get(key, at)
    if (hit && 'permissions' in hit) return hit
    const result = await verifyUmaAccessToken({ token, issuer: baseUrl, keys: await deps.signingKeys.publicJwks(at), now: at })
    verified.set(key, result, Math.min(result.exp * 1000, at + TOKEN_CACHE_MAX_MS))
    return result
  }

  /**
   * A UMA access token of our AS. As `Bearer` (UMA Grant §3.3.5, the default) a DPoP proof is checked
   * when one is sent; as `DPoP` (and always under --uma-token-type dpop) the proof is required and
   * must be made with the token's cnf.jkt key (RFC 9449 §7.1).
   */
  async function authenticateUma(request: Request, token: string, scheme: 'bearer' | 'dpop'): Promise<Principal> {
    const at = now()
    const t = await verifyUma(token, at)
    // As for our DPoP tokens: a token bought with the owner's ID token ends with the app session
    if (t.sid !== undefined && (await deps.revocations.isRevoked(t.sid, at)))
      throw refuseDpop('invalid_token', 'the app session this UMA access token was issued for has been revoked; sign in again')
    if (scheme === 'bearer' && deps.umaTokenType === 'dpop') {
      throw refuseDpop(
        'invalid_token',
        'this pod issues UMA access tokens as DPoP tokens: send "Authorization: DPoP <token>" with a DPoP proof made with the key the token was issued to',
      )
    }
    if (scheme === 'dpop' || request.headers.has('dpop')) {
      const url = baseUrl + new URL(request.url).pathname
      const proof = await verifyDpopProof({ header: request.headers.get('dpop'), method: methodAsSent(request), url, now: at, accessToken: token, status: 401 })
      if (proof.jkt !== t.jkt)
        throw refuseDpop('invalid_token', "the DPoP proof key does not match the UMA access token's cnf.jkt; sign proofs with the key the token was issued to")
      // RFC 9449 §11.1: used once, recorded once the token and the binding are verified
      // grouped by who vouched for the requesting party (the claim token's issuer), not by our AS
      checkJti(replay.remember(proof.jkt, proof.jti, proof.htu, jtiExpiry(proof.iat), at, `uma ${t.webidIssuer ?? ''}`), () =>
        refuseDpop('invalid_dpop_proof', 'the proof jti was already used; make a new proof for every request'),
      )
    }
    return {
      webid: t.webid,
      clientId: t.clientId,
      ...(t.webidIssuer !== undefined ? { issuer: t.webidIssuer } : {}),
      keys: [],
      scheme: scheme === 'dpop' ? 'DPoP' : 'Bearer',
      permissions: t.permissions,
      ...(t.sid !== undefined ? { session: t.sid } : {}),
    }
  }

  return async request => {
    const header = request.headers.get('authorization')
    // An empty `Authorization:` (some clients send one when anonymous) carries no credentials:
    // RFC 9110 §11.6.2 needs at least a scheme, and other Solid servers read it as anonymous too.
    if (header === null || header.trim() === '') return ANONYMOUS
    const credentials = parseAuthorization(header)
    if (credentials.length !== 1) {
      // RFC 9449 §7.1, RFC 6750 §3.1: Bearer and DPoP together are ambiguous
      const schemes = new Set(credentials.map(c => c.scheme))
      if (schemes.has('dpop') && schemes.has('bearer')) throw badRequest('the request carries both Bearer and DPoP credentials; send exactly one')
      throw badRequest('the Authorization header must carry exactly one credential')
    }
    const credential = credentials[0]!
    const { scheme, token68: token } = credential
    if (scheme === 'httpsig') return authenticateHttpSig(request, credential)
    if ((scheme === 'bearer' || scheme === 'dpop') && token && isUmaAccessToken(token)) {
      try {
        return await authenticateUma(request, token, scheme)
      } catch (err) {
        if (scheme === 'dpop' || !(err instanceof HttpError) || err.status !== 401 || err.code !== 'invalid_token') throw withChallenge(err)
        throw refuseBearer(err.description, err.cause)
      }
    }
    if (scheme === 'dpop') {
      if (!token) throw refuseDpop('invalid_token', 'the DPoP scheme needs an access token: "Authorization: DPoP <token>"')
      try {
        return await authenticateDpop(request, token)
      } catch (err) {
        throw withChallenge(err)
      }
    }
    if (scheme === 'bearer' && token && isDpopBound(token)) {
      throw refuseDpop(
        'invalid_token',
        'this access token is DPoP-bound (it has cnf.jkt): send it as "Authorization: DPoP <token>" with a DPoP proof, not as Bearer',
      )
    }
    // A credential we cannot check is refused, never downgraded to anonymous.
    throw new HttpError(
      401,
      'invalid_token',
      `the ${scheme} authorization scheme or token is not accepted by this pod; use DPoP, HttpSig, or Bearer with a UMA access token of this pod`,
      { headers: { 'www-authenticate': dpopChallenge() } },
    )
  }
}
