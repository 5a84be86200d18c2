// The OpenID provider (Solid-OIDC): discovery, JWKS, authorization, login, consent, token, userinfo, registration, logout.

import { jsonResponse } from '../http/json-response.ts'
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { pageOrError } from '../http/html-page.ts'
import { APP_FLOW_NEXT } from './next-steps.ts'
import { toJsonResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { startAuthorization } from './authorize.ts'
import { makeClientResolver } from './clients.ts'
import { makeConsent } from './consent.ts'
import { openidConfiguration } from './discovery.ts'
import { makeEndSession } from './end-session.ts'
import { makeLogin } from './login.ts'
import { OptionalFields } from './model.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
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

const AuthForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))
const TokenForm = OptionalFields('grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'code_verifier', 'refresh_token', 'scope')
const LoginForm = OptionalFields('csrf', 'interaction', 'return', 'password')
const ConsentForm = OptionalFields('csrf', 'interaction', 'decision', 'access', 'folder', 'right', 'new_folder', 'new_right')
const PageQuery = t.Object({ interaction: t.Optional(t.String()), return: t.Optional(t.String()) })

export function opPlugin(deps: Deps) {
  const { cfg } = deps
  const resolveClient = makeClientResolver(deps)
  const login = makeLogin(deps)
  const consent = makeConsent(deps)
  const exchangeToken = makeTokenEndpoint(deps)
  const registerDynamicClient = makeRegistration(deps)
  const endSession = makeEndSession(deps, resolveClient)
  const { authenticate, clientAddresses } = deps
  const metadata = openidConfiguration(cfg.baseUrl)

  return (
    new Elysia({ name: 'op' })
      // RFC 6749 §5.2: `{ error, error_description }` JSON, never cached; pages answer their own errors as pages.
      .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toJsonResponse))
      .get(OP_PATHS.discovery, () => jsonResponse(metadata, { cacheControl: 'public, max-age=300' }))
      .get(OP_PATHS.jwks, async () => jsonResponse(await deps.signingKeys.publicJwks(deps.now()), { cacheControl: 'public, max-age=60' }))
      .get(OP_PATHS.authorization, ({ request }) =>
        pageOrError(
          OP_PATHS.authorization,
          () => startAuthorization(deps, resolveClient, new URL(request.url).searchParams, request.headers.get('cookie')),
          APP_FLOW_NEXT,
        ),
      )
      .post(
        OP_PATHS.authorization,
        ({ request, body }) =>
          pageOrError(OP_PATHS.authorization, () => startAuthorization(deps, resolveClient, formParams(body), request.headers.get('cookie')), APP_FLOW_NEXT),
        { body: AuthForm },
      )
      .get(OP_PATHS.login, ({ request, query }) => pageOrError(OP_PATHS.login, () => login.showLogin(query, request.headers.get('cookie')), APP_FLOW_NEXT), {
        query: PageQuery,
      })
      .post(
        OP_PATHS.login,
        ({ request, body }) =>
          pageOrError(
            OP_PATHS.login,
            () =>
              login.submitLogin({
                form: body,
                cookieHeader: request.headers.get('cookie'),
                origin: request.headers.get('origin'),
                address: clientAddresses.of(request),
                userAgent: request.headers.get('user-agent'),
              }),
            APP_FLOW_NEXT,
          ),
        { body: LoginForm },
      )
      .get(
        OP_PATHS.consent,
        ({ request, query }) => pageOrError(OP_PATHS.consent, () => consent.showConsent(query, request.headers.get('cookie')), APP_FLOW_NEXT),
        { query: PageQuery },
      )
      .post(
        OP_PATHS.consent,
        ({ request, body }) =>
          pageOrError(OP_PATHS.consent, () => consent.submitConsent(body, request.headers.get('cookie'), request.headers.get('origin')), APP_FLOW_NEXT),
        { body: ConsentForm },
      )
      .post(
        OP_PATHS.token,
        ({ request, body }) =>
          exchangeToken({
            contentType: request.headers.get('content-type'),
            form: body,
            authorization: request.headers.get('authorization'),
            dpop: request.headers.get('dpop'),
          }),
        { body: TokenForm },
      )
      .get(OP_PATHS.userinfo, async ({ request }) => jsonResponse(await readUserinfo(authenticate, cfg.baseUrl, request)))
      .post(OP_PATHS.userinfo, async ({ request }) => jsonResponse(await readUserinfo(authenticate, cfg.baseUrl, request)))
      .post(OP_PATHS.registration, ({ request, body }) => registerDynamicClient(request.headers.get('content-type'), body, clientAddresses.of(request)), {
        body: t.Unknown(),
      })
      .get(OP_PATHS.endSession, ({ request }) =>
        pageOrError(
          OP_PATHS.endSession,
          () =>
            endSession({
              params: new URL(request.url).searchParams,
              method: 'GET',
              cookieHeader: request.headers.get('cookie'),
              origin: request.headers.get('origin'),
            }),
          APP_FLOW_NEXT,
        ),
      )
      .post(
        OP_PATHS.endSession,
        ({ request, body }) =>
          pageOrError(
            OP_PATHS.endSession,
            () =>
              endSession({
                params: formParams(body),
                method: 'POST',
                cookieHeader: request.headers.get('cookie'),
                origin: request.headers.get('origin'),
              }),
            APP_FLOW_NEXT,
          ),
        { body: AuthForm },
      )
  )
}
