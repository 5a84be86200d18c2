// Response headers of Solid Protocol §4.1, CORS of §5.6, and the 401 challenge for anonymous requests.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { AUTH_CHALLENGES } from '../../src/policy/access-control.ts'
import { LDP, expectStatus, linksOf, parseTurtle, randomBytes, typeLinks, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  await expectStatus(pod.request('/pub/h/doc', withTurtle('PUT', '')), 201)
  await expectStatus(pod.request('/pub/h/bin', withBody('PUT', 'application/octet-stream', randomBytes(10))), 201)
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const PIM_STORAGE = 'http://www.w3.org/ns/pim/space#Storage'
const DESCRIPTION_REL = 'http://www.w3.org/ns/solid/terms#storageDescription'
const ORIGIN = 'https://app.example'
const methodsOf = (res: Response) =>
  (res.headers.get('allow') ?? '')
    .split(',')
    .map(m => m.trim())
    .sort()
const relTarget = (res: Response, rel: string) =>
  linksOf(res)
    .filter(l => l.rel === rel)
    .map(l => l.target)

describe('LDP §4.2.1.4 / §5.2.1.4 Link rel="type"', () => {
  test.each(['/pub/h/doc', '/pub/h/bin', '/pub/h/'])('%s is an ldp:Resource', async path => {
    expect(typeLinks(await pod.request(path))).toContain(LDP('Resource'))
  })

  test('a container is an ldp:Container and an ldp:BasicContainer', async () => {
    const types = typeLinks(await pod.request('/pub/h/'))
    expect(types).toContain(LDP('Container'))
    expect(types).toContain(LDP('BasicContainer'))
  })

  test('a document is not a container', async () => {
    expect(typeLinks(await pod.request('/pub/h/doc'))).not.toContain(LDP('Container'))
  })

  test('the storage root is a pim:Storage (also on its 401), other containers are not', async () => {
    expect(typeLinks(await pod.request('/', { method: 'OPTIONS' }))).toContain(PIM_STORAGE)
    expect(typeLinks(await pod.request('/'))).toContain(PIM_STORAGE)
    expect(typeLinks(await pod.request('/pub/h/'))).not.toContain(PIM_STORAGE)
  })
})

describe('Solid Protocol §4.1 / WAC: Link rel="acl" and rel=storageDescription', () => {
  test.each([
    ['/pub/h/doc', '/pub/h/doc.acl'],
    ['/pub/h/', '/pub/h/.acl'],
    ['/pub/h/bin', '/pub/h/bin.acl'],
  ])('%s links its ACL %s', async (path, acl) => {
    expect(relTarget(await pod.request(path), 'acl')).toEqual([url(acl)])
  })

  test('an ACL resource has no rel="acl" of its own', async () => {
    expect(relTarget(await pod.request('/pub/.acl'), 'acl')).toEqual([])
  })

  test.each(['GET', 'HEAD', 'OPTIONS'])('%s links the storage description, which describes the root as pim:Storage', async method => {
    const [description] = relTarget(await pod.request('/pub/h/doc', { method }), DESCRIPTION_REL)
    expect(description).toBeDefined()
    const res = await pod.request(new URL(description!).pathname)
    expect(res.status).toBe(200)
    const quads = parseTurtle(await res.text(), description!)
    expect(quads.some(q => q.subject.value === url('/') && q.object.value === PIM_STORAGE)).toBe(true)
  })
})

describe('WAC 1.1 ED §3.2 ACL resource condition discovery (server-link-condition)', () => {
  const CONDITION_REL = 'http://www.w3.org/ns/auth/acl#condition'
  const TYPES = ['http://www.w3.org/ns/auth/acl#ClientCondition', 'http://www.w3.org/ns/auth/acl#IssuerCondition']

  test.each(['GET', 'HEAD', 'OPTIONS'])('%s of the effective ACL resource names each condition type the pod understands', async method => {
    const res = await pod.request('/pub/.acl', { method })
    expect(res.status).toBeLessThan(300)
    expect(relTarget(res, CONDITION_REL)).toEqual(TYPES)
  })

  test('a refused request on an ACL resource, and an ACL resource that does not exist, name them too: no existence oracle', async () => {
    const refused = await pod.request('/.acl', { method: 'HEAD' })
    expect(refused.status).toBe(401)
    expect(relTarget(refused, CONDITION_REL)).toEqual(TYPES)
    expect(relTarget(await pod.request('/pub/h/doc.acl', { method: 'OPTIONS' }), CONDITION_REL)).toEqual(TYPES)
  })

  test('a resource that is not an ACL resource does not', async () => {
    expect(relTarget(await pod.request('/pub/h/doc'), CONDITION_REL)).toEqual([])
  })
})

describe('Solid Protocol §4.1 Allow, Accept-Patch, Accept-Post, Accept-Put, Vary', () => {
  test('a document allows reading, replacing, patching and deleting, not POST', async () => {
    expect(methodsOf(await pod.request('/pub/h/doc'))).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT'])
  })

  test('a container also allows POST', async () => {
    expect(methodsOf(await pod.request('/pub/h/'))).toContain('POST')
  })

  test('a binary does not allow PATCH and has no Accept-Patch', async () => {
    const res = await pod.request('/pub/h/bin')
    expect(methodsOf(res)).not.toContain('PATCH')
    expect(res.headers.get('accept-patch')).toBeNull()
  })

  test('the root allows neither DELETE nor PUT', async () => {
    const methods = methodsOf(await pod.request('/', { method: 'OPTIONS' }))
    expect(methods).not.toContain('DELETE')
    expect(methods).not.toContain('PUT')
    expect(methods).toContain('POST')
  })

  test('the root ACL does not allow DELETE', async () => {
    expect(methodsOf(await pod.request('/.acl', { method: 'OPTIONS' }))).not.toContain('DELETE')
  })

  test('RDF documents and containers advertise Accept-Patch with text/n3', async () => {
    for (const path of ['/pub/h/doc', '/pub/h/']) {
      expect((await pod.request(path)).headers.get('accept-patch')?.split(', ')).toContain('text/n3')
    }
  })

  test('containers advertise Accept-Post, documents do not', async () => {
    expect((await pod.request('/pub/h/')).headers.get('accept-post')).toBe('*/*')
    expect((await pod.request('/pub/h/doc')).headers.get('accept-post')).toBeNull()
  })

  test('Accept-Put is sent where PUT is allowed', async () => {
    expect((await pod.request('/pub/h/doc')).headers.get('accept-put')).toBe('*/*')
  })

  test('Vary names Accept, Authorization and Origin', async () => {
    const vary = (await pod.request('/pub/h/doc')).headers
      .get('vary')!
      .split(',')
      .map(v => v.trim())
    expect(vary).toEqual(expect.arrayContaining(['Accept', 'Authorization', 'Origin']))
  })

  test('GET and HEAD carry WAC-Allow', async () => {
    for (const method of ['GET', 'HEAD']) {
      expect((await pod.request('/pub/h/doc', { method })).headers.get('wac-allow')).toMatch(/public="read write append control"/)
    }
  })
})

describe('Solid Protocol CORS CORS on every answer', () => {
  const withOrigin = (init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as Record<string, string>), origin: ORIGIN } })

  test.each([
    ['200 GET', '/pub/h/doc'],
    ['404', '/pub/h/none'],
    ['401', '/'],
    ['400', '/pub/a%2Fb'],
  ])('a %s answer echoes the Origin with credentials, never *', async (_what, path) => {
    const res = await pod.request(path, withOrigin())
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
  })

  test('Access-Control-Expose-Headers lists every header a Solid client reads', async () => {
    const exposed = (await pod.request('/pub/h/doc', withOrigin())).headers
      .get('access-control-expose-headers')!
      .split(',')
      .map(h => h.trim().toLowerCase())
    for (const h of [
      'location',
      'link',
      'www-authenticate',
      'wac-allow',
      'etag',
      'last-modified',
      'accept-patch',
      'accept-post',
      'accept-put',
      'allow',
      'content-type',
      'dpop-nonce',
    ])
      expect(exposed).toContain(h)
    expect(exposed).not.toContain('*')
  })

  test('Vary names Origin exactly once', async () => {
    const vary = (await pod.request('/pub/h/doc', withOrigin())).headers
      .get('vary')!
      .split(',')
      .map(v => v.trim())
    expect(vary.filter(v => v === 'Origin')).toHaveLength(1)
  })

  test('a request without Origin gets no CORS headers', async () => {
    expect((await pod.request('/pub/h/doc')).headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a 201 exposes its Location to the browser', async () => {
    const res = await pod.request('/pub/h/', withOrigin(withTurtle('POST', '')))
    expect(res.status).toBe(201)
    expect(res.headers.get('access-control-expose-headers')).toContain('Location')
  })
})

