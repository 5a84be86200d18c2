// Who the client is: a Solid Client ID Document (Solid-OIDC §5, RFC 7591) or a registered client.

import type { JSONWebKeySet } from 'jose'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { REMOTE_DOCUMENT_CAPS } from '../fetch/guarded-fetch.ts'
import { isBudgetRefusal } from '../fetch/fetch-budget.ts'
import { checkRedirectUri, getRegisteredClient, type RegisteredClient } from '../account/registered-clients.ts'

/** Solid-OIDC §3: must be in the document's @context. */
export const CLIENT_ID_CONTEXT = 'https://www.w3.org/ns/solid/oidc-context.jsonld'
const VALIDATED_TTL_MS = 5 * 60_000

export interface OpClient {
  readonly clientId: string
  readonly kind: 'document' | 'dynamic' | 'static'
  /** No secret: PKCE S256 is required (RFC 9700 §2.1.1). */
  readonly isPublic: boolean
  readonly redirectUris: readonly string[]
  readonly postLogoutRedirectUris: readonly string[]
  readonly grantTypes?: readonly string[]
  readonly responseTypes?: readonly string[]
  readonly scope?: string
  readonly clientName?: string
  readonly clientUri?: string
  readonly logoUri?: string
  readonly jwks?: JSONWebKeySet
  readonly defaultMaxAge?: number
  readonly requireAuthTime?: boolean
  readonly registered?: RegisteredClient
}

const clientError = (description: string, cause?: unknown) => new HttpError(400, 'invalid_client', description, { cause })

/** A client_id that is an http(s) URL names a Client ID Document; the fetcher enforces https (loopback excepted). */
export const isClientIdDocumentUrl = (clientId: string) => /^https?:\/\//i.test(clientId) && URL.canParse(clientId)

function fromRegistered(c: RegisteredClient): OpClient {
  return {
    clientId: c.clientId,
    kind: c.registration,
    isPublic: c.authMethod === 'none',
    redirectUris: c.redirectUris,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    grantTypes: c.grantTypes,
    responseTypes: c.responseTypes,
    ...defined({
      scope: c.scope,
      clientName: c.clientName,
      clientUri: c.clientUri,
      logoUri: c.logoUri,
      jwks: c.jwks,
      defaultMaxAge: c.defaultMaxAge,
      requireAuthTime: c.requireAuthTime,
    }),
    registered: c,
  }
}

const optStrings = (v: unknown, field: string, id: string): string[] | undefined => {
  if (v === undefined) return undefined
  if (!Array.isArray(v) || !v.every(s => typeof s === 'string')) throw clientError(`the Client ID Document ${id}: ${field} must be an array of strings`)
  return v
}
const optString = (v: unknown, field: string, id: string): string | undefined => {
  if (v === undefined) return undefined
  if (typeof v !== 'string') throw clientError(`the Client ID Document ${id}: ${field} must be a string`)
  return v
}

/**
 * The rules of dynamic registration (RFC 6749 §3.1.2, RFC 8252 §7): a document is as untrusted as a
 * registration request, and its URIs end up in a Location header (no `javascript:`, `data:`, …).
 */
function checkedUris(uris: string[] | undefined, field: string, id: string): string[] | undefined {
  try {
    return uris?.map(u => checkRedirectUri(u, field))
  } catch (cause) {
    throw clientError(`the Client ID Document ${id}: ${cause instanceof HttpError ? cause.description : `${field} are not valid redirect URIs`}`, cause)
  }
}

/**
 * Solid-OIDC §5, RFC 7591 checks 1–3 (and the shape of redirect_uris for 4); read as plain JSON, not
 * expanded (post_logout_redirect_uris is used everywhere but missing from the context).
 */
export function parseClientIdDocument(clientId: string, body: string): OpClient {
  let doc: unknown
  try {
    doc = JSON.parse(body)
  } catch (cause) {
    throw clientError(`the Client ID Document ${clientId} is not valid JSON-LD: it does not parse as JSON`, cause)
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw clientError(`the Client ID Document ${clientId} must be one JSON object`)
  const d = doc as Record<string, unknown>
  // (2) the Solid-OIDC context, as a string or a member of an array
  const ctx = d['@context']
  if (!(ctx === CLIENT_ID_CONTEXT || (Array.isArray(ctx) && ctx.includes(CLIENT_ID_CONTEXT)))) {
    throw clientError(`the Client ID Document ${clientId} lacks the context ${CLIENT_ID_CONTEXT} in @context`)
  }
  // (3) client_id equals the URL that was dereferenced, exactly
  if (d.client_id !== clientId)
    throw clientError(`the Client ID Document at ${clientId} names client_id ${JSON.stringify(d.client_id)}; it must be its own URL`)
  const redirectUris = checkedUris(optStrings(d.redirect_uris, 'redirect_uris', clientId), 'redirect_uris', clientId)
  if (!redirectUris || redirectUris.length === 0) throw clientError(`the Client ID Document ${clientId} lists no redirect_uris`)
  const maxAge = d.default_max_age
  return {
    clientId,
    kind: 'document',
    isPublic: true,
    redirectUris,
    postLogoutRedirectUris:
      checkedUris(optStrings(d.post_logout_redirect_uris, 'post_logout_redirect_uris', clientId), 'post_logout_redirect_uris', clientId) ?? [],
    ...defined({
      grantTypes: optStrings(d.grant_types, 'grant_types', clientId),
      responseTypes: optStrings(d.response_types, 'response_types', clientId),
      scope: optString(d.scope, 'scope', clientId),
      clientName: optString(d.client_name, 'client_name', clientId),
      clientUri: optString(d.client_uri, 'client_uri', clientId),
      logoUri: optString(d.logo_uri, 'logo_uri', clientId),
      defaultMaxAge: Number.isInteger(maxAge) && (maxAge as number) >= 0 ? (maxAge as number) : undefined,
      requireAuthTime: d.require_auth_time === true ? true : undefined,
    }),
  }
}

/** Resolves client_ids for the authorization and end-session endpoints; validated documents are cached. */
export function makeClientResolver(deps: Pick<Deps, 'store' | 'fetchDoc' | 'now'>) {
  const documents = new LruCache<string, OpClient>(200)
  return async function resolveClient(clientId: unknown): Promise<OpClient> {
    if (typeof clientId !== 'string' || clientId === '') throw clientError('client_id is required')
    const now = deps.now()
    if (!isClientIdDocumentUrl(clientId)) {
      const registered = await getRegisteredClient(deps.store, clientId, now)
      if (!registered) throw clientError(`client_id ${JSON.stringify(clientId.slice(0, 80))} is neither a registered client nor a Client ID Document URL`)
      return fromRegistered(registered)
    }
    const cached = documents.get(clientId, now)
    if (cached) return cached
    let body: string
    try {
      // (1) JSON-LD, asked for and checked by media type
      body = (
        await deps.fetchDoc(clientId, { accept: 'application/ld+json', allowedTypes: ['application/ld+json'], maxBytes: REMOTE_DOCUMENT_CAPS.clientDocument })
      ).body
    } catch (cause) {
      if (isBudgetRefusal(cause)) throw cause
      throw clientError(`the Client ID Document ${clientId} could not be read${cause instanceof HttpError ? `: ${cause.description}` : ''}`, cause)
    }
    const client = parseClientIdDocument(clientId, body)
    documents.set(clientId, client, now + VALIDATED_TTL_MS)
    return client
  }
}

export type ResolveClient = ReturnType<typeof makeClientResolver>

function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never
}
