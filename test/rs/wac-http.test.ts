import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DPOP_ALGS } from '../../src/auth/challenges.ts'
import type { Store } from '../../src/store/open-store.ts'
import { writeResource } from '../../src/store/resources.ts'
import { openPod, publicWriteAcl, seedTurtle, type Pod } from './pod-fixture.ts'
import { binaryContent } from '../store/binary-content.ts'

// WAC over HTTP through the real request handler. Requests are anonymous: until an authentication scheme
// lands there is no way (and must be no back door) to act as an agent here; agents are decided in
// test/policy/wac-integration.test.ts through the access control itself.

const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix solid: <http://www.w3.org/ns/solid/terms#>.\n`
const rule = (target: string, modes: string, extra = '') =>
  `[] a acl:Authorization; ${target}; acl:agentClass foaf:Agent; acl:mode ${modes}${extra ? `; ${extra}` : ''}.\n`
const both = 'acl:accessTo <./>; acl:default <./>'
const OWNER_RULE = '<#owner> a acl:Authorization; acl:agent </profile/card#me>; acl:accessTo </>; acl:default </>; acl:mode acl:Read, acl:Write, acl:Control.\n'
const CHALLENGE = `DPoP algs="${DPOP_ALGS}"`
const allow = (modes: string) => `user="${modes}",public="${modes}"`
const ALL = 'read write append control',
  RWA = 'read write append'

const insert = (triples: string) => ({
  method: 'PATCH',
  headers: { 'content-type': 'text/n3' },
  body: `${PREFIXES}_:p a solid:InsertDeletePatch; solid:inserts { ${triples} }.`,
})
const remove = (triples: string) => ({
  method: 'PATCH',
  headers: { 'content-type': 'text/n3' },
  body: `${PREFIXES}_:p a solid:InsertDeletePatch; solid:deletes { ${triples} }.`,
})
const turtle = (method: string, body: string, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'text/turtle', ...headers },
  body,
})

async function snapshot(store: Store): Promise<string> {
  const out: string[] = []
  for await (const [k, v] of store.meta.iterator()) out.push(`${k} ${JSON.stringify(v)}`)
  const quads = (await store.quads.get({})).items.map(q => `${q.subject.value} ${q.predicate.value} ${q.object.value} ${q.graph.value}`)
  return [...out, ...quads.sort()].join('\n')
}

let pod: Pod

beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/open/', '/flip/'] })
  const seed = (path: string, ttl: string) => seedTurtle(pod.store, pod.base, path, PREFIXES + ttl)
  const acls: [string, string][] = [
    ['/readonly/.acl', rule(both, 'acl:Read')],
    ['/drop/.acl', rule('acl:accessTo <./>', 'acl:Append') + rule('acl:default <./>', 'acl:Read, acl:Write')],
    ['/nodrop/.acl', rule('acl:accessTo <./>', 'acl:Read') + rule('acl:default <./>', 'acl:Read, acl:Write')],
    ['/appendonly/.acl', rule(both, 'acl:Append')],
    ['/deletes/.acl', rule('acl:accessTo <./>', 'acl:Read') + rule('acl:default <./>', 'acl:Read, acl:Write')],
    ['/originapp/.acl', rule(both, 'acl:Read', 'acl:origin <https://good.app>')],
  ]
  for (const [path, ttl] of acls) await seed(path, ttl)
  for (const path of [
    '/private/doc',
    '/private/sub/',
    '/readonly/doc',
    '/drop/doc',
    '/nodrop/doc',
    '/nodrop/sub/',
    '/appendonly/doc',
    '/deletes/doc',
    '/deletes/sub/doc',
    '/originapp/doc',
    '/open/doc',
    '/open/doc2',
    '/open/full/',
    '/open/full/x',
    '/flip/doc',
  ]) {
    await seed(path, '<#a> <#b> <#c>.')
  }
  const bytes = new TextEncoder().encode('secret bytes')
  await writeResource(pod.store, pod.base, '/private/bin', await binaryContent(pod.store, 'application/octet-stream', bytes), Date.now())
})

