// Issue 41 (restart): each role's routes are their own Elysia app, built with the role's first request, and a
// request is given to the app of the role its path names (src/app.ts `roleOf`). Whatever the method and path, the
// answer must be the one a single app of every role gave (as the pod was built before): the same route, hooks,
// refusal and 404. This asks both, side by side, for every route of every role and the paths around them.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia, type AnyElysia } from 'elysia'
import { buildApp, makeRequestHandler, roleOf, type PodApp, type RoleName } from '../src/app.ts'
import { toPlainResponse } from '../src/http/errors.ts'
import { fromFramework, renderError } from '../src/http/render-error.ts'
import { opPlugin } from '../src/op/plugin.ts'
import { asPlugin } from '../src/as/plugin.ts'
import { visitPlugin } from '../src/visit/plugin.ts'
import { linksPlugin } from '../src/links/plugin.ts'
import { makeNotifications } from '../src/notify/plugin.ts'
import { monitorPlugin } from '../src/monitor/plugin.ts'
import { makeDav } from '../src/dav/plugin.ts'
import { makeResourceServer } from '../src/rs/plugin.ts'
import type { Deps } from '../src/deps.ts'
import { isAdminPath, isReservedPath } from '../src/http/pod-paths.ts'
import type { Pod } from '../src/pod.ts'
import { openTempPod } from './temp-pod.ts'

const BASE = 'http://localhost:3995'
let pod: Pod
let roles: Record<Exclude<RoleName, 'rest'>, AnyElysia>
let oneApp: AnyElysia
beforeAll(async () => {
  pod = await openTempPod('app-roles', BASE)
  const { deps } = pod
  roles = {
    op: opPlugin(deps),
    as: asPlugin(deps),
    visit: visitPlugin(deps),
    links: linksPlugin(deps),
    notify: makeNotifications(deps).plugin,
    monitor: monitorPlugin(deps),
  }
  oneApp = oneAppOfEveryRole(deps, roles)
})
afterAll(() => pod.close())

/**
 * The pod's app as it was before each role had its own: every role plugin `.use`d into one Elysia app; with
 * `standardHostname` false, reading a plain-HTTP URL's path from its 8th character (right for a host of any length).
 */
function oneAppOfEveryRole(deps: Deps, r: typeof roles, standardHostname = true): AnyElysia {
  return new Elysia({ name: 'solopod', handler: { standardHostname } })
    .onError(({ code, error, request }) => (code === 'NOT_FOUND' ? renderError(request, fromFramework(code, error), toPlainResponse) : undefined))
    .use(r.op)
    .use(r.as)
    .use(r.visit)
    .use(r.links)
    .use(r.notify)
    .use(r.monitor)
    .use(makeDav(deps).plugin)
    .use(makeResourceServer(deps).plugin)
}

/** The one app behind the pod's request handler, as app.ts asked it for a reserved path: HEAD as GET without the body. */
const asPodApp = (app: AnyElysia): PodApp => ({
  handle: async request => {
    if (request.method !== 'HEAD') return app.handle(request)
    const res = await app.handle(new Request(request.url, { method: 'GET', headers: request.headers }))
    return new Response(null, { status: res.status, headers: res.headers })
  },
  openSocket: () => Promise.reject(new Error('not asked here')),
})

/** Every route of the roles, a wildcard as one segment, with and without a trailing slash and a segment below. */
function pathsAround(): string[] {
  const paths = new Set<string>()
  for (const plugin of Object.values(roles))
    for (const { path } of plugin.routes) {
      const p = path.replace('*', 'x')
      for (const v of [p, `${p}/`, `${p}/more`, `${p}?a=b`, p.replace(/\/$/, '')]) if (v !== '') paths.add(v)
    }
  for (const p of [
    '/.oidc',
    '/.oidc/',
    '/.oidcx/token',
    '/.uma',
    '/.umax',
    '/.well-known',
    '/.well-known/',
    '/.well-known/solid',
    '/.well-known/solid/',
    '/.well-known/unknown',
    '/.well-known/solopod',
    '/.well-knownx/openid-configuration',
    '/.uploads',
    '/.uploads/',
    '/.uploads/0123456789abcdef0123456789abcdef',
    '/.links',
    '/.linksx/a/',
    '/.notifications',
    '/.notificationsx/',
    '/.visitor',
    '/.visitorx',
    '/.oidc/../.uma/token',
    '/.links/%2e%2e/.oidc/jwks',
    '/.oidc/jw%6bs',
    // read from the URL's 12th character with the host `a`, these were /.links/x/ and /.well-known/openid-configuration
    '/.oidc/.links/x/',
    '/.uma/.well-known/openid-configuration',
  ])
    paths.add(p)
  // The others are pod resources, which the RS and dav handlers are asked for directly (not through an app), as before
  return [...paths].filter(p => isReservedPath(new URL(p, BASE).pathname) && !isAdminPath(new URL(p, BASE).pathname))
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'MKCOL', 'COPY', 'LOCK', 'FOO']

