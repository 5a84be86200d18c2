// Builds the pod: the role plugins on one Elysia app, plus CORS, request ids and access logs around it.

import { Elysia } from 'elysia'
import type { Deps } from './deps.ts'
import { toPlainResponse } from './http/errors.ts'
import { fromFramework, renderError } from './http/render-error.ts'
import { addCorsHeaders, isPreflight, preflightResponse } from './http/cors.ts'
import { log } from './log.ts'
import { opPlugin } from './op/plugin.ts'
import { adminPlugin } from './admin/plugin.ts'
import { rsPlugin } from './rs/plugin.ts'
import { isReservedPath } from './http/pod-paths.ts'

export function buildApp(deps: Deps) {
  return new Elysia({ name: 'solopod' })
    // Each role plugin renders its own errors; this answers only a request no route took.
    .onError(({ code, error, request }) => code === 'NOT_FOUND' ? renderError(request, fromFramework(code, error), toPlainResponse) : undefined)
    .use(opPlugin(deps))
    .use(adminPlugin(deps))
    .use(rsPlugin(deps))
}

/**
 * RFC 9110 §9.3.2: HEAD wherever GET is served. Pod resources answer HEAD themselves; the other roles'
 * GET routes (discovery, JWKS, pages) are asked as GET and answered without the body.
 */
async function handleWithHead(app: { handle(req: Request): Promise<Response> }, request: Request): Promise<Response> {
  if (request.method !== 'HEAD' || !isReservedPath(new URL(request.url).pathname)) return app.handle(request)
  const res = await app.handle(new Request(request.url, { method: 'GET', headers: request.headers }))
  return new Response(null, { status: res.status, headers: res.headers })
}

const REQUEST_ID = /^[\w-]{1,64}$/

/** The server's fetch handler: preflight, request id, CORS on every answer, one access-log line. */
export function makeRequestHandler(app: { handle(req: Request): Promise<Response> }, deps: Pick<Deps, 'clientAddresses'>) {
  return async (request: Request, server?: { requestIP(r: Request): { address: string } | null }): Promise<Response> => {
    deps.clientAddresses.record(request, server?.requestIP(request)?.address)
    const started = performance.now()
    const incoming = request.headers.get('x-request-id')
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    let response: Response
    try {
      response = isPreflight(request) ? preflightResponse(request) : await handleWithHead(app, request)
    } catch (err) {
      response = renderError(request, err, toPlainResponse)
    }
    try { response.headers.set('x-request-id', reqId) } catch { response = new Response(response.body, response); response.headers.set('x-request-id', reqId) }
    response.headers.set('x-content-type-options', 'nosniff')
    addCorsHeaders(request, response)
    // One line per request at debug: at the default level a terminal shows the banner and what needs attention.
    log.debug('request', { reqId, method: request.method, path: new URL(request.url).pathname, status: response.status, ms: Math.round(performance.now() - started) })
    return response
  }
}