afterAll(async () => {
  await pod.close()
})

describe('WAC §5 modes per method modes required per request, anonymous over HTTP', () => {
  test.each<[string, string, RequestInit, number, string]>([
    ['GET with Read', '/readonly/doc', {}, 200, allow('read')],
    ['HEAD with Read', '/readonly/doc', { method: 'HEAD' }, 200, allow('read')],
    ['GET without Read', '/private/doc', {}, 401, allow('')],
    ['HEAD without Read', '/private/doc', { method: 'HEAD' }, 401, allow('')],
    ['PUT replacing with Write', '/open/doc', turtle('PUT', '<#x> <#y> <#z>.'), 204, allow(ALL)],
    ['PUT replacing with Read only', '/readonly/doc', turtle('PUT', ''), 401, allow('read')],
    ['PUT creating with Write on it and Append on the parent', '/drop/new', turtle('PUT', ''), 201, allow(RWA)],
    ['PUT creating intermediate containers with Append where the first is added', '/drop/n1/n2/doc', turtle('PUT', ''), 201, allow(RWA)],
    ['PUT replacing needs nothing on the parent', '/nodrop/doc', turtle('PUT', ''), 204, allow(RWA)],
    ['PUT creating without Append on the parent', '/nodrop/new', turtle('PUT', ''), 401, allow(RWA)],
    ['PUT creating in a member container that gives Append', '/nodrop/sub/new', turtle('PUT', ''), 201, allow(RWA)],
    ['PUT creating an intermediate container without Append where it is added', '/nodrop/n1/doc', turtle('PUT', ''), 401, allow(RWA)],
    ['POST with Append on the container', '/drop/', turtle('POST', ''), 201, allow('append')],
    ['POST without Append on the container', '/nodrop/', turtle('POST', ''), 401, allow('read')],
    ['PATCH inserting only with Append', '/appendonly/doc', insert('<#d> <#e> <#f>'), 204, allow('append')],
    ['PATCH deleting with Append only', '/appendonly/doc', remove('<#a> <#b> <#c>'), 401, allow('append')],
    ['PATCH inserting with Read only', '/readonly/doc', insert('<#d> <#e> <#f>'), 401, allow('read')],
    ['DELETE with Write on the resource and its container', '/deletes/sub/doc', { method: 'DELETE' }, 204, allow(RWA)],
    ['DELETE without Write on the container', '/deletes/doc', { method: 'DELETE' }, 401, allow(RWA)],
    ['GET of an ACL with Control', '/open/.acl', {}, 200, allow(ALL)],
    ['GET of an ACL without Control', '/readonly/.acl', {}, 401, allow('')],
    ['PUT of an ACL without Control', '/readonly/.acl', turtle('PUT', rule(both, 'acl:Read, acl:Write')), 401, allow('')],
    ['GET of a missing ACL with Control', '/open/doc.acl', {}, 404, allow(ALL)],
    ['GET of a missing ACL without Control', '/readonly/doc.acl', {}, 401, allow('')],
  ])('%s', async (_rule, path, init, status, wacAllow) => {
    const res = await pod.request(path, init)
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status, wacAllow })
  })
})