/** What must not differ: status, headers (but the request id and dates), and the body (but per-request tokens). */
async function answerOf(res: Response) {
  const headers = [...res.headers]
    .filter(([name]) => !['x-request-id', 'date', 'set-cookie'].includes(name))
    .map(([name, value]) => `${name}: ${name === 'content-length' ? '(n)' : value.replace(/ticket="[^"]*"/g, 'ticket="(ticket)"')}`)
    .sort()
  const body = (await res.text())
    .replace(/name="(csrf|interaction)" value="[^"]*"/g, 'name="$1" value="(token)"')
    .replace(/"(state|id)":"[^"]*"/g, '"$1":"(random)"')
  return { status: res.status, headers, body }
}

describe('a request to the app of its role', () => {
  test('every route of a role is reached by its role', () => {
    for (const [role, plugin] of Object.entries(roles))
      for (const { path } of plugin.routes) {
        const p = path.replace('*', 'x')
        expect([role, roleOf(BASE + p)]).toEqual([role, role])
        expect([role, roleOf(`${BASE}${p}/?a=b`)]).toEqual([role, role])
      }
    expect(roleOf(`${BASE}/.well-known/solid`)).toBe('rest')
    expect(roleOf(`${BASE}/.uploads/x`)).toBe('rest')
    expect(roleOf(`${BASE}/.oidcx/token`)).toBe('rest')
    // A plain-HTTP URL's path is read from its 8th character: a short host's too
    expect(roleOf('http://a/.well-known/openid-configuration')).toBe('op')
    expect(roleOf('http://a/.x/.oidc/jwks')).toBe('rest')
    // An HTTPS URL's from its 12th, as Elysia's router reads it: a host of one or two characters is misread
    expect(roleOf('https://a/.well-known/openid-configuration')).toBe('rest')
    expect(roleOf('https://pod.example/.well-known/openid-configuration')).toBe('op')
  })

  test('a pod reached by a short name (http://nas/) serves its sign-in, discovery and owner pages at their paths', async () => {
    const nas = await openTempPod('app-roles-nas', 'http://nas')
    try {
      const handler = makeRequestHandler(buildApp(nas.deps), nas.deps)
      const ask = async (path: string) => {
        const res = await handler(new Request(`http://nas${path}`, { headers: { host: 'nas' } }))
        return { path, status: res.status, type: res.headers.get('content-type')?.split(';')[0] }
      }
      expect(await ask('/.oidc/login')).toEqual({ path: '/.oidc/login', status: 200, type: 'text/html' })
      expect(await ask('/.well-known/openid-configuration')).toEqual({ path: '/.well-known/openid-configuration', status: 200, type: 'application/json' })
      const config = await (await handler(new Request('http://nas/.well-known/openid-configuration', { headers: { host: 'nas' } }))).json()
      expect(config.issuer).toBe('http://nas')
      expect(await ask('/.oidc/jwks')).toEqual({ path: '/.oidc/jwks', status: 200, type: 'application/json' })
      expect((await ask('/.admin/')).status).not.toBe(404)
    } finally {
      await nas.close()
    }
  })

  test('is answered as one app of every role answered it, for every method and path around the routes', async () => {
    // For the short host, against one app reading the path from the URL's 8th character (the request's path).
    const before = makeRequestHandler(asPodApp(oneApp), pod.deps)
    const beforeShortHost = makeRequestHandler(asPodApp(oneAppOfEveryRole(pod.deps, roles, false)), pod.deps)
    const now = makeRequestHandler(buildApp(pod.deps), pod.deps)
    let asked = 0
    for (const host of ['localhost:3995', 'a']) {
      const base = host === 'a' ? 'http://a' : BASE
      const was = host === 'a' ? beforeShortHost : before
      for (const path of pathsAround())
        for (const method of METHODS) {
          const request = () =>
            new Request(base + path, {
              method,
              headers: { host, origin: 'https://app.example', 'content-type': 'application/x-www-form-urlencoded' },
              ...(['GET', 'HEAD', 'OPTIONS'].includes(method) ? {} : { body: 'a=b' }),
            })
          const [then, is] = [await answerOf(await was(request())), await answerOf(await now(request()))]
          expect({ method, path: base + path, ...is }).toEqual({ method, path: base + path, ...then })
          asked++
        }
    }
    expect(asked).toBeGreaterThan(1000)
  })
})
