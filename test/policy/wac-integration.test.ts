import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DPOP_ALGS } from '../../src/auth/challenges.ts'
import { ANONYMOUS, type Principal } from '../../src/auth/principal.ts'
import { AUTH_CHALLENGES } from '../../src/policy/access-control.ts'
import { agent, BASE, decide, keyHolder, openAccessPod, type AccessPod, type Ask } from './access-fixture.ts'

// Every decision goes through makeAccessControl(deps).authorize against ACL documents in a real store,
// with principals built here: the server has no way to take a principal from a request except authentication.

const OWNER = agent(`${BASE}/profile/card#me`)
const BOB = agent('https://bob.example/profile#me')
const CAROL = agent('https://carol.example/profile#me')
const DAN = agent('https://dan.example/profile#me')
const ERIN = agent('https://erin.example/profile#me')
const ANON = ANONYMOUS
const DID = 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp'
const KEY_ROOT_RELATIVE = keyHolder(`${BASE}/keys/k1#k`)
const KEY_DOC_RELATIVE = keyHolder(`${BASE}/subjects/k2#k`)
const KEY_ABSOLUTE = keyHolder('https://keys.example/k#k')
const KEY_DID = keyHolder(`${DID}#${DID.slice('did:key:'.length)}`)
const KEY_OTHER = keyHolder('https://keys.example/other#k')

const rule = (target: string, subject: string, modes: string, extra = '') =>
  `[] a acl:Authorization; ${target}; ${subject}; acl:mode ${modes}${extra ? `; ${extra}` : ''}.\n`
const container = (path: string) => `acl:accessTo <${path}>; acl:default <${path}>`

let pod: AccessPod
let remote: ReturnType<typeof Bun.serve>
let teamUrl = ''

beforeAll(async () => {
  pod = await openAccessPod()
  // The remote group: a second server on loopback, reached by name through the guarded fetcher.
  remote = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response(
        `@prefix vcard: <http://www.w3.org/2006/vcard/ns#>. @prefix cert: <http://www.w3.org/ns/auth/cert#>.
<#g> a vcard:Group; vcard:hasMember <${DAN.webid}>, [ cert:key <https://keys.example/k#k> ].`,
        { headers: { 'content-type': 'text/turtle' } },
      ),
  })
  teamUrl = `http://localhost:${remote.port}/team`
  const docs: [string, string][] = [
    // WAC §4 effective ACL inheritance
    [
      '/inherit/.acl',
      rule('acl:accessTo <./>', 'acl:agentClass foaf:Agent', 'acl:Read') +
        rule('acl:default <./>', `acl:agent <${BOB.webid}>`, 'acl:Read, acl:Write') +
        rule('acl:default <./>', 'acl:agentClass acl:AuthenticatedAgent', 'acl:Append'),
    ],
    ['/inherit/x/y/z/doc', ''],
    ['/inherit/p/q/.acl', rule(container('./'), `acl:agent <${CAROL.webid}>`, 'acl:Read')],
    ['/inherit/p/q/r/doc', ''],
    ['/accessonly/.acl', rule('acl:accessTo <./>', 'acl:agentClass foaf:Agent', 'acl:Read')],
    ['/accessonly/doc', ''],
    // WAC §6 evaluation, §7.2 subjects
    ['/subjects/agent.acl', rule('acl:accessTo <agent>', `acl:agent <${BOB.webid}>`, 'acl:Read')],
    ['/subjects/public.acl', rule('acl:accessTo <public>', 'acl:agentClass foaf:Agent', 'acl:Read')],
    ['/subjects/authenticated.acl', rule('acl:accessTo <authenticated>', 'acl:agentClass acl:AuthenticatedAgent', 'acl:Read')],
    ['/groups/friends', `<#g> a vcard:Group; vcard:hasMember <${CAROL.webid}>, [ cert:key </keys/k1#k> ], <${DID}>.`],
    ['/subjects/local-group.acl', rule('acl:accessTo <local-group>', 'acl:agentGroup </groups/friends#g>', 'acl:Read')],
    ['/subjects/remote-group.acl', rule('acl:accessTo <remote-group>', `acl:agentGroup <${teamUrl}#g>`, 'acl:Read')],
    [
      '/subjects/keys.acl',
      rule('acl:accessTo <keys>', `acl:agent [ cert:key </keys/k1#k> ], [ cert:key <k2#k> ], [ cert:key <https://keys.example/k#k> ], <${DID}>`, 'acl:Read'),
    ],
    // acl:origin (WAC §4.3) acl:origin
    [
      '/origin/doc.acl',
      rule('acl:accessTo <doc>', `acl:agent <${BOB.webid}>`, 'acl:Read, acl:Write', 'acl:origin <https://good.app>') +
        rule('acl:accessTo <doc>', `acl:agent <${CAROL.webid}>`, 'acl:Read'),
    ],
    // WAC §5 modes per method modes: bob writes, carol appends, dan reads, erin only controls, the owner has all
    [
      '/modes/.acl',
      rule(container('./'), `acl:agent <${OWNER.webid}>`, 'acl:Read, acl:Write, acl:Control') +
        rule(container('./'), `acl:agent <${BOB.webid}>`, 'acl:Read, acl:Write') +
        rule(container('./'), `acl:agent <${CAROL.webid}>`, 'acl:Append') +
        rule(container('./'), `acl:agent <${DAN.webid}>`, 'acl:Read') +
        rule(container('./'), `acl:agent <${ERIN.webid}>`, 'acl:Control'),
    ],
    // bob may write members of /mixed/ but not add to /mixed/ itself
    [
      '/mixed/.acl',
      rule('acl:default <./>', `acl:agent <${BOB.webid}>`, 'acl:Read, acl:Write') + rule('acl:accessTo <./>', `acl:agent <${BOB.webid}>`, 'acl:Read'),
    ],
  ]
  for (const [path, ttl] of docs) await pod.seed(path, ttl)
  for (const path of [
    '/subjects/agent',
    '/subjects/public',
    '/subjects/authenticated',
    '/subjects/local-group',
    '/subjects/remote-group',
    '/subjects/keys',
    '/origin/doc',
    '/modes/doc',
    '/modes/sub/',
    '/mixed/existing',
    '/mixed/sub/',
  ]) {
    await pod.seed(path, '')
  }
})