describe('request pipeline deny, anonymous', () => {
  test('401 with every challenge, the type and ACL links, and WAC-Allow', async () => {
    const res = await pod.request('/private/doc')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(
      new RegExp(`^UMA realm="${pod.base}", as_uri="${pod.base}", ticket="[\\w-]+\\.[\\w-]{22}", ${CHALLENGE}, HttpSig realm="/private/doc"$`),
    )
    expect(res.headers.get('accept-signature')).toBe('sig1=("@method" "@target-uri" "authorization");created;nonce')
    expect(res.headers.get('link')).toBe(`<http://www.w3.org/ns/ldp#Resource>; rel="type", <${pod.base}/private/doc.acl>; rel="acl"`)
    expect(res.headers.get('wac-allow')).toBe(allow(''))
    expect(await res.text()).not.toContain('<#a>')
  })

  // Writes are decided by the operations layer (src/resources/), whose refusal names no Link: the RS adds its own.
  test.each<[string, string, RequestInit]>([
    ['PUT', '/private/doc', turtle('PUT', '<#a> <#b> <#d>.')],
    ['PATCH', '/private/doc', insert('<#a> <#b> <#d>.')],
    ['DELETE', '/private/doc', { method: 'DELETE' }],
    ['POST', '/private/sub/', turtle('POST', '<#a> <#b> <#d>.')],
  ])('a refused %s names the type and ACL links of its target too', async (_method, path, init) => {
    const res = await pod.request(path, init)
    expect(res.status).toBe(401)
    const acl = `<${pod.base}${path}.acl>; rel="acl"`
    expect(res.headers.get('link')).toContain(acl)
    expect(res.headers.get('link')).toContain(
      path.endsWith('/') ? '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' : '<http://www.w3.org/ns/ldp#Resource>; rel="type"',
    )
  })

  test('a container answers with its container types and its ACL', async () => {
    const res = await pod.request('/private/sub/')
    expect(res.status).toBe(401)
    expect(res.headers.get('link')).toContain(`<${pod.base}/private/sub/.acl>; rel="acl"`)
    expect(res.headers.get('link')).toContain('<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"')
  })
})

describe('WAC: no existence oracle for a requester without Read', () => {
  // Each pair: a request about an existing resource, and the same about a missing one (or a clash).
  test.each<[string, string, string, RequestInit]>([
    ['GET', '/private/doc', '/private/missing', {}],
    ['HEAD', '/private/doc', '/private/missing', { method: 'HEAD' }],
    ['GET of a container', '/private/sub/', '/private/nosub/', {}],
    ['GET of a resource below a missing container', '/private/doc', '/private/nosub/deeper/doc', {}],
    ['PUT', '/private/doc', '/private/missing', turtle('PUT', '')],
    ['PUT whose container twin exists', '/private/missing/', '/private/sub', turtle('PUT', '')],
    ['PUT below a document', '/private/missing/x', '/private/doc/x', turtle('PUT', '')],
    ['PATCH of a binary', '/private/missing', '/private/bin', insert('<#d> <#e> <#f>')],
    ['DELETE', '/private/doc', '/private/missing', { method: 'DELETE' }],
    ['POST', '/private/sub/', '/private/nosub/', turtle('POST', '')],
    ['GET of an ACL', '/private/doc.acl', '/private/missing.acl', {}],
  ])('%s: the same 401 either way', async (_what, a, b, init) => {
    const [x, y] = [await pod.request(a, init), await pod.request(b, init)]
    // The ticket is fresh and the HttpSig realm is the requested path itself: they differ by the request, not by existence.
    const shape = (r: Response) => ({
      status: r.status,
      wac: r.headers.get('wac-allow'),
      auth: r.headers
        .get('www-authenticate')
        ?.replace(/ticket="[^"]*"/, 'ticket="…"')
        .replace(/HttpSig realm="[^"]*"/, 'HttpSig realm=…'),
    })
    expect(shape(y)).toEqual(shape(x))
    // A PUT or DELETE no browser sent may be a mounted drive's (WebDAV): it is offered Basic too (http/dav-methods.ts)
    const drive = init.method === 'PUT' || init.method === 'DELETE' ? ', Basic realm="solopod", charset="UTF-8"' : ''
    expect(shape(y)).toEqual({
      status: 401,
      wac: allow(''),
      auth: `UMA realm="${pod.base}", as_uri="${pod.base}", ticket="…", ${CHALLENGE}, HttpSig realm=…${drive}`,
    })
  })

  test('a requester with Read learns that a resource is missing: 404', async () => {
    const res = await pod.request('/readonly/missing')
    expect([res.status, res.headers.get('wac-allow')]).toEqual([404, allow('read')])
  })
})

