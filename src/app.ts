// Builds the pod: the role plugins on one Elysia app, plus CORS, request ids and access logs around it.

import { Elysia } from 'elysia'
import type { Deps } from './deps.ts'
import { HttpError, toPlainResponse } from './http/errors.ts'
import { fromFramework, renderError } from './http/render-error.ts'
import { addCorsHeaders, isPreflight, preflightResponse } from './http/cors.ts'
import { describeCause, log } from './log.ts'
import { clientAddressFrom } from './http/client-address.ts'
import { normalizeIp } from './lib/ip-address.ts'
import { opPlugin } from './op/plugin.ts'
import { asPlugin } from './as/plugin.ts'
import { adminPlugin } from './admin/plugin.ts'
import { rsPlugin } from './rs/plugin.ts'
import { isReservedPath, isSameOriginOnly } from './http/pod-paths.ts'

export function buildApp(deps: Deps) {
  // The owner's no-script forms act through the resource server's own handling (admin never imports rs)
  let handle: (request: Request) => Promise<Response> = () => Promise.reject(new Error('the app is not built yet'))
  const forward = (request: Request) => handle(request)
  const app = new Elysia({ name: 'solopod' })
    // Each role plugin renders its own errors; this answers only a request no route took.
    .onError(({ code, error, request }) => code === 'NOT_FOUND' ? renderError(request, fromFramework(code, error), toPlainResponse) : undefined)
    .use(opPlugin(deps))
    .use(asPlugin(deps))
    .use(adminPlugin(deps, forward))
    .use(rsPlugin(deps))
  handle = (request) => app.handle(request)
  return app
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

// RFC 9110 §7.2 / RFC 3986 §3.2.2: Host is uri-host [ ":" port ]; anything else ('?', '/', '@', '#'…)
// would make the request URL mean something else to each part of the pod that reads it.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The request's path, or undefined when its Host or URL is not one the pod can act on. */
function pathOf(request: Request): string | undefined {
  const host = request.headers.get('host')
  if (host !== null && !HOST.test(host)) return undefined
  if (!URL.canParse(request.url)) return undefined
  return new URL(request.url).pathname
}

/**
 * The server's fetch handler: preflight, request id, CORS, and for every request exactly one
 * deliberate answer and one access-log line, whatever was thrown on the way; the client address
 * comes from forwarded headers only when the TCP peer is a trusted proxy.
 */
export function makeRequestHandler(app: { handle(req: Request): Promise<Response> }, deps: Pick<Deps, 'clientAddresses' | 'cfg'>) {
  // cfg.trustProxy: reverse proxies whose Forwarded / X-Forwarded-For name the client
  const trusted = new Set(deps.cfg.trustProxy.map(normalizeIp))
  return async (request: Request, server?: { requestIP(r: Request): { address: string } | null }): Promise<Response> => {
    const started = performance.now()
    const incoming = request.headers.get('x-request-id')
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    const path = pathOf(request)
    const cors = path !== undefined && !isSameOriginOnly(path)
    let response: Response
    try {
      deps.clientAddresses.record(request, clientAddressFrom(server?.requestIP(request)?.address, request.headers, trusted))
      if (path === undefined) {
        // Answered before any role sees the request: nothing is read, written or routed by a URL that does not parse the same everywhere.
        response = toPlainResponse(new HttpError(400, 'invalid_request', 'the Host header or request target is malformed: expected host[:port] and an absolute path'))
      } else {
        response = isPreflight(request)
          ? cors ? preflightResponse(request) : new Response(null, { status: 204 })
          : await handleWithHead(app, request)
      }
    } catch (err) {
      response = safeErrorResponse(request, err)
    }
    response = withHeaders(response, reqId)
    if (cors) addCorsHeaders(request, response)
    // One line per request at debug: at the default level a terminal shows the banner and what needs attention.
    log.debug('request', { reqId, method: request.method, path: path ?? '(malformed)', status: response.status, ms: Math.round(performance.now() - started), ip: deps.clientAddresses.of(request) })
    return response
  }
}

/** Request id and nosniff on every answer; a response with immutable headers is copied first. */
function withHeaders(response: Response, reqId: string): Response {
  let r = response
  try { r.headers.set('x-request-id', reqId) } catch { r = new Response(r.body, r); r.headers.set('x-request-id', reqId) }
  r.headers.set('x-content-type-options', 'nosniff')
  return r
}

/** renderError, and should even that fail, a bare 500: never the runtime's own error page. */
function safeErrorResponse(request: Request, err: unknown): Response {
  try {
    return renderError(request, err, toPlainResponse)
  } catch (again) {
    log.error('request.failed', { method: request.method, cause: describeCause(again) })
    return toPlainResponse(new HttpError(500, 'server_error', 'the pod could not complete this request; see the server log'))
  }
}