describe('Solid Protocol CORS preflight', () => {
  const preflight = (path: string, requestHeaders: string) =>
    pod.request(path, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': requestHeaders },
    })

  test('is answered without authentication, even on the owner-only root', async () => {
    const res = await preflight('/', 'content-type')
    expect(res.status).toBe(204)
    expect(res.headers.get('www-authenticate')).toBeNull()
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
  })

  test('allows every method the pod supports', async () => {
    const methods = (await preflight('/', '')).headers
      .get('access-control-allow-methods')!
      .split(',')
      .map(m => m.trim())
    expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']))
  })

  test('allows exactly the requested headers, each once, and nothing it was not asked for', async () => {
    const allowed = (res: Response) => res.headers.get('access-control-allow-headers')
    expect(allowed(await preflight('/pub/h/doc', 'X-Custom-Thing, content-type'))).toBe('X-Custom-Thing, content-type')
    expect(allowed(await preflight('/pub/h/doc', 'authorization,dpop,content-type,Content-Type'))).toBe('authorization, dpop, content-type')
    // A header the pod does not read is allowed too (as CSS does): the actual request just carries it unread.
    expect(allowed(await preflight('/pub/h/doc', 'x-app-trace'))).toBe('x-app-trace')
    // Nothing asked, nothing named (no fixed list with Accept in it); a malformed name is not echoed.
    expect(allowed(await preflight('/pub/h/doc', ''))).toBeNull()
    expect(allowed(await preflight('/pub/h/doc', 'bad name, slug'))).toBe('slug')
  })
})

