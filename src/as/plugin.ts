// The UMA 2.0 authorization server of this pod: discovery (E5), its keys, and the token endpoint (E9).

import { Elysia, t } from 'elysia'
import { readPublicJwks } from '../auth/signing-keys.ts'
import { PATHS, umaConfiguration } from './model.ts'
import { makeUmaTokenEndpoint, type AsDeps } from './token-endpoint.ts'

const json = (value: unknown, cacheControl: string) =>
  new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json', 'cache-control': cacheControl } })

const TokenForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))

/** Browser apps reach every route here cross-origin: app.ts adds CORS to every answer and preflight. */
export function asPlugin(deps: AsDeps) {
  const metadata = umaConfiguration(deps.cfg.baseUrl)
  const exchangeTicket = makeUmaTokenEndpoint(deps)
  return new Elysia({ name: 'as' })
    .get(PATHS.configuration, () => json(metadata, 'public, max-age=300'))
    .get(PATHS.jwks, async () => json(await readPublicJwks(deps.store, deps.now()), 'public, max-age=60'))
    .post(PATHS.token, ({ request, body }) => exchangeTicket({
      contentType: request.headers.get('content-type'), form: body, dpop: request.headers.get('dpop'), origin: request.headers.get('origin') ?? undefined,
    }), { body: TokenForm })
}
