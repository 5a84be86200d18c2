import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { openPod, seedTurtle, type Pod } from './pod-fixture.ts'

// WAC over HTTP for authenticated agents: real DPoP-bound Solid-OIDC access tokens (Solid-OIDC §8) from an
// issuer on a second loopback server, which also serves the agents' WebID profiles and a remote group.

const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix vcard: <http://www.w3.org/2006/vcard/ns#>. @prefix solid: <http://www.w3.org/ns/solid/terms#>.\n`
const allow = (user: string, pub = '') => `user="${user}",public="${pub}"`
const RWA = 'read write append'

let pod: Pod
let issuerServer: ReturnType<typeof Bun.serve>
let issuer = ''
let signingKey: CryptoKey
let issuerJwk: JWK
let dpopKey: { privateKey: CryptoKey; jwk: JWK; jkt: string }

const webidOf = (name: string) => `${issuer}/${name}#me`

/** Headers of one request made as `name`: a fresh proof per request (jti is single use). */
async function as(name: string, method: string, path: string): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({ webid: webidOf(name), client_id: 'https://app.example/id', cnf: { jkt: dpopKey.jkt } })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience('solid')
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(signingKey)
  const ath = Buffer.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))).toString('base64url')
  const proof = await new SignJWT({ htm: method, htu: pod.base + path, jti: crypto.randomUUID(), ath })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpopKey.jwk })
    .setIssuedAt(now)
    .sign(dpopKey.privateKey)
  return { authorization: `DPoP ${token}`, dpop: proof }
}

async function request(name: string | undefined, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const method = init.method ?? 'GET'
  const auth = name ? await as(name, method, path) : {}
  return pod.request(path, { ...init, method, headers: { ...init.headers, ...auth } })
}

const turtle = (method: string, body = '') => ({ method, headers: { 'content-type': 'text/turtle' }, body })
const insert = (triples: string) => ({
  method: 'PATCH',
  headers: { 'content-type': 'text/n3' },
  body: `${PREFIXES}_:p a solid:InsertDeletePatch; solid:inserts { ${triples} }.`,
})
const rule = (target: string, subject: string, modes: string, extra = '') =>
  `[] a acl:Authorization; ${target}; ${subject}; acl:mode ${modes}${extra ? `; ${extra}` : ''}.\n`
const both = 'acl:accessTo <./>; acl:default <./>'

beforeAll(async () => {
  const pair = await generateKeyPair('ES256')
  signingKey = pair.privateKey
  issuerJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }
  const dpop = await generateKeyPair('ES256')
  const jwk = await exportJWK(dpop.publicKey)
  dpopKey = { privateKey: dpop.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) }
  issuerServer = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req => {
      const path = new URL(req.url).pathname
      if (path === '/.well-known/openid-configuration') return Response.json({ issuer, jwks_uri: `${issuer}/jwks` })
      if (path === '/jwks') return Response.json({ keys: [issuerJwk] })
      if (path === '/team') {
        return new Response(`${PREFIXES}<#g> a vcard:Group; vcard:hasMember <${webidOf('dan')}>.`, { headers: { 'content-type': 'text/turtle' } })
      }
      return new Response(`${PREFIXES}<#me> solid:oidcIssuer <${issuer}>.`, { headers: { 'content-type': 'text/turtle' } })
    },
  })
  issuer = `http://localhost:${issuerServer.port}`
  pod = await openPod()
  const seed = (path: string, ttl: string) => seedTurtle(pod.store, pod.base, path, PREFIXES + ttl)
  await seed('/groups/friends', `<#g> a vcard:Group; vcard:hasMember <${webidOf('carol')}>.`)
  // bob writes, carol (local group) reads and appends, dan (remote group) reads, erin only controls;
  // anyone authenticated may append to the container itself; the public reads nothing.
  await seed(
    '/shared/.acl',
    rule(both, `acl:agent <${webidOf('bob')}>`, 'acl:Read, acl:Write') +
      rule(both, 'acl:agentGroup </groups/friends#g>', 'acl:Read, acl:Append') +
      rule(both, `acl:agentGroup <${issuer}/team#g>`, 'acl:Read') +
      rule(both, `acl:agent <${webidOf('erin')}>`, 'acl:Control'),
  )
  await seed('/originapp/.acl', rule(both, `acl:agent <${webidOf('bob')}>`, 'acl:Read', 'acl:origin <https://good.app>'))
  for (const path of ['/shared/doc', '/shared/doc2', '/shared/sub/', '/originapp/doc']) await seed(path, '<#a> <#b> <#c>.')
})

afterAll(async () => {
  issuerServer.stop(true)
  await pod.close()
})