afterAll(async () => {
  remote.stop(true)
  await pod.close()
})

type Row = [string, Principal, Ask, number, string]
const R = 'read',
  RWA = 'read write append',
  ALL = 'read write append control'
const allow = (user: string, pub = '') => `user="${user}",public="${pub}"`

async function check(who: Principal, ask: Ask, status: number, wacAllow: string) {
  const out = await decide(pod.access, who, ask)
  expect({ status: out.status, wacAllow: out.wacAllow }).toEqual({ status, wacAllow })
}

describe('WAC §4 effective ACL effective ACL: inheritance, acl:default vs acl:accessTo', () => {
  const get = (path: string): Ask => ({ method: 'GET', path })
  test.each<Row>([
    ['accessTo covers the container itself', ANON, get('/inherit/'), 200, allow(R, R)],
    ["a container's own defaults do not apply to itself", BOB, get('/inherit/'), 200, allow(R, R)],
    ["the nearest ACL wins: the owner's root defaults are not merged in", OWNER, get('/inherit/'), 200, allow(R, R)],
    ['defaults reach three container levels down', BOB, get('/inherit/x/y/z/doc'), 200, allow(RWA)],
    ['defaults reach an intermediate container', BOB, get('/inherit/x/'), 200, allow(RWA)],
    ['AuthenticatedAgent defaults reach three levels down', CAROL, get('/inherit/x/y/z/doc'), 403, allow('append')],
    ['the ancestor accessTo (public read) does not flow down', ANON, get('/inherit/x/y/z/doc'), 401, allow('')],
    ['a nearer ACL three levels down replaces the ancestor', CAROL, get('/inherit/p/q/r/doc'), 200, allow(R)],
    ['rules of the replaced ancestor ACL no longer apply', BOB, get('/inherit/p/q/r/doc'), 403, allow('')],
    ['the nearer ACL governs its container by accessTo', CAROL, get('/inherit/p/q/'), 200, allow(R)],
    ['an ancestor ACL with only accessTo gives its members nothing', ANON, get('/accessonly/doc'), 401, allow('')],
    ['…not even to the owner through the root ACL above it', OWNER, get('/accessonly/doc'), 403, allow('')],
    ['the root defaults govern a path with no ACL on the way', OWNER, get('/subjects/'), 200, allow(ALL)],
  ])('%s', async (_rule, who, ask, status, wacAllow) => check(who, ask, status, wacAllow))
})