describe('Solid Protocol §2.1 / request pipeline: anonymous requests to owner-only resources', () => {
  test('GET of the root is 401 with the UMA and DPoP challenges (no error parameter) and Link rel="acl"', async () => {
    const res = await pod.request('/')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toEndWith(`, ${[...AUTH_CHALLENGES, 'HttpSig realm="/"'].join(', ')}`)
    expect(res.headers.get('www-authenticate')).toStartWith('UMA realm="')
    expect(res.headers.get('www-authenticate')).not.toContain('error=')
    expect(relTarget(res, 'acl')).toEqual([url('/.acl')])
    expect((await res.text()).split(':', 1)[0]).toBe('unauthenticated')
  })
})

describe('reserved URL space: reserved paths advertise no writes', () => {
  test('OPTIONS of /.well-known/solid allows only GET, HEAD and OPTIONS, with no Accept-Put or Accept-Patch', async () => {
    const res = await pod.request('/.well-known/solid', { method: 'OPTIONS' })
    expect(methodsOf(res)).toEqual(['GET', 'HEAD', 'OPTIONS'])
    expect(res.headers.get('accept-put')).toBeNull()
    expect(res.headers.get('accept-patch')).toBeNull()
  })
})

describe('RFC 9110 §9.3.2: HEAD wherever GET is served', () => {
  test.each(['/.well-known/openid-configuration', '/.oidc/jwks', '/.well-known/solid'])('HEAD %s answers like GET without a body', async path => {
    const pod = await openPod()
    try {
      const get = await pod.request(path)
      const head = await pod.request(path, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.status).toBe(get.status)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(await head.text()).toBe('')
    } finally {
      await pod.close()
    }
  })
})

describe('RFC 9111: browsers revalidate before showing a stored copy (issue 26: a saved document showed its old text)', () => {
  test('a public document: no-cache, with an ETag to make revalidation a 304', async () => {
    const res = await pod.request('/pub/h/doc')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const etag = res.headers.get('etag')!
    expect((await pod.request('/pub/h/doc', { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})
