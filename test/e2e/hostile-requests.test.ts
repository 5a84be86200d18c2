// Every request gets one deliberate answer and one access-log line: malformed Host headers, and a
// bounded, seeded fuzz of methods, paths, headers and bodies over loopback.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer, writeTurtle, publicAcl } from './seed-store.ts'
import { rawRequest, sendRaw, type RawResponse } from './raw-http.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({
    // access lines are written at debug
    extraArgs: ['--log-level', 'debug'],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, '/inbox/', ['Read', 'Append'], async store => {
        await writeTurtle(store, baseUrl, '/pub/', '')
        await writeTurtle(store, baseUrl, '/pub/.acl', publicAcl(`${baseUrl}/pub/`, ['Read', 'Write', 'Append']))
      }),
  })
}, 30_000)
afterAll(() => pod.dispose())

const host = () => `Host: localhost:${pod.port}`
const accessLines = () =>
  pod
    .output()
    .split('\n')
    .filter(l => l.includes('"event":"request"')).length

async function waitForLines(n: number) {
  for (let i = 0; i < 100 && accessLines() < n; i++) await Bun.sleep(20)
}

/** The count once the pod's output has stopped growing: earlier requests' lines arrive asynchronously. */
async function settledLines(): Promise<number> {
  for (let last = -1; ; ) {
    const now = accessLines()
    if (now === last) return now
    last = now
    await Bun.sleep(150)
  }
}

/** No runtime error page, no stack, no source path: what a deliberate answer never holds. */
function expectDeliberate(r: RawResponse) {
  expect(r.status).toBeGreaterThanOrEqual(200)
  expect(r.status).toBeLessThan(600)
  expect(r.raw).not.toContain('__bunfallback')
  expect(r.raw).not.toMatch(/\.ts:\d+|\/src\/|node_modules|at <anonymous>|Bun v\d/)
}

describe('RFC 9110 §7.2: a malformed Host header', () => {
  test.each(['localhost:PORT?', 'localhost:PORT/inbox/', 'localhost:PORT#x', 'user@localhost:PORT', 'localhost:PORT?x=1', '[::1'])(
    'Host: %s → 400 invalid_request, one log line, nothing created',
    async value => {
      const before = await settledLines()
      const r = await sendRaw(
        pod.port,
        rawRequest('POST', '/inbox/', [`Host: ${value.replace('PORT', String(pod.port))}`, 'Content-Type: text/turtle', 'Slug: hostile'], '<#a> <#b> <#c>.'),
      )
      expectDeliberate(r)
      expect(r.status).toBe(400)
      expect(r.body.split(':', 1)[0]).toBe('invalid_request')
      expect(await settledLines()).toBe(before + 1)
      const listing = await (await fetch(`${pod.baseUrl}/inbox/`, { headers: { accept: 'text/turtle' } })).text()
      expect(listing).not.toContain('hostile')
    },
  )
})