describe('WAC §6 evaluation and §7.2 subjects', () => {
  const get = (path: string): Ask => ({ method: 'GET', path: `/subjects/${path}` })
  test.each<Row>([
    ['acl:agent matches the WebID', BOB, get('agent'), 200, allow(R)],
    ['acl:agent matches no other WebID', CAROL, get('agent'), 403, allow('')],
    ['acl:agent does not match anonymous', ANON, get('agent'), 401, allow('')],
    ['foaf:Agent matches anonymous', ANON, get('public'), 200, allow(R, R)],
    ['foaf:Agent matches an agent', BOB, get('public'), 200, allow(R, R)],
    ['AuthenticatedAgent matches any WebID', CAROL, get('authenticated'), 200, allow(R)],
    ['AuthenticatedAgent matches a proven key holder', KEY_OTHER, get('authenticated'), 200, allow(R)],
    ['AuthenticatedAgent does not match anonymous', ANON, get('authenticated'), 401, allow('')],
    ['a local agentGroup matches a WebID member', CAROL, get('local-group'), 200, allow(R)],
    ['a local agentGroup matches a cert:key member', KEY_ROOT_RELATIVE, get('local-group'), 200, allow(R)],
    ['a local agentGroup matches a did:key member', KEY_DID, get('local-group'), 200, allow(R)],
    ['a local agentGroup does not match a non-member', BOB, get('local-group'), 403, allow('')],
    ['a local agentGroup does not match anonymous', ANON, get('local-group'), 401, allow('')],
    ['a remote agentGroup matches a WebID member', DAN, get('remote-group'), 200, allow(R)],
    ['a remote agentGroup matches a cert:key member', KEY_ABSOLUTE, get('remote-group'), 200, allow(R)],
    ['a remote agentGroup does not match a non-member', BOB, get('remote-group'), 403, allow('')],
    ['cert:key with a root-relative key URL', KEY_ROOT_RELATIVE, get('keys'), 200, allow(R)],
    ['cert:key with a document-relative key URL', KEY_DOC_RELATIVE, get('keys'), 200, allow(R)],
    ['cert:key with an absolute key URL', KEY_ABSOLUTE, get('keys'), 200, allow(R)],
    ['a did:key agent matches its verification method', KEY_DID, get('keys'), 200, allow(R)],
    ['a key not listed is denied', KEY_OTHER, get('keys'), 403, allow('')],
    ['a WebID does not match key subjects', BOB, get('keys'), 403, allow('')],
  ])('%s', async (_rule, who, ask, status, wacAllow) => check(who, ask, status, wacAllow))
})

describe('acl:origin (WAC §4.3) acl:origin', () => {
  const ask = (method: string, origin?: string): Ask => ({ method, path: '/origin/doc', ...(origin ? { origin } : {}) })
  test.each<Row>([
    ['an origin-restricted rule matches its origin', BOB, ask('GET', 'https://good.app'), 200, allow(RWA)],
    ['an origin-restricted rule allows writes from its origin', BOB, ask('PUT', 'https://good.app'), 200, allow(RWA)],
    ['an origin-restricted rule denies another origin', BOB, ask('GET', 'https://evil.app'), 403, allow('')],
    ['…for writes too', BOB, ask('PUT', 'https://evil.app'), 403, allow('')],
    ['origins compare by scheme, host and port', BOB, ask('GET', 'http://good.app'), 403, allow('')],
    ['no Origin header (not a browser): the rule applies', BOB, ask('GET'), 200, allow(RWA)],
    ["the pod's own origin is trusted", BOB, ask('GET', BASE), 200, allow(RWA)],
    ['a rule without acl:origin matches any origin', CAROL, ask('GET', 'https://evil.app'), 200, allow(R)],
    ['an origin never grants by itself', DAN, ask('GET', 'https://good.app'), 403, allow('')],
  ])('%s', async (_rule, who, a, status, wacAllow) => check(who, a, status, wacAllow))
})

