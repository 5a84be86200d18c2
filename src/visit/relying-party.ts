// The pod as a Solid-OIDC relying party for the people its owner shares with: it sends a visitor to
// their own OpenID provider (authorization code + PKCE S256 + DPoP, with the pod's own Client ID Document),
// and takes back a verified WebID (Solid-OIDC §5–§8: the WebID's profile names the issuer).

import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { REMOTE_DOCUMENT_CAPS } from '../fetch/guarded-fetch.ts'
import { discoveryUrlOf } from '../auth/issuer-keys.ts'
import { checkWebIdIssuer, isSecureOrLocalhost } from '../auth/issuer-checks.ts'
import { ASYMMETRIC_JWS_ALGS } from '../auth/dpop.ts'
import { ownerWebIdOf } from '../config.ts'
import { VISIT_PATHS } from '../http/pod-paths.ts'
import type { WebId } from '../account/ids.ts'
import { IDENTITY_SCOPE } from '../account/app-scopes.ts'
import { sha256Base64url, show } from '../lib/text.ts'

type RpDeps = Pick<Deps, 'cfg' | 'now' | 'fetchDoc' | 'poster' | 'getIssuerKeys' | 'getWebIdIssuers'>

/** A sign-in waits this long for the visitor to come back from their provider. */
const PENDING_MS = 10 * 60 * 1000
/** Sign-ins waiting at once, whoever started them: memory stays bounded under a flood of starts. */
const PENDING_MAX = 1000
const TOKEN_RESPONSE_MAX_BYTES = 64 * 1024
const CLOCK_TOLERANCE_S = 60

const refuse = (description: string, cause?: unknown) => new HttpError(400, 'sign_in_failed', description, { cause })
const providerFault = (description: string, cause?: unknown) => new HttpError(502, 'provider_unusable', description, { cause })

/** What the pod asks the visitor's provider for: who they are, and nothing of their data. */
const VISITOR_SCOPE = `openid webid ${IDENTITY_SCOPE}`

/**
 * Solid-OIDC §5.1: the pod names itself by this document, which the visitor's provider fetches. Its
 * `scope` leaves `identity` out: providers built on oidc-provider (the Community Solid Server) refuse a
 * client whose document lists a scope value they do not know, while they ignore one in the request.
 */
export function clientIdDocument(baseUrl: string): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/solid/oidc-context.jsonld'],
    client_id: baseUrl + VISIT_PATHS.clientId,
    client_name: `Solid pod at ${new URL(baseUrl).host}`,
    client_uri: `${baseUrl}/`,
    redirect_uris: [baseUrl + VISIT_PATHS.callback],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    scope: 'openid webid',
    token_endpoint_auth_method: 'none',
    application_type: 'web',
  }
}

interface Provider {
  readonly issuer: string
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  /** RFC 9207: the provider promises `iss` on its redirect back. */
  readonly sendsIss: boolean
}

interface Pending {
  readonly provider: Provider
  readonly verifier: string
  readonly nonce: string
  readonly key: { readonly privateKey: CryptoKey; readonly jwk: JWK }
  /** The pod path the visitor was on, to go back to once signed in. */
  readonly returnTo: string
}

export interface SignedInVisitor {
  readonly webid: WebId
  readonly issuer: string
  readonly returnTo: string
}

const random = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')

