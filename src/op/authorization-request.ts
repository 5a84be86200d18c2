// Validates an authorization request (OIDC Core §3.1.2, RFC 6749 §4.1.1, RFC 7636, RFC 9101): what it asks, or why not.

import { HttpError } from '../http/errors.ts'
import type { CodeWithStatus } from '../http/refusals.ts'
import type { OpClient, ResolveClient } from './clients.ts'
import { SUPPORTED_SCOPES } from './model.ts'
import { readRequestObject } from './request-object.ts'
import { IDENTITY_SCOPE } from '../account/app-scopes.ts'

export interface AuthorizationRequest {
  readonly clientId: string
  readonly redirectUri: string
  /** Requested ∩ supported, in request order (OIDC Core §3.1.2.1: unknown scopes are ignored). */
  readonly scopes: readonly string[]
  readonly state?: string
  readonly nonce?: string
  readonly codeChallenge?: string
  readonly codeChallengeMethod?: 'S256' | 'plain'
  readonly prompt: readonly string[]
  /** Seconds; from the request or the client's default_max_age. */
  readonly maxAge?: number
  /** auth_time goes into the ID token (max_age or require_auth_time). */
  readonly includeAuthTime: boolean
  /** RFC 9449 §10: the code is bound to this DPoP key. */
  readonly dpopJkt?: string
  /**
   * The client asked only to know who the person is (scope `identity`, account/app-scopes.ts): the
   * consent page proposes "Only confirm who I am". It is also in `scopes`, so a consent remembered
   * without it does not cover the request: the owner is asked again.
   */
  readonly identityOnly?: boolean
  /**
   * Scope values that are URLs (a folder of a pod, an RDF class): what the app names as the data it
   * wants, proposed on the consent page (op/consent-scope.ts); they ask for nothing by themselves.
   */
  readonly wants?: readonly string[]
}

/** The outcome: a valid request, or an error to send to the (validated) redirect URI. */
export type Validated =
  | { readonly ok: true; readonly request: AuthorizationRequest; readonly client: OpClient }
  | { readonly ok: false; readonly redirectUri: string; readonly state?: string; readonly error: HttpError }

export interface AuthorizationFacts {
  /** Query (GET) or form (POST) parameters, repeated names kept. */
  readonly params: URLSearchParams
  readonly issuer: string
  readonly now: number
  readonly resolveClient: ResolveClient
}

const MAX_WANTS = 20
const isWebUrlScope = (s: string) => s.length <= 2048 && /^https?:\/\//.test(s) && URL.canParse(s)

// RFC 7636 §4.2: code-challenge = 43*128unreserved
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/
const JKT = /^[A-Za-z0-9_-]{43}$/
const PROMPTS = new Set(['none', 'login', 'consent', 'select_account'])

const err = (code: CodeWithStatus<400>, description: string) => new HttpError(400, code, description)

/** RFC 6749 §3.1: empty values count as absent; repeated parameters are an error. */
function singleValues(params: URLSearchParams): { values: Map<string, string>; repeated: string[] } {
  const values = new Map<string, string>()
  const repeated: string[] = []
  for (const [name, value] of params) {
    if (value === '') continue
    if (values.has(name)) repeated.push(name)
    else values.set(name, value)
  }
  return { values, repeated }
}

/**
 * Errors before the redirect URI is known to be the client's are thrown (the caller shows a page:
 * RFC 6749 §4.1.2.1, never a redirect); later ones are returned with the redirect URI.
 */