describe('WAC §5 modes per method modes required per request', () => {
  const M = (method: string, path: string, extra: Partial<Ask> = {}): Ask => ({ method, path, ...extra })
  const INSERT = { read: false, append: true, write: false }
  const DELETES = { read: true, append: false, write: true }
  const WHERE_INSERT = { read: true, append: true, write: false }
  test.each<Row>([
    ['GET needs Read', DAN, M('GET', '/modes/doc'), 200, allow(R)],
    ['GET without Read is denied', CAROL, M('GET', '/modes/doc'), 403, allow('append')],
    ['HEAD needs Read', DAN, M('HEAD', '/modes/doc'), 200, allow(R)],
    ['HEAD without Read is denied', ERIN, M('HEAD', '/modes/doc'), 403, allow('control')],
    ['Control does not imply Read', ERIN, M('GET', '/modes/doc'), 403, allow('control')],
    ['PUT on an existing resource needs Write', BOB, M('PUT', '/modes/doc'), 200, allow(RWA)],
    ['PUT on an existing resource with Append only is denied', CAROL, M('PUT', '/modes/doc'), 403, allow('append')],
    ['PUT on an existing resource with Read only is denied', DAN, M('PUT', '/modes/doc'), 403, allow(R)],
    ['PUT creating needs Write on it and Append on the parent', BOB, M('PUT', '/modes/new', { exists: false }), 200, allow(RWA)],
    ['PUT creating with Append only is denied', CAROL, M('PUT', '/modes/new', { exists: false }), 403, allow('append')],
    ['PUT creating without Append on the parent is denied', BOB, M('PUT', '/mixed/new', { exists: false }), 403, allow(RWA)],
    ['PUT replacing needs nothing on the parent', BOB, M('PUT', '/mixed/existing'), 200, allow(RWA)],
    ['PUT creating in a member container uses that container', BOB, M('PUT', '/mixed/sub/new', { exists: false }), 200, allow(RWA)],
    [
      'PUT creating an intermediate container needs Append where it is added',
      BOB,
      M('PUT', '/mixed/n1/doc', { exists: false, created: ['/mixed/n1/'] }),
      403,
      allow(RWA),
    ],
    [
      'PUT creating intermediate containers needs Write on each and Append on the first existing',
      BOB,
      M('PUT', '/mixed/sub/n1/n2/doc', { exists: false, created: ['/mixed/sub/n1/n2/', '/mixed/sub/n1/'] }),
      200,
      allow(RWA),
    ],
    [
      '…and an appender may not create intermediate containers',
      CAROL,
      M('PUT', '/modes/n1/doc', { exists: false, created: ['/modes/n1/'] }),
      403,
      allow('append'),
    ],
    ['POST needs Append on the container', CAROL, M('POST', '/modes/'), 200, allow('append')],
    ['POST is allowed by Write', BOB, M('POST', '/modes/'), 200, allow(RWA)],
    ['POST without Append is denied', DAN, M('POST', '/modes/'), 403, allow(R)],
    ['POST without Append on the container itself is denied', BOB, M('POST', '/mixed/'), 403, allow(R)],
    ['PATCH inserting only needs Append', CAROL, M('PATCH', '/modes/doc', { patch: INSERT }), 200, allow('append')],
    ['PATCH inserting only without Append is denied', DAN, M('PATCH', '/modes/doc', { patch: INSERT }), 403, allow(R)],
    ['PATCH deleting needs Write (and Read)', BOB, M('PATCH', '/modes/doc', { patch: DELETES }), 200, allow(RWA)],
    ['PATCH deleting with Append only is denied', CAROL, M('PATCH', '/modes/doc', { patch: DELETES }), 403, allow('append')],
    ['PATCH with a where clause needs Read', CAROL, M('PATCH', '/modes/doc', { patch: WHERE_INSERT }), 403, allow('append')],
    ['PATCH creating by inserts needs Append on it and the parent', CAROL, M('PATCH', '/modes/new', { exists: false, patch: INSERT }), 200, allow('append')],
    ['DELETE needs Write on the resource and its container', BOB, M('DELETE', '/modes/doc'), 200, allow(RWA)],
    ['DELETE without Write on the container is denied', BOB, M('DELETE', '/mixed/existing'), 403, allow(RWA)],
    ['DELETE in a container the agent may write', BOB, M('DELETE', '/mixed/sub/x'), 200, allow(RWA)],
    ['DELETE with Append only is denied', CAROL, M('DELETE', '/modes/doc'), 403, allow('append')],
    ['GET of an ACL needs Control', OWNER, M('GET', '/modes/doc.acl'), 200, allow(ALL)],
    ['GET of an ACL with Read and Write but no Control is denied', BOB, M('GET', '/modes/doc.acl'), 403, allow('')],
    ['PUT of an ACL needs Control', OWNER, M('PUT', '/modes/doc.acl'), 200, allow(ALL)],
    ['PUT of an ACL without Control is denied', BOB, M('PUT', '/modes/doc.acl', { exists: false }), 403, allow('')],
    ['PATCH of an ACL needs Control', ERIN, M('PATCH', '/modes/doc.acl', { patch: INSERT }), 200, allow(ALL)],
    ['DELETE of an ACL needs Control', ERIN, M('DELETE', '/modes/doc.acl'), 200, allow(ALL)],
    ["a container's ACL needs Control of the container", CAROL, M('GET', '/modes/.acl'), 403, allow('')],
    ['anonymous access to an ACL is denied', ANON, M('GET', '/modes/.acl'), 401, allow('')],
  ])('%s', async (_rule, who, ask, status, wacAllow) => check(who, ask, status, wacAllow))
})