export function makeRelyingParty(deps: RpDeps) {
  const { baseUrl } = deps.cfg
  const clientId = baseUrl + VISIT_PATHS.clientId
  const redirectUri = baseUrl + VISIT_PATHS.callback
  const pending = new LruCache<string, Pending>(PENDING_MAX)

  async function readJson(url: string, what: string): Promise<Record<string, unknown>> {
    const doc = await deps.fetchDoc(url, { accept: 'application/json', allowedTypes: ['application/json'], maxBytes: REMOTE_DOCUMENT_CAPS.issuerJson })
    let v: unknown
    try {
      v = JSON.parse(doc.body)
    } catch (cause) {
      throw providerFault(`${what} is not JSON`, cause)
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw providerFault(`${what} is not a JSON object`)
    return v as Record<string, unknown>
  }

  /** OIDC Discovery §4; Solid-OIDC §3: a Solid provider lists `webid` among its scopes. */
  async function discover(issuer: string): Promise<Provider> {
    const meta = await readJson(discoveryUrlOf(issuer), `the OpenID configuration of ${issuer}`)
    if (meta.issuer !== issuer) throw providerFault(`the OpenID configuration at ${discoveryUrlOf(issuer)} names issuer ${show(meta.issuer)}, not ${issuer}`)
    const endpoint = (name: string) => {
      const v = meta[name]
      if (typeof v !== 'string' || !isSecureOrLocalhost(v)) throw providerFault(`${issuer} has no usable ${name} (an https URL) in its OpenID configuration`)
      return v
    }
    const scopes = Array.isArray(meta.scopes_supported) ? meta.scopes_supported : []
    if (!scopes.includes('webid')) throw providerFault(`${issuer} is an OpenID provider but not a Solid one: its scopes_supported has no "webid"`)
    return {
      issuer,
      authorizationEndpoint: endpoint('authorization_endpoint'),
      tokenEndpoint: endpoint('token_endpoint'),
      sendsIss: meta.authorization_response_iss_parameter_supported === true,
    }
  }

  /**
   * What the visitor typed → their provider. A WebID (with a fragment) names its providers in its profile;
   * anything else is taken as the provider's address, with or without a trailing slash (issuers differ). A typed
   * address without `scheme://` gets https (http for localhost, the only host plain http is taken from).
   */
  async function providerOf(input: string): Promise<Provider> {
    let text = input.trim()
    if (text === '') throw refuse("type your WebID (such as https://you.example/profile/card#me) or your pod provider's address")
    // What people type: `alice.example`, `https://alice.example/`, a WebID, `localhost:4510`. Without a scheme it is
    // https, but for localhost (`localhost:4510` is a host and port, not a scheme): plain http only on loopback.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `${/^localhost(?:[:/?#]|$)/i.test(text) ? 'http' : 'https'}://${text}`
    if (!URL.canParse(text) || !isSecureOrLocalhost(text))
      throw refuse(`${show(input.slice(0, 200))} is not a WebID or a provider address: it must be an https URL`)
    const url = new URL(text)
    if (url.hash) {
      const issuers = await deps.getWebIdIssuers(text as WebId).catch((cause: unknown) => {
        throw providerFault(`your WebID profile ${show(text)} could not be read`, cause)
      })
      const usable = issuers.filter(i => i !== baseUrl)
      if (usable.length === 0) throw refuse(`your WebID profile ${show(text)} names no Solid provider (solid:oidcIssuer)`)
      return discover(usable[0]!)
    }
    // As a URL writes it (`LOCALHOST` → `localhost`): an issuer is compared as a string (Solid-OIDC §8.1)
    const written = url.search === '' ? url.href : text
    const candidates = [...new Set([written, written.endsWith('/') ? written.slice(0, -1) : `${written}/`])]
    let last: unknown
    for (const issuer of candidates) {
      try {
        return await discover(issuer)
      } catch (err) {
        last = err
      }
    }
    throw last instanceof HttpError && last.code === 'provider_unusable'
      ? last
      : providerFault(`no Solid provider answers at ${text}; type your WebID (it ends in #me or similar) or your provider's address`, last)
  }

  /** Starts a sign-in: the URL of the visitor's provider to send the browser to. */
  async function start(input: string, returnTo: string): Promise<string> {
    const provider = await providerOf(input)
    if (provider.issuer === baseUrl) throw refuse("this pod's own sign-in is its owner's: the owner signs in on the dashboard")
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const state = random(24)
    const verifier = random(32)
    const nonce = random(16)
    const now = deps.now()
    pending.set(state, { provider, verifier, nonce, key: { privateKey, jwk: await exportJWK(publicKey) }, returnTo }, now + PENDING_MS)
    const url = new URL(provider.authorizationEndpoint)
    // The pod only needs to know who the visitor is (the ID token's WebID; the access token is dropped):
    // `identity` asks the visitor's provider for nothing else, and a solopod then proposes "Only confirm
    // who I am" instead of access to the visitor's own pod. Other providers ignore it (OIDC Core §3.1.2.1).
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: VISITOR_SCOPE,
      state,
      nonce,
      code_challenge: sha256Base64url(verifier),
      code_challenge_method: 'S256',
      prompt: 'consent',
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    return url.href
  }

  /** RFC 9449 §4.2: a proof for one token request, with the provider's nonce when it asked for one (§8). */
  async function dpopProof(p: Pending, nonce?: string): Promise<string> {
    return new SignJWT({ htm: 'POST', htu: p.provider.tokenEndpoint, jti: random(16), ...(nonce ? { nonce } : {}) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: p.key.jwk })
      .setIssuedAt(Math.floor(deps.now() / 1000))
      .sign(p.key.privateKey)
  }

  async function redeem(p: Pending, code: string): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: p.verifier,
    }).toString()
    const ask = async (nonce?: string) =>
      deps.poster.exchange(
        p.provider.tokenEndpoint,
        { headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', dpop: await dpopProof(p, nonce) }, body },
        TOKEN_RESPONSE_MAX_BYTES,
      )
    let res = await ask()
    const nonce = res.headers.get('dpop-nonce')
    if ((res.status === 400 || res.status === 401) && nonce && /^[\x21-\x7e]{1,200}$/.test(nonce)) res = await ask(nonce)
    let json: Record<string, unknown> = {}
    try {
      json = JSON.parse(res.body) as Record<string, unknown>
    } catch {
      /* reported below by status */
    }
    if (res.status !== 200) {
      // The provider's own error code, when it is one (a short token), never its free text: a stranger's words are not quoted
      const error = typeof json.error === 'string' && /^[a-z_]{1,40}$/.test(json.error) ? ` (${json.error})` : ''
      throw providerFault(`your provider ${p.provider.issuer} refused to complete the sign-in: status ${res.status}${error}`)
    }
    if (typeof json.id_token !== 'string') throw providerFault(`your provider ${p.provider.issuer} answered the sign-in without an ID token`)
    return json.id_token
  }

  /** Solid-OIDC §6–§8: the ID token's signature, issuer, audience, nonce and expiry; then the WebID names the issuer. */
  async function verify(p: Pending, idToken: string): Promise<WebId> {
    const { issuer } = p.provider
    const keys = await deps.getIssuerKeys(issuer)
    let claims: Record<string, unknown>
    try {
      ;({ payload: claims } = await jwtVerify(idToken, keys as Parameters<typeof jwtVerify>[1], {
        issuer,
        audience: clientId,
        algorithms: [...ASYMMETRIC_JWS_ALGS],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(deps.now()),
      }))
    } catch (cause) {
      throw refuse(
        `the ID token from ${issuer} does not verify (${cause instanceof Error ? cause.message.slice(0, 120) : 'invalid'}); check this computer's clock and try again`,
        cause,
      )
    }
    if (claims.nonce !== p.nonce) throw refuse('the ID token is not the answer to this sign-in (its nonce differs); start again')
    const webid = typeof claims.webid === 'string' ? claims.webid : claims.sub
    if (typeof webid !== 'string' || !isSecureOrLocalhost(webid)) throw refuse(`the ID token from ${issuer} names no WebID (an https URL in "webid" or "sub")`)
    await checkWebIdIssuer(webid, issuer, deps.getWebIdIssuers, (description, cause) => refuse(description, cause))
    if (webid === ownerWebIdOf(baseUrl)) throw refuse("this WebID is the owner's: the owner signs in on the dashboard")
    return webid as WebId
  }

  /** The provider's redirect back (RFC 6749 §4.1.2, RFC 9207 `iss`): the visitor, or why not. */
  async function finish(query: Record<string, string | undefined>): Promise<SignedInVisitor> {
    const state = query.state ?? ''
    const p = pending.get(state, deps.now())
    if (!p) throw refuse('this sign-in is unknown or older than 10 minutes; start again from the page you wanted to open')
    pending.delete(state)
    if (query.iss !== undefined ? query.iss !== p.provider.issuer : p.provider.sendsIss) {
      throw refuse(`the answer came from ${show(query.iss)}, not from ${p.provider.issuer} where the sign-in started (RFC 9207)`)
    }
    if (query.error !== undefined) {
      const code = /^[a-z_]{1,40}$/.test(query.error) ? query.error : 'an error'
      throw refuse(code === 'access_denied' ? 'you (or your provider) declined the sign-in' : `your provider ended the sign-in with ${code}`)
    }
    if (!query.code) throw refuse('your provider sent no authorization code back')
    const webid = await verify(p, await redeem(p, query.code))
    return { webid, issuer: p.provider.issuer, returnTo: p.returnTo }
  }

  return { start, finish, clientId }
}

export type RelyingParty = ReturnType<typeof makeRelyingParty>