export async function validateAuthorizationRequest(f: AuthorizationFacts): Promise<Validated> {
  const { values: query, repeated } = singleValues(f.params)
  // RFC 6749 §4.1.2.1: an invalid or missing client_id is shown to the user, not redirected
  const client = await f.resolveClient(query.get('client_id'))
  const queryRedirect = query.get('redirect_uri')
  const redirectable = queryRedirect !== undefined && client.redirectUris.includes(queryRedirect) ? queryRedirect : undefined
  let p = query
  const object = query.get('request')
  if (object !== undefined) {
    try {
      p = await readRequestObject({ jwt: object, client, clientId: client.clientId, issuer: f.issuer, now: f.now })
    } catch (e) {
      if (!(e instanceof HttpError) || redirectable === undefined) throw e
      return { ok: false, redirectUri: redirectable, ...(query.has('state') ? { state: query.get('state')! } : {}), error: e }
    }
  }
  // Solid-OIDC §5, RFC 7591 (4): redirect_uri is one of the listed URIs, exact string match
  const redirectUri = p.get('redirect_uri')
  if (redirectUri === undefined)
    throw err('invalid_request', `redirect_uri is required; the client ${client.clientId} lists ${client.redirectUris.length} redirect URIs`)
  if (!client.redirectUris.includes(redirectUri)) {
    throw err(
      'invalid_request',
      `redirect_uri ${JSON.stringify(redirectUri.slice(0, 200))} is not one of the redirect_uris of ${client.clientId}; it must match one of them exactly`,
    )
  }
  const state = p.get('state')
  const fail = (code: CodeWithStatus<400>, description: string): Validated => ({
    ok: false,
    redirectUri,
    ...(state !== undefined ? { state } : {}),
    error: err(code, description),
  })

  // RFC 6749 §3.1: parameters must not be included more than once
  if (repeated.length > 0) return fail('invalid_request', `parameters must not repeat; sent more than once: ${[...new Set(repeated)].join(', ')}`)
  if (state !== undefined && state.length > 4096) return fail('invalid_request', 'state is longer than 4096 characters')
  // OIDC Core §6.2: request_uri_parameter_supported is false
  if (p.has('request_uri')) return fail('request_uri_not_supported', 'request_uri is not supported; send the request object in the request parameter')
  if (p.has('registration'))
    return fail('registration_not_supported', 'the registration parameter is not supported; register at the registration_endpoint or use a Client ID Document')
  // RFC 6749 §4.1.1: response_type=code, the only one we support (never implicit)
  const responseType = p.get('response_type')
  if (responseType === undefined) return fail('invalid_request', 'response_type is required; expected "code"')
  if (responseType !== 'code')
    return fail('unsupported_response_type', `response_type ${JSON.stringify(responseType.slice(0, 40))} is not supported; only "code" is`)
  if (client.responseTypes && !client.responseTypes.includes('code'))
    return fail('unauthorized_client', 'the client does not list "code" in its response_types')
  const responseMode = p.get('response_mode')
  if (responseMode !== undefined && responseMode !== 'query')
    return fail('invalid_request', `response_mode ${JSON.stringify(responseMode.slice(0, 40))} is not supported; only "query" is`)

  // OIDC Core §3.1.2.1: scope contains openid; Solid-OIDC §5, RFC 7591 (5): within the client's scope
  const requested = (p.get('scope') ?? '').split(' ').filter(s => s !== '')
  if (!requested.includes('openid')) return fail('invalid_scope', 'scope must include "openid"; Solid apps ask for "openid webid offline_access"')
  // Solid-OIDC §4 (webid scope): a Solid login asks for the WebID; registration does not have to say so
  if (!requested.includes('webid')) return fail('invalid_scope', 'scope must include "webid" (Solid-OIDC); Solid apps ask for "openid webid offline_access"')
  const identityOnly = requested.includes(IDENTITY_SCOPE)
  if (identityOnly && requested.some(isWebUrlScope)) {
    return fail('invalid_scope', `scope "${IDENTITY_SCOPE}" asks for no data, so it cannot come with folder or class scopes; send one or the other`)
  }
  // `identity` asks for less, never more, so a registered scope need not list it: it cannot, where the
  // client's document must also satisfy providers that refuse unknown scope values in client metadata
  if (client.scope !== undefined) {
    const allowed = client.scope.split(' ')
    const extra = requested.filter(s => !allowed.includes(s) && s !== IDENTITY_SCOPE)
    if (extra.length > 0) return fail('invalid_scope', `the client's registered scope does not include ${extra.join(', ')}`)
  }
  let scopes = [...new Set(requested.filter(s => (SUPPORTED_SCOPES as readonly string[]).includes(s) || s === IDENTITY_SCOPE))]
  // What the client's registration names is not proposed to a client that asks only who the person is
  const wants = identityOnly ? [] : [...new Set([...requested, ...(client.scope ?? '').split(' ')].filter(isWebUrlScope))].slice(0, MAX_WANTS)
  if (client.grantTypes && !client.grantTypes.includes('refresh_token')) scopes = scopes.filter(s => s !== 'offline_access')

  // RFC 7636 §4.3/§4.4.1: public clients must use S256 (plain refused)
  const challenge = p.get('code_challenge')
  const method = p.get('code_challenge_method')
  if (method !== undefined && method !== 'S256' && method !== 'plain')
    return fail(
      'invalid_request',
      `code_challenge_method ${JSON.stringify(method.slice(0, 20))} is not supported (transform algorithm not supported); use S256`,
    )
  if (challenge === undefined && method !== undefined) return fail('invalid_request', 'code_challenge_method was sent without code_challenge')
  if (client.isPublic) {
    if (challenge === undefined) return fail('invalid_request', 'code challenge required: public clients must use PKCE with code_challenge_method=S256')
    if (method !== 'S256')
      return fail(
        'invalid_request',
        `code_challenge_method must be S256 for public clients; ${method === undefined ? 'absent means plain, which' : 'plain'} is refused`,
      )
  }
  if (challenge !== undefined && !CHALLENGE.test(challenge))
    return fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~')
  if (challenge !== undefined && method === 'S256' && challenge.length !== 43)
    return fail('invalid_request', 'an S256 code_challenge is the 43-character base64url SHA-256 of the verifier')

  // OIDC Core §3.1.2.1 prompt: known values; none stands alone
  const prompt = (p.get('prompt') ?? '').split(' ').filter(s => s !== '')
  const unknownPrompt = prompt.find(v => !PROMPTS.has(v))
  if (unknownPrompt !== undefined)
    return fail('invalid_request', `prompt ${JSON.stringify(unknownPrompt.slice(0, 20))} is not supported; use none, login, consent or select_account`)
  if (prompt.includes('none') && prompt.length > 1) return fail('invalid_request', 'prompt=none cannot be combined with other prompt values')
  const maxAgeText = p.get('max_age')
  if (maxAgeText !== undefined && !/^\d{1,9}$/.test(maxAgeText)) return fail('invalid_request', 'max_age must be a non-negative integer number of seconds')
  const maxAge = maxAgeText !== undefined ? Number(maxAgeText) : client.defaultMaxAge
  const nonce = p.get('nonce')
  if (nonce !== undefined && nonce.length > 512) return fail('invalid_request', 'nonce is longer than 512 characters')
  const dpopJkt = p.get('dpop_jkt')
  if (dpopJkt !== undefined && !JKT.test(dpopJkt)) return fail('invalid_request', 'dpop_jkt must be a base64url SHA-256 JWK thumbprint (43 characters)')

  return {
    ok: true,
    client,
    request: {
      clientId: client.clientId,
      redirectUri,
      scopes,
      prompt,
      includeAuthTime: maxAge !== undefined || client.requireAuthTime === true,
      ...(state !== undefined ? { state } : {}),
      ...(nonce !== undefined ? { nonce } : {}),
      ...(challenge !== undefined ? { codeChallenge: challenge, codeChallengeMethod: method === 'S256' ? ('S256' as const) : ('plain' as const) } : {}),
      ...(maxAge !== undefined ? { maxAge } : {}),
      ...(dpopJkt !== undefined ? { dpopJkt } : {}),
      ...(wants.length > 0 ? { wants } : {}),
      ...(identityOnly ? { identityOnly } : {}),
    },
  }
}

/**
 * The redirect back to the client, parameters appended to its query (RFC 6749 §3.1.2) and always
 * `iss` (RFC 9207 §2): success carries code + state, failure error + error_description + state.
 */
export function authorizationRedirect(redirectUri: string, params: Record<string, string | undefined>, issuer: string, status = 302): Response {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v)
  url.searchParams.append('iss', issuer)
  return new Response(null, { status, headers: { location: url.href, 'cache-control': 'no-store' } })
}

export function errorRedirect(redirectUri: string, error: HttpError, state: string | undefined, issuer: string, status = 302): Response {
  return authorizationRedirect(redirectUri, { error: error.code, error_description: error.description, state }, issuer, status)
}