describe('request pipeline deny', () => {
  test('anonymous and not allowed: 401 with every challenge, the ACL link and WAC-Allow', async () => {
    const out = await decide(pod.access, ANON, { method: 'GET', path: '/modes/doc' })
    expect(out.status).toBe(401)
    const [uma, ...rest] = out.headers['www-authenticate'] as string[]
    expect(uma).toMatch(new RegExp(`^UMA realm="${BASE}", as_uri="${BASE}", ticket="[\\w-]+\\.[\\w-]{22}"$`))
    expect(rest).toEqual([...AUTH_CHALLENGES, 'HttpSig realm="/modes/doc"'])
    expect(rest).toEqual([`DPoP algs="${DPOP_ALGS}"`, 'HttpSig realm="/modes/doc"'])
    expect(out.headers['accept-signature']).toBe('sig1=("@method" "@target-uri" "authorization");created;nonce')
    expect(out.headers.link).toBe(`<http://www.w3.org/ns/ldp#Resource>; rel="type", <${BASE}/modes/doc.acl>; rel="acl"`)
    expect(out.headers['wac-allow']).toBe(allow(''))
  })

  test('authenticated and not allowed: 403 without challenges', async () => {
    const out = await decide(pod.access, CAROL, { method: 'GET', path: '/modes/doc' })
    expect(out.status).toBe(403)
    expect(out.headers['www-authenticate']).toBeUndefined()
    expect(out.headers.link).toContain(`<${BASE}/modes/doc.acl>; rel="acl"`)
  })

  test('a missing resource is decided exactly like an existing one (no existence oracle)', async () => {
    for (const who of [ANON, CAROL, DAN]) {
      const existing = await decide(pod.access, who, { method: 'GET', path: '/modes/doc' })
      const missing = await decide(pod.access, who, { method: 'GET', path: '/modes/nothing-here' })
      expect([missing.status, missing.wacAllow]).toEqual([existing.status, existing.wacAllow])
    }
  })
})