describe('acl:origin (WAC §4.3) acl:origin, anonymous', () => {
  test.each<[string, Record<string, string>, number, string]>([
    ['the listed origin is allowed', { origin: 'https://good.app' }, 200, allow('read')],
    ['another origin is denied (public stays what foaf:Agent has without Origin)', { origin: 'https://evil.app' }, 401, 'user="",public="read"'],
    ['no Origin header: the rule applies', {}, 200, allow('read')],
    ["the pod's own origin is trusted", { origin: 'http://localhost:3999' }, 200, allow('read')],
  ])('%s', async (_rule, headers, status, wacAllow) => {
    const res = await pod.request('/originapp/doc', { headers })
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status, wacAllow })
  })
})

describe('ACL documents are validated on write, and a refused write changes nothing', () => {
  test.each<[string, string, RequestInit, number, string]>([
    ['unparseable Turtle', '/open/doc2.acl', turtle('PUT', '<#r> a acl:Authorization ;;; nonsense'), 400, 'invalid_rdf'],
    ['no applicable authorization', '/open/doc2.acl', turtle('PUT', `${PREFIXES}<#r> a acl:Authorization; acl:accessTo <doc2>.`), 422, 'invalid_acl'],
    ['rules naming another resource only', '/open/doc2.acl', turtle('PUT', PREFIXES + rule('acl:accessTo <doc>', 'acl:Read')), 422, 'invalid_acl'],
    ['a patch removing every rule', '/open/.acl', remove('<#public> a acl:Authorization'), 422, 'invalid_acl'],
    [
      'an ACL of a resource that does not exist',
      '/open/missing.acl',
      turtle('PUT', PREFIXES + rule('acl:accessTo <missing>', 'acl:Read')),
      409,
      'acl_without_resource',
    ],
  ])('%s', async (_what, path, init, status, code) => {
    const before = await snapshot(pod.store)
    const res = await pod.request(path, init)
    expect({ status: res.status, code: (await res.text()).split(':', 1)[0] }).toEqual({ status, code })
    expect(await snapshot(pod.store)).toBe(before)
  })

  describe('owner lock-out on the root ACL', () => {
    let root: Pod
    beforeAll(async () => {
      root = await openPod()
      // The root ACL lets anyone control it, so an anonymous request can try to drop the owner.
      await seedTurtle(
        root.store,
        root.base,
        '/.acl',
        `${PREFIXES + OWNER_RULE}<#anyone> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo </>; acl:mode acl:Control.`,
      )
    })
    afterAll(async () => {
      await root.close()
    })

    test.each<[string, RequestInit]>([
      ['a root ACL without the owner', turtle('PUT', PREFIXES + rule('acl:accessTo </>; acl:default </>', 'acl:Read, acl:Write'))],
      [
        'a root ACL giving the owner no Control',
        turtle('PUT', `${PREFIXES}<#o> a acl:Authorization; acl:agent </profile/card#me>; acl:accessTo </>; acl:default </>; acl:mode acl:Read, acl:Write.`),
      ],
      // foaf:Agent includes the owner, so Control has to go from both rules to lock the owner out.
      ['a patch taking Control from everyone', remove('<#owner> acl:mode acl:Control. <#anyone> acl:mode acl:Control')],
    ])('%s → 409 owner_lockout', async (_what, init) => {
      const before = await snapshot(root.store)
      const res = await root.request('/.acl', init)
      const text = await res.text()
      expect({ status: res.status, code: text.split(':', 1)[0] }).toEqual({ status: 409, code: 'owner_lockout' })
      expect(text).toContain("owner's WebID")
      expect(await snapshot(root.store)).toBe(before)
    })

    test('a root ACL keeping the owner in Control is accepted', async () => {
      const res = await root.request('/.acl', turtle('PUT', PREFIXES + OWNER_RULE))
      expect(res.status).toBe(204)
      expect((await root.request('/.acl')).status).toBe(401) // the anonymous Control rule went with it
    })
  })
})

