// Builds the pod: the role plugins, each on its own Elysia app built with its first request, plus CORS, request ids and access logs around it.

import { getForHead } from './http/head-as-get.ts'
import { Elysia, type AnyElysia } from 'elysia'
import type { Deps } from './deps.ts'
import { HttpError, toPlainResponse } from './http/errors.ts'
import { fromFramework, renderError } from './http/render-error.ts'
import { addCorsHeaders, isPreflight, preflightResponse } from './http/cors.ts'
import { describeCause, log } from './log.ts'
import { inRequestScope } from './lib/request-scope.ts'
import { LruCache } from './lib/lru-cache.ts'
import { forgetWhenIdle } from './lib/idle-caches.ts'
import { loadOnce } from './lib/load-once.ts'
import { clientAddressFrom } from './http/client-address.ts'
import { normalizeIp } from './lib/ip-address.ts'
import { opPlugin } from './op/plugin.ts'
import { makeResourceServer } from './rs/plugin.ts'
import { isAdminPath, isReservedPath, isSameOriginOnly, loggedPath, NOTIFY_PATHS } from './http/pod-paths.ts'
import { makeNotifications } from './notify/plugin.ts'
import { makeDav } from './dav/plugin.ts'
import { isDavMethod } from './http/dav-methods.ts'
import { asksForSocket, type SocketSession } from './http/socket-session.ts'

/** The pod as the request handler sees it: every request with its path (already checked by pathOf). */
export interface PodApp {
  handle(request: Request, path: string): Promise<Response>
  /** A WebSocket handshake at a notification channel: the session to upgrade to, or the refusal. */
  openSocket(request: Request, path: string): Promise<SocketSession | Response>
}

/**
 * The owner's pages and API: over a hundred routes, which took a third of a restart's CPU to build (docs/performance.md
 * "Start-up"). They are imported and built with the first request under /.admin, which waits for them.
 */
const loadAdminPlugin = () => import('./admin/plugin.ts').then(m => m.adminPlugin)

/**
 * The roles a restart's first requests do not need (UMA's token endpoint, the visitor's and share-link pages, the
 * monitor's health and metrics): each imported with its first request too, a few ms of a restart's module loading
 * (docs/performance.md "Start-up"). The OpenID provider's routes stay in the start: discovery is what apps ask first.
 */
const LAZY_ROLES = {
  as: () => import('./as/plugin.ts').then(m => m.asPlugin),
  visit: () => import('./visit/plugin.ts').then(m => m.visitPlugin),
  links: () => import('./links/plugin.ts').then(m => m.linksPlugin),
  monitor: () => import('./monitor/plugin.ts').then(m => m.monitorPlugin),
}
type LazyRole = keyof typeof LAZY_ROLES
const isLazyRole = (role: RoleName): role is LazyRole => Object.hasOwn(LAZY_ROLES, role)
const eachLazyRole = <T>(make: (role: LazyRole) => T) =>
  Object.fromEntries(Object.keys(LAZY_ROLES).map(role => [role, make(role as LazyRole)])) as Record<LazyRole, T>

/**
 * Where Elysia's router starts looking for a request's path: with `standardHostname` (its default), at the URL's 12th
 * character, which saves a search but misreads a short host's URL. A pod reached as `http://nas/` (a host of under
 * four characters on port 80) had `/login` routed for `/.oidc/login`, and its owner could not sign in. A plain-HTTP
 * URL is read from its 8th character (the host ends at the first `/` after `http://`); an HTTPS one as Elysia does,
 * from its 12th: only a host of one or two characters on port 443 is misread there, a name no public certificate is
 * issued for. The pod's own listener is plain HTTP or HTTPS, so its requests use one of the two forms of each app.
 */
type PathStart = 7 | 11
const pathStartOf = (url: string): PathStart => (url.startsWith('http://') ? 7 : 11)

/** Each role plugin renders its own errors; this answers only a request no route took. */
const podApp = (name: string, pathStart: PathStart) =>
  new Elysia({ name, handler: { standardHostname: pathStart === 11 } }).onError(({ code, error, request }) =>
    code === 'NOT_FOUND' ? renderError(request, fromFramework(code, error), toPlainResponse) : undefined,
  )

/** What the request handler asks of an app: Elysia's `handle`. */
interface AppHandler {
  handle(request: Request): Promise<Response>
}

/** The Elysia roles, each asked on its own: `rest` has no routes of its own (the RS's and dav's `/*` take its paths). */
export type RoleName = 'op' | 'as' | 'visit' | 'links' | 'notify' | 'monitor' | 'rest'

/** A role by the first segment of a path (by the second under `/.well-known/`, which several roles share). */
const BY_FIRST = new Map<string, RoleName>([
  ['.oidc', 'op'],
  ['.uma', 'as'],
  ['.visitor', 'visit'],
  ['.links', 'links'],
  ['.notifications', 'notify'],
])
const BY_WELL_KNOWN = new Map<string, RoleName>([
  ['openid-configuration', 'op'],
  ['uma2-configuration', 'as'],
  ['solopod', 'monitor'],
])

