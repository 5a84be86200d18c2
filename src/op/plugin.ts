// The OpenID provider (Solid-OIDC): discovery, JWKS, authorization, login, consent, token, userinfo, registration, logout.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { clientAddressOf } from '../http/client-address.ts'
import { pageOrError } from '../http/html-page.ts'
import type { Authenticate } from '../auth/authenticate.ts'
import { readPublicJwks } from '../auth/signing-keys.ts'
import { startAuthorization } from './authorize.ts'
import { makeClientResolver } from './clients.ts'
import { makeConsent } from './consent.ts'
import { openidConfiguration } from './discovery.ts'
import { makeEndSession } from './end-session.ts'
import { makeLogin } from './login.ts'
import { OptionalFields, PATHS } from './model.ts'
import { makeRegistration } from './registration.ts'
import { makeTokenEndpoint } from './token-endpoint.ts'
import { readUserinfo } from './userinfo.ts'

/** A form body as parameters, repeated names kept (Elysia gives them as arrays). */
function formParams(body: unknown): URLSearchParams {
  const p = new URLSearchParams()
  if (typeof body !== 'object' || body === null) return p
  for (const [k, v] of Object.entries(body)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, String(one))
  return p
}

const json = (value: unknown, cacheControl = 'no-store') =>
  new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json', 'cache-control': cacheControl } })

const AuthForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))
const TokenForm = OptionalFields('grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'code_verifier', 'refresh_token', 'scope')
const LoginForm = OptionalFields('csrf', 'interaction', 'return', 'password')
const ConsentForm = OptionalFields('csrf', 'interaction', 'decision')
const PageQuery = t.Object({ interaction: t.Optional(t.String()), return: t.Optional(t.String()) })

export function opPlugin(deps: Deps, authenticate: Authenticate) {
  const { cfg } = deps
  const resolveClient = makeClientResolver(deps)
  const login = makeLogin(deps)
  const consent = makeConsent(deps)
  const exchangeToken = makeTokenEndpoint(deps)
  const registerDynamicClient = makeRegistration(deps)
  const endSession = makeEndSession(deps, resolveClient)
  const metadata = openidConfiguration(cfg.baseUrl)

  return new Elysia({ name: 'op' })
    .get(PATHS.discovery, () => json(metadata, 'public, max-age=300'))
    .get(PATHS.jwks, async () => json(await readPublicJwks(deps.store, deps.now()), 'public, max-age=60'))
    .get(PATHS.authorization, ({ request }) =>
      pageOrError(PATHS.authorization, () => startAuthorization(deps, resolveClient, new URL(request.url).searchParams, request.headers.get('cookie'))))
    .post(PATHS.authorization, ({ request, body }) =>
      pageOrError(PATHS.authorization, () => startAuthorization(deps, resolveClient, formParams(body), request.headers.get('cookie'))), { body: AuthForm })
    .get(PATHS.login, ({ request, query }) => pageOrError(PATHS.login, () => login.showLogin(query, request.headers.get('cookie'))), { query: PageQuery })
    .post(PATHS.login, ({ request, body }) => pageOrError(PATHS.login, () => login.submitLogin({
      form: body, cookieHeader: request.headers.get('cookie'), origin: request.headers.get('origin'),
      address: clientAddressOf(request), userAgent: request.headers.get('user-agent'),
    })), { body: LoginForm })
    .get(PATHS.consent, ({ request, query }) => pageOrError(PATHS.consent, () => consent.showConsent(query, request.headers.get('cookie'))), { query: PageQuery })
    .post(PATHS.consent, ({ request, body }) =>
      pageOrError(PATHS.consent, () => consent.submitConsent(body, request.headers.get('cookie'), request.headers.get('origin'))), { body: ConsentForm })
    .post(PATHS.token, ({ request, body }) => exchangeToken({
      contentType: request.headers.get('content-type'), form: body, authorization: request.headers.get('authorization'), dpop: request.headers.get('dpop'),
    }), { body: TokenForm })
    .get(PATHS.userinfo, async ({ request }) => json(await readUserinfo(authenticate, cfg.baseUrl, request)))
    .post(PATHS.userinfo, async ({ request }) => json(await readUserinfo(authenticate, cfg.baseUrl, request)))
    .post(PATHS.registration, ({ request, body }) =>
      registerDynamicClient(request.headers.get('content-type'), body, clientAddressOf(request)), { body: t.Unknown() })
    .get(PATHS.endSession, ({ request }) => pageOrError(PATHS.endSession, () => endSession({
      params: new URL(request.url).searchParams, method: 'GET', cookieHeader: request.headers.get('cookie'), origin: request.headers.get('origin'),
    })))
    .post(PATHS.endSession, ({ request, body }) => pageOrError(PATHS.endSession, () => endSession({
      params: formParams(body), method: 'POST', cookieHeader: request.headers.get('cookie'), origin: request.headers.get('origin'),
    })), { body: AuthForm })
}