describe('WAC over HTTP with DPoP-authenticated agents', () => {
  test.each<[string, string | undefined, string, { method?: string; headers?: Record<string, string>; body?: string }, number, string]>([
    ['an agent with Read reads', 'bob', '/shared/doc', {}, 200, allow(RWA)],
    ['a local group member reads', 'carol', '/shared/doc', {}, 200, allow('read append')],
    ['a remote group member reads', 'dan', '/shared/doc', {}, 200, allow('read')],
    ['an authenticated agent without Read: 403', 'mallory', '/shared/doc', {}, 403, allow('')],
    ['Control alone does not read: 403', 'erin', '/shared/doc', {}, 403, allow('control')],
    ['anonymous: 401', undefined, '/shared/doc', {}, 401, allow('')],
    ['PUT replacing with Write', 'bob', '/shared/doc', turtle('PUT', '<#x> <#y> <#z>.'), 204, allow(RWA)],
    ['PUT replacing with Append only: 403', 'carol', '/shared/doc', turtle('PUT'), 403, allow('read append')],
    ['PUT creating with Write and Append on the parent', 'bob', '/shared/new', turtle('PUT'), 201, allow(RWA)],
    ['PUT creating without Write on it: 403', 'carol', '/shared/new2', turtle('PUT'), 403, allow('read append')],
    ['POST with Append', 'carol', '/shared/', turtle('POST'), 201, allow('read append')],
    ['POST with Read only: 403', 'dan', '/shared/', turtle('POST'), 403, allow('read')],
    ['PATCH inserting with Append', 'carol', '/shared/doc', insert('<#d> <#e> <#f>'), 204, allow('read append')],
    ['PATCH inserting with Read only: 403', 'dan', '/shared/doc', insert('<#d> <#e> <#f>'), 403, allow('read')],
    ['DELETE with Write on it and its container', 'bob', '/shared/doc2', { method: 'DELETE' }, 204, allow(RWA)],
    ['DELETE with Append only: 403', 'carol', '/shared/doc', { method: 'DELETE' }, 403, allow('read append')],
    ['GET of the ACL with Control', 'erin', '/shared/.acl', {}, 200, allow('read write append control')],
    ['GET of the ACL without Control: 403', 'bob', '/shared/.acl', {}, 403, allow('')],
    ['acl:origin: the listed origin', 'bob', '/originapp/doc', { headers: { origin: 'https://good.app' } }, 200, allow('read')],
    ['acl:origin: another origin: 403', 'bob', '/originapp/doc', { headers: { origin: 'https://evil.app' } }, 403, allow('')],
    ['acl:origin: no Origin header', 'bob', '/originapp/doc', {}, 200, allow('read')],
  ])('%s', async (_rule, who, path, init, status, wacAllow) => {
    const res = await request(who, path, init)
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status, wacAllow })
  })

  test('PATCH by an agent without Append: 403 forbidden at once, the body (endless here) never read', async () => {
    const auth = await as('dan', 'PATCH', '/shared/doc')
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('INSERT DATA { '))
      },
    })
    const answer = await Promise.race([
      pod.request('/shared/doc', { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', ...auth }, body, duplex: 'half' } as RequestInit),
      Bun.sleep(5000).then(() => 'no answer' as const),
    ])
    expect(answer).not.toBe('no answer')
    const res = answer as Response
    expect({ status: res.status, code: (await res.text()).split(':', 1)[0] }).toEqual({ status: 403, code: 'forbidden' })
  })

  test('authenticated and denied: 403 without challenges, with the ACL link', async () => {
    const res = await request('mallory', '/shared/doc')
    expect(res.status).toBe(403)
    expect(res.headers.get('www-authenticate')).toBeNull()
    expect(res.headers.get('link')).toContain(`<${pod.base}/shared/doc.acl>; rel="acl"`)
  })

  test.each<[string, string, string, { method?: string; headers?: Record<string, string>; body?: string }]>([
    ['GET', '/shared/doc', '/shared/missing', {}],
    ['PUT', '/shared/doc', '/shared/missing', turtle('PUT')],
    ['DELETE', '/shared/doc', '/shared/missing', { method: 'DELETE' }],
    ['GET of a container', '/shared/sub/', '/shared/nosub/', {}],
  ])('no existence oracle for an agent without Read: %s answers 403 either way', async (_what, a, b, init) => {
    const [x, y] = [await request('mallory', a, init), await request('mallory', b, init)]
    expect([y.status, y.headers.get('wac-allow')]).toEqual([x.status, x.headers.get('wac-allow')])
    expect(y.status).toBe(403)
  })
})