/**
 * The role whose routes can match the request, read from the path as Elysia's router reads it (the request URL from
 * the first `/` at or after `pathStart` to the `?`: elysia/dist/adapter/web-standard `createContext`). Every route of
 * a role starts with a first segment only that role's routes have (under `/.well-known/`, a second one): so the
 * role's app, which holds its routes and the `/*` routes of dav and the RS behind them, takes the same route for the
 * request as one app of every role did (test/app-roles.test.ts asks both).
 */
export function roleOf(url: string, pathStart: PathStart = pathStartOf(url)): RoleName {
  const start = url.indexOf('/', pathStart)
  if (start < 0) return 'rest'
  const query = url.indexOf('?', start + 1)
  const [, first = '', second = ''] = (query < 0 ? url.slice(start) : url.slice(start, query)).split('/', 3)
  return (first === '.well-known' ? BY_WELL_KNOWN.get(second) : BY_FIRST.get(first)) ?? 'rest'
}

/** Made on first use and kept (a synchronous build: one that throws is made again by the next use). */
function once<T>(make: () => T): () => T {
  let made: T | undefined
  return () => (made ??= make())
}

/** `loadAdmin` is a seam for the tests of a failed load. */
export function buildApp(deps: Deps, loadAdmin = loadAdminPlugin): PodApp {
  const rs = makeResourceServer(deps)
  const dav = makeDav(deps)
  const notify = makeNotifications(deps)
  // What no route of the role takes falls to the resource server's routes (the WebDAV methods to dav's), as in one
  // app of every role (it refuses a reserved path). Each role is built, and its app composed, with its first
  // request: Elysia's adding and composing of every role's routes was most of a restart after the store's open
  // (docs/performance.md "Start-up", fifth and sixth pass), and a role's request needs only its own routes.
  // A role's plugin is made once (it may keep state, such as pending sign-ins); each form of its app uses it.
  const appOf = (name: string, plugin: AnyElysia | undefined, pathStart: PathStart): AppHandler =>
    (plugin ? podApp(name, pathStart).use(plugin) : podApp(name, pathStart)).use(dav.plugin).use(rs.plugin)
  const plugins: Record<Exclude<RoleName, LazyRole>, () => AnyElysia | undefined> = {
    op: once(() => opPlugin(deps)),
    notify: () => notify.plugin,
    rest: () => undefined,
  }
  const lazyPlugins = eachLazyRole(role => loadOnce(async (): Promise<AnyElysia> => (await LAZY_ROLES[role]())(deps)))
  const adminPlugin = loadOnce(async () => (await loadAdmin())(deps))
  const appsFrom = (pathStart: PathStart) => {
    const apps = new Map<RoleName, AppHandler>()
    const lazyApp = (name: string, plugin: () => Promise<AnyElysia>) => loadOnce(async () => appOf(name, await plugin(), pathStart))
    const lazyApps = eachLazyRole(role => lazyApp(`solopod-${role}`, lazyPlugins[role]))
    return {
      role: (role: RoleName): AppHandler | Promise<AppHandler> =>
        isLazyRole(role) ? lazyApps[role]() : (apps.get(role) ?? apps.set(role, appOf(`solopod-${role}`, plugins[role](), pathStart)).get(role)!),
      admin: lazyApp('solopod-admin', adminPlugin),
    }
  }
  const forms = { 7: appsFrom(7), 11: appsFrom(11) }
  return {
    // Every path outside the reserved first segments is a pod resource (http/pod-paths.ts), which the RS
    // route `/*` would take anyway (the dav role's for the WebDAV methods): asked directly, a resource request skips the router's work.
    handle: (request, path) => {
      if (!isReservedPath(path)) return isDavMethod(request.method) ? dav.handle(request) : rs.handle(request)
      const pathStart = pathStartOf(request.url)
      const apps = forms[pathStart]
      const app = isAdminPath(path) ? apps.admin() : apps.role(roleOf(request.url, pathStart))
      return app instanceof Promise ? app.then(a => handleWithHead(a, request)) : handleWithHead(app, request)
    },
    openSocket: notify.openSocket,
  }
}

/**
 * RFC 9110 §9.3.2: HEAD wherever GET is served. Pod resources answer HEAD themselves; the other roles'
 * GET routes (discovery, JWKS, pages) are asked as GET and answered without the body.
 */
async function handleWithHead(app: AppHandler, request: Request): Promise<Response> {
  if (request.method !== 'HEAD') return app.handle(request)
  const res = await app.handle(getForHead(request))
  return new Response(null, { status: res.status, headers: res.headers })
}

const REQUEST_ID = /^[\w-]{1,64}$/

// RFC 9110 §7.2 / RFC 3986 §3.2.2: Host is uri-host [ ":" port ]; anything else ('?', '/', '@', '#'…)
// would make the request URL mean something else to each part of the pod that reads it.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * Host values that passed HOST and made a URL that parses: the same few arrive on every request. A URL's
 * path never fails to parse (WHATWG URL §4.4 path state), so a host that parsed once always will.
 */
const goodHosts = forgetWhenIdle(new LruCache<string, true>(64))

