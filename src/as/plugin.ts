// The UMA 2.0 authorization server of this pod: discovery (UMA Grant §2), its keys, and the token endpoint (UMA Grant §3.3).

import { jsonResponse } from '../http/json-response.ts'
import { Elysia, t } from 'elysia'
import { toJsonResponse } from '../http/errors.ts'
import { AS_PATHS } from '../http/pod-paths.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { umaConfiguration } from './model.ts'
import { makeUmaTokenEndpoint, type AsDeps } from './token-endpoint.ts'

const TokenForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))

/** Browser apps reach every route here cross-origin: app.ts adds CORS to every answer and preflight. */
export function asPlugin(deps: AsDeps) {
  const metadata = umaConfiguration(deps.cfg.baseUrl)
  const exchangeTicket = makeUmaTokenEndpoint(deps)
  return (
    new Elysia({ name: 'as' })
      // RFC 6749 §5.2: OAuth error bodies, never cached (UMA Grant §3.3.6 adds ticket and required_claims)
      .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toJsonResponse))
      .get(AS_PATHS.configuration, () => jsonResponse(metadata, { cacheControl: 'public, max-age=300' }))
      .get(AS_PATHS.jwks, async () => jsonResponse(await deps.signingKeys.publicJwks(deps.now()), { cacheControl: 'public, max-age=60' }))
      .post(
        AS_PATHS.token,
        ({ request, body }) =>
          exchangeTicket({
            contentType: request.headers.get('content-type'),
            form: body,
            dpop: request.headers.get('dpop'),
            origin: request.headers.get('origin') ?? undefined,
          }),
        { body: TokenForm },
      )
  )
}