// A small deterministic PRNG (mulberry32): the same requests every run, so a failure reproduces.
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Only what HTTP/1.1 parses into a request: Bun's HTTP layer itself drops methods it does not know
// and answers an invalid request line (a space in the target) with 505 and the asterisk-form target `*`
// with 400, before the pod sees anything.
const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE', 'MKCOL']
const PATHS = [
  '/',
  '/pub/',
  '/pub/doc',
  '/pub/a/b/c',
  '/pub/doc.acl',
  '/pub/.acl',
  '/inbox/',
  '/inbox/x',
  '/profile/card',
  '/profile/card.acl',
  '/pub/%00',
  '/pub/%2F',
  '/pub/%zz',
  '/pub/a//b',
  '/pub/\u00e9',
  '/pub/%E2%82%AC',
  '/pub/' + 'x'.repeat(3000),
  '/pub/a%20b',
  '/.oidc/auth',
  '/.oidc/auth?client_id=http://localhost:1/x',
  '/.oidc/token',
  '/.oidc/reg',
  '/.oidc/userinfo',
  '/.oidc/jwks',
  '/.oidc/session/end?id_token_hint=x.y.z',
  '/.oidc/login',
  '/.oidc/consent',
  '/.well-known/openid-configuration',
  '/.admin/sessions',
  '/.admin/api/sessions',
  '/.admin/setup?token=x',
  '/.uma/token',
  '/.well-known/solid',
  '/pub/doc?x=%',
]
const CONTENT_TYPES = [
  'text/turtle',
  'application/ld+json',
  'text/n3',
  'application/sparql-update',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/json',
  'text/html',
  'garbage',
  ';;;',
  'text/turtle; charset=latin1',
]
const BODIES = [
  '',
  '<#a> <#b> <#c>.',
  '<#a> <#b> "unterminated',
  '{"@id": "#a"',
  '@prefix : <#>. :a :b :c.',
  'INSERT DATA { <#a> <#b> <#c> }',
  `INSERT DATA { ${'{ '.repeat(500)}}`,
  '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#x> <#y> <#z> }.',
  'grant_type=authorization_code&code=x&redirect_uri=y',
  'password=x&csrf=y',
  '\u0000\u0001\u0002',
  '[[[[[[[[[[',
  '{"redirect_uris": ["javascript:alert(1)"], "scope": "openid webid"}',
  'x'.repeat(5000),
]
const EXTRA_HEADERS = [
  'Authorization: DPoP abc',
  'Authorization: Bearer x.y.z',
  'Authorization: Basic Zm9vOmJhcg==',
  'Authorization: ',
  'Authorization: DPoP',
  'DPoP: a.b.c',
  'DPoP: ',
  'Origin: http://localhost:1',
  'Origin: null',
  'Slug: ../../etc',
  'Slug: %2F',
  'If-Match: "x"',
  'If-Match: *',
  'If-None-Match: *',
  'Accept: */*;q=x',
  'Accept: text/turtle;q=0.9, application/ld+json',
  'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
  'Link: <>; rel=',
  'Cookie: solopod_session=x; csrf=y',
  'X-Request-Id: ../../x',
  'Access-Control-Request-Method: PUT',
  'Content-Type: text/turtle',
  'Range: bytes=5-1',
  'Expect: 100-continue',
]
const HOSTS = (port: number) => [
  `localhost:${port}`,
  `localhost:${port}`,
  `localhost:${port}`,
  `127.0.0.1:${port}`,
  'evil.example',
  `localhost:${port}?`,
  `[::1]:${port}`,
]

describe('fuzz: seeded hostile requests over loopback', () => {
  const COUNT = 300
  test(`${COUNT} requests: each one deliberate answer (no 5xx, no runtime page) and one access-log line; the pod still serves`, async () => {
    const random = prng(9)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const requests = Array.from({ length: COUNT }, () => {
      const headers = [`Host: ${pick(HOSTS(pod.port))}`]
      if (random() < 0.7) headers.push(`Content-Type: ${pick(CONTENT_TYPES)}`)
      for (let i = Math.floor(random() * 3); i > 0; i--) headers.push(pick(EXTRA_HEADERS))
      return { method: pick(METHODS), path: pick(PATHS), headers, body: random() < 0.6 ? pick(BODIES) : '' }
    })
    const before = await settledLines()
    const failures: string[] = []
    // 8 at a time: enough to interleave, few enough for a shared 2-core machine
    for (let i = 0; i < requests.length; i += 8) {
      await Promise.all(
        requests.slice(i, i + 8).map(async q => {
          const r = await sendRaw(pod.port, rawRequest(q.method, q.path, q.headers, q.body))
          const what = `${q.method} ${q.path.slice(0, 60)} [${q.headers.join(' | ')}] → ${r.status}`
          if (r.status >= 500 || !(r.status >= 200) || /__bunfallback|\.ts:\d+|\/src\/|at <anonymous>/.test(r.raw))
            failures.push(`${what}: ${r.body.slice(0, 200)}`)
        }),
      )
    }
    expect(failures).toEqual([])
    await waitForLines(before + COUNT)
    expect(await settledLines()).toBe(before + COUNT)
    const card = await fetch(`${pod.baseUrl}/profile/card`)
    expect(card.status).toBe(200)
    expect(pod.proc.exitCode).toBeNull()
  }, 120_000)
})