/**
 * A path whose characters WHATWG URL leaves as they are and with no segment starting with `.` (or its
 * encoding `%2e`, which the URL parser treats as a dot segment): its raw form is its pathname.
 */
const PLAIN_PATH = /^(?:\/(?![./]|%2[eE])(?:[A-Za-z0-9\-_~!$&'()*+,;=:@.]|%(?!2[eE])[0-9A-Fa-f]{2})*)+\/?$|^\/$/

/** The request's path, or undefined when its Host or URL is not one the pod can act on. */
function pathOf(request: Request): string | undefined {
  const host = request.headers.get('host')
  const url = request.url
  if (host === null || goodHosts.get(host) === undefined) {
    if (host !== null && !HOST.test(host)) return undefined
    if (!URL.canParse(url)) return undefined
    if (host !== null) goodHosts.set(host, true)
  }
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return new URL(url).pathname
  const end = url.indexOf('?', start)
  const raw = end < 0 ? url.slice(start) : url.slice(start, end)
  return PLAIN_PATH.test(raw) ? raw : new URL(url).pathname
}

/** Request ids: unique per process (a random prefix per start, a counter per request), cheaper than a UUID each. */
const ID_PREFIX = crypto.randomUUID().slice(0, 8)
let requestCount = 0
const nextRequestId = () => `${ID_PREFIX}-${(++requestCount).toString(36)}`

/**
 * The server's fetch handler: preflight, request id, CORS, and for every request exactly one
 * deliberate answer and one access-log line, whatever was thrown on the way; the client address
 * comes from forwarded headers only when the TCP peer is a trusted proxy.
 */
export function makeRequestHandler(app: PodApp, deps: Pick<Deps, 'clientAddresses' | 'cfg' | 'metrics'>) {
  // cfg.trustProxy: reverse proxies whose Forwarded / X-Forwarded-For name the client
  const trusted = new Set(deps.cfg.trustProxy.map(normalizeIp))
  return async (request: Request, server?: PodServer): Promise<Response> => {
    const started = performance.now()
    deps.metrics.requestStarted()
    const incoming = request.headers.get('x-request-id')
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : nextRequestId()
    const path = pathOf(request)
    const cors = path !== undefined && !isSameOriginOnly(path)
    let response: Response
    try {
      // Asked for only where a limit needs it (login, registration): most requests never pay for the lookup.
      if (server) deps.clientAddresses.record(request, () => clientAddressFrom(server.requestIP(request)?.address, request.headers, trusted))
      if (path === undefined) {
        // Answered before any role sees the request: nothing is read, written or routed by a URL that does not parse the same everywhere.
        response = toPlainResponse(
          new HttpError(400, 'invalid_request', 'the Host header or request target is malformed: expected host[:port] and an absolute path'),
        )
      } else if (server?.upgrade && asksForSocket(request) && path.startsWith(NOTIFY_PATHS.base)) {
        response = await openSocket(app, request, path, server)
      } else {
        response = isPreflight(request)
          ? cors
            ? preflightResponse(request)
            : new Response(null, { status: 204 })
          : // remote documents fetched for this request count against its client's budget (fetch/fetch-budget.ts)
            await inRequestScope({ client: () => deps.clientAddresses.of(request) }, () => app.handle(request, path))
      }
    } catch (err) {
      response = safeErrorResponse(request, err)
    }
    response = withHeaders(response, reqId)
    if (cors) addCorsHeaders(request, response)
    const ms = performance.now() - started
    deps.metrics.recordRequest(path, response.status, ms / 1000)
    // One line per request at debug: at the default level a terminal shows the banner and what needs attention.
    if (log.enabled('debug'))
      log.debug('request', {
        reqId,
        method: request.method,
        path: path === undefined ? '(malformed)' : loggedPath(path),
        status: response.status,
        ms: Math.round(ms),
        ip: deps.clientAddresses.of(request),
      })
    return response
  }
}

/** What the request handler uses of Bun's server: the peer address, and the WebSocket upgrade. */
interface PodServer {
  requestIP(r: Request): { address: string } | null
  upgrade?(r: Request, o: { data: SocketSession; headers?: Record<string, string> }): boolean
}

/** Upgrades to the session the notification role made; Bun sends the 101 itself, the 101 here is for the access log. */
async function openSocket(app: PodApp, request: Request, path: string, server: PodServer): Promise<Response> {
  const opened = await app.openSocket(request, path)
  if (opened instanceof Response) return opened
  if (server.upgrade!(request, { data: opened, ...(opened.headers ? { headers: opened.headers } : {}) })) return new Response(null, { status: 101 })
  return toPlainResponse(new HttpError(400, 'invalid_request', 'the WebSocket handshake is malformed (RFC 6455 §4.1)'))
}

/** Request id and nosniff on every answer; a response with immutable headers is copied first. */
function withHeaders(response: Response, reqId: string): Response {
  let r = response
  try {
    r.headers.set('x-request-id', reqId)
  } catch {
    r = new Response(r.body, r)
    r.headers.set('x-request-id', reqId)
  }
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