describe('ACL cache: a change over HTTP decides the very next request', () => {
  test('replace, patch and delete of a container ACL', async () => {
    const read = async () => {
      const r = await pod.request('/flip/doc')
      return [r.status, r.headers.get('wac-allow')]
    }
    expect(await read()).toEqual([200, allow(ALL)])
    expect((await pod.request('/flip/.acl', turtle('PUT', PREFIXES + rule(both, 'acl:Control')))).status).toBe(204)
    expect(await read()).toEqual([401, allow('control')])
    expect((await pod.request('/flip/.acl', insert('<#r> a acl:Authorization; acl:agentClass foaf:Agent; acl:default <./>; acl:mode acl:Read'))).status).toBe(
      204,
    )
    expect(await read()).toEqual([200, allow('read control')])
    expect((await pod.request('/flip/.acl', { method: 'DELETE' })).status).toBe(204)
    expect(await read()).toEqual([401, allow('')]) // back to the root ACL: the owner only
  })

  test("a resource's own ACL, created then deleted", async () => {
    expect((await pod.request('/open/full/x')).status).toBe(200)
    expect((await pod.request('/open/full/x.acl', turtle('PUT', PREFIXES + rule('acl:accessTo <x>', 'acl:Control')))).status).toBe(201)
    expect((await pod.request('/open/full/x')).status).toBe(401)
    expect((await pod.request('/open/full/x.acl', { method: 'DELETE' })).status).toBe(204)
    expect((await pod.request('/open/full/x')).status).toBe(200)
  })
})

describe('request pipeline: WAC-Allow on every answer', () => {
  test.each<[string, string, RequestInit, number, string]>([
    ['GET 200', '/open/doc', {}, 200, allow(ALL)],
    ['HEAD 200', '/open/doc', { method: 'HEAD' }, 200, allow(ALL)],
    ['GET 401', '/private/doc', {}, 401, allow('')],
    ['GET 404', '/open/nothing', {}, 404, allow(ALL)],
    ['OPTIONS 204', '/readonly/doc', { method: 'OPTIONS' }, 204, allow('read')],
    ['PUT 201', '/open/created', turtle('PUT', ''), 201, allow(ALL)],
    ['POST 201', '/open/', turtle('POST', ''), 201, allow(ALL)],
    ['PATCH 204', '/open/doc', insert('<#p> <#q> <#r>'), 204, allow(ALL)],
    ['DELETE 204', '/open/doc2', { method: 'DELETE' }, 204, allow(ALL)],
    ['DELETE 404', '/open/gone', { method: 'DELETE' }, 404, allow(ALL)],
    ['DELETE 409 of a container with members', '/open/full/', { method: 'DELETE' }, 409, allow(ALL)],
    ['PUT 412', '/open/doc', turtle('PUT', '', { 'if-match': '"not-the-etag"' }), 412, allow(ALL)],
    ['POST 405 to a document', '/open/doc', turtle('POST', ''), 405, allow(ALL)],
    ['PATCH 415', '/open/doc', { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' }, 415, allow(ALL)],
  ])('%s', async (_what, path, init, status, wacAllow) => {
    const res = await pod.request(path, init)
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status, wacAllow })
  })

  test('GET 304', async () => {
    const etag = (await pod.request('/readonly/doc')).headers.get('etag')!
    const res = await pod.request('/readonly/doc', { headers: { 'if-none-match': etag } })
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status: 304, wacAllow: allow('read') })
  })

  test('a refused credential (401 before any decision) carries what anyone may do', async () => {
    const res = await pod.request('/readonly/doc', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })
    expect({ status: res.status, wacAllow: res.headers.get('wac-allow') }).toEqual({ status: 401, wacAllow: allow('read') })
  })
})
