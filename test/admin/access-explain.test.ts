import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT, exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK, type CryptoKey } from 'jose'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { formatWacAllow } from '../../src/policy/modes.ts'
import type { AccessMode } from '../../src/policy/access-modes.ts'
import { parseJobsSent } from '../../src/rdf/parse-off-thread.ts'
import { ACL, APP, BOB, INTEROP, OWNER, POD, TREES, grant, inheriting } from '../policy/grant-fixture.ts'

// "Why may X do Y?" and what the resource server does come from one decision function: over the whole
// table below (WAC rules with inheritance, acl:origin and a group, grants of every scope, an app acting for its
// user), the RS's answer to a DPoP-authenticated GET and the owner's explanation agree on every row.

const ISSUER = 'https://issuer.example'
const CAROL = 'https://carol.example/#me'
const DAN = 'https://dan.example/#me'
const PM = 'https://vocab.example/pm#'
const PREFIXES = '@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>. @prefix pm: <https://vocab.example/pm#>.\n'

let pod: OwnerPod
let signingKey: CryptoKey
let issuerJwk: JWK
let dpop: { privateKey: CryptoKey; jwk: JWK; jkt: string }
const grantIris: Record<string, string> = {}
let treeFetches = 0

const profile = `@prefix solid: <http://www.w3.org/ns/solid/terms#>. <#me> solid:oidcIssuer <${ISSUER}>.`
const docs: Record<string, { body: string; type: string }> = {
  'https://bob.example/profile/card': { body: profile, type: 'text/turtle' },
  'https://carol.example/': { body: profile, type: 'text/turtle' },
  'https://dan.example/': { body: profile, type: 'text/turtle' },
  [TREES]: {
    body: `@prefix st: <http://www.w3.org/ns/shapetrees#>. <#Project> a st:ShapeTree; st:references [ st:referencesShapeTree <#Task>; st:viaPredicate <${PM}hasTask> ].`,
    type: 'text/turtle',
  },
}

beforeAll(async () => {
  const pair = await generateKeyPair('ES256')
  signingKey = pair.privateKey
  issuerJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }
  const d = await generateKeyPair('ES256')
  const jwk = await exportJWK(d.publicKey)
  dpop = { privateKey: d.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) }
  docs[`${ISSUER}/.well-known/openid-configuration`] = { body: JSON.stringify({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` }), type: 'application/json' }
  docs[`${ISSUER}/jwks`] = { body: JSON.stringify({ keys: [issuerJwk] }), type: 'application/json' }
  // The "network" of the remote agents, behind the real guarded fetcher
  const fetchImpl = (async (target: URL | string, init?: RequestInit) => {
    const url = `https://${new Headers(init?.headers).get('host')}${new URL(String(target)).pathname}`
    if (url === TREES) treeFetches++
    const doc = docs[url]
    return doc
      ? new Response(doc.body, { headers: { 'content-type': doc.type, ...(url === TREES ? { 'cache-control': 'max-age=600' } : {}) } })
      : new Response('not found', { status: 404 })
  }) as typeof fetch
  pod = await openOwnerPod(POD, { fetcher: { fetchImpl, lookup: async () => ['93.184.216.34'] } })
  const seed = (path: string, ttl: string) => pod.seed(path, PREFIXES + ttl)
  await seed('/projects/p1', `<#it> pm:hasTask </tasks/t1#it>.`)
  await seed('/projects/p2', `<#it> pm:title "two".`)
  await seed(
    '/projects/p2.acl',
    `<#carol> a acl:Authorization; acl:agent <${CAROL}>; acl:accessTo <p2>; acl:mode acl:Read.
    <#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <p2>; acl:mode acl:Read, acl:Write, acl:Control.`,
  )
  await seed('/tasks/t1', `<#it> pm:title "one".`)
  await seed('/tasks/t2', `<#it> pm:title "two".`)
  await seed('/notes/n1', `<#it> pm:title "note".`)
  await seed('/shared/doc', `<#it> pm:title "shared".`)
  await seed(
    '/shared/.acl',
    `<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.
    <#dan> a acl:Authorization; acl:agent <${DAN}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Control.`,
  )
  await seed('/groups/g', `<#g> <http://www.w3.org/2006/vcard/ns#hasMember> <${CAROL}>.`)
  await seed('/team/.acl', `<#team> a acl:Authorization; acl:agentGroup </groups/g#g>; acl:default <./>; acl:mode acl:Read, acl:Append.`)
  await seed('/team/doc', `<#it> pm:title "team".`)
  await seed('/apps/doc', `<#it> pm:title "app".`)
  await seed(
    '/apps/.acl',
    `<#carol> a acl:Authorization; acl:agent <${CAROL}>; acl:default <./>; acl:mode acl:Read, acl:Write; acl:origin <https://good.app>.
    <#all> a acl:Authorization; acl:agentClass foaf:Agent; acl:default <./>; acl:mode acl:Read.`,
  )
  const create = async (name: string, g: unknown) => {
    const res = await pod.api('POST', '/.admin/api/grants', { body: g })
    if (res.status !== 201) throw new Error(`grant ${name}: ${res.status} ${await res.text()}`)
    grantIris[name] = res.headers.get('location')!
  }
  await create('bobProjects', grant({ hasInheritingGrant: [inheriting()] }))
  await create(
    'carolP2',
    grant({ grantee: CAROL, scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: [`${POD}/projects/p2`], accessMode: [ACL('Read'), ACL('Update')] }),
  )
  await create('bobsApp', grant({ grantee: APP, grantedBy: BOB, hasDataRegistration: `${POD}/notes/`, accessMode: [ACL('Read'), ACL('Create')] }))
}, 30_000)
afterAll(() => pod.close())

async function rsGet(webid: string | undefined, path: string, origin?: string, clientId = 'https://other-app.example/id', method = 'GET') {
  const headers: Record<string, string> = origin ? { origin } : {}
  if (webid) {
    const now = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({ webid, client_id: clientId, cnf: { jkt: dpop.jkt } })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience('solid')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(signingKey)
    headers.authorization = `DPoP ${token}`
    headers.dpop = await new SignJWT({ htm: method, htu: POD + path, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpop.jwk })
      .setIssuedAt(now)
      .sign(dpop.privateKey)
  }
  return pod.request(path, { method, headers })
}

const explain = async (q: Record<string, string>) => {
  const res = await pod.api('GET', `/.admin/api/access?${new URLSearchParams(q)}`)
  expect(res.status).toBe(200)
  return res.json()
}

const AGENTS: [string, string | undefined, string | undefined][] = [
  ['bob', BOB, undefined],
  ["bob's app", BOB, APP],
  ['carol', CAROL, undefined],
  ['dan', DAN, undefined],
  ['public', undefined, undefined],
]
const RESOURCES = [
  '/',
  '/projects/',
  '/projects/p1',
  '/projects/p2',
  '/tasks/t1',
  '/tasks/t2',
  '/notes/',
  '/notes/n1',
  '/shared/doc',
  '/shared/.acl',
  '/apps/doc',
  '/team/doc',
]
const ORIGINS = [undefined, 'https://good.app', 'https://other.app']
const ROWS = AGENTS.flatMap(a => RESOURCES.flatMap(r => ORIGINS.map(o => [a[0], a[1], a[2], r, o] as const)))

describe('the RS decision and the explanation agree over the whole table', () => {
  test.each(ROWS)('%s → %s %s (origin %s)', async (_name, webid, client, path, origin) => {
    const res = await rsGet(webid, path, origin, client)
    const why = await explain({ agent: webid ?? 'public', resource: POD + path, ...(client ? { client } : {}), ...(origin ? { origin } : {}) })
    const modes = new Set<AccessMode>(why.modes)
    expect(res.headers.get('wac-allow')).toBe(formatWacAllow(modes, new Set(why.public)))
    expect(res.status).toBe(modes.has('read') ? 200 : webid ? 403 : 401)
    // every mode has its ground, or the answer says why nothing applied
    for (const m of why.modes) expect(why.because[m].length).toBeGreaterThan(0)
    if (why.modes.length === 0) expect(why.whyNot.length).toBe(2)
  })
})

describe('the explanation names the rule or grant behind each mode', () => {
  test('an inherited ACL rule: the ACL document, the authorization and the container it came from', async () => {
    const why = await explain({ agent: BOB, resource: `${POD}/shared/doc` })
    expect(why.modes).toEqual(['read'])
    expect(why.because.read).toEqual([{ source: 'wac', acl: `${POD}/shared/.acl`, authorization: `${POD}/shared/.acl#bob`, inheritedFrom: `${POD}/shared/` }])
  })
  test('a grant: its IRI, scope and how the agent matched', async () => {
    const why = await explain({ agent: CAROL, resource: `${POD}/projects/p2` })
    expect(why.modes).toEqual(['read', 'write', 'append'])
    expect(why.because.write).toEqual([{ source: 'grant', grant: grantIris.carolP2, scope: 'SelectedFromRegistry', as: 'grantee' }])
  })
  test('a remote shape tree is fetched once and its triples kept (max-age 600), not fetched and parsed per decision', async () => {
    const [fetched, parsed] = [treeFetches, parseJobsSent('remote')]
    for (let i = 0; i < 3; i++) expect((await explain({ agent: BOB, resource: `${POD}/tasks/t1` })).modes).toContain('read')
    expect(treeFetches - fetched).toBeLessThanOrEqual(1)
    expect(parseJobsSent('remote') - parsed).toBeLessThanOrEqual(1)
  })
  test('an inherited grant names the parent instance that links to the target', async () => {
    const why = await explain({ agent: BOB, resource: `${POD}/tasks/t1` })
    expect(why.because.read).toEqual([
      { source: 'grant', grant: `${grantIris.bobProjects}#inherit-0`, scope: 'Inherited', as: 'grantee', via: `${POD}/projects/p1` },
    ])
  })
  test('an app acting for its user', async () => {
    const why = await explain({ agent: BOB, client: APP, resource: `${POD}/notes/` })
    expect(why.because.append).toEqual([{ source: 'grant', grant: grantIris.bobsApp, scope: 'AllFromRegistry', as: 'app-for-user' }])
  })
  test('a group rule names its authorization', async () => {
    const why = await explain({ agent: CAROL, resource: `${POD}/team/doc` })
    expect(why.modes).toEqual(['read', 'append'])
    expect(why.because.append).toEqual([{ source: 'wac', acl: `${POD}/team/.acl`, authorization: `${POD}/team/.acl#team`, inheritedFrom: `${POD}/team/` }])
  })
  test("a public rule: foaf:Agent's authorization", async () => {
    const why = await explain({ agent: 'public', resource: `${POD}/apps/doc` })
    expect(why.because.read).toEqual([{ source: 'wac', acl: `${POD}/apps/.acl`, authorization: `${POD}/apps/.acl#all`, inheritedFrom: `${POD}/apps/` }])
  })
  test('a mode from both WAC and a grant lists both', async () => {
    const why = await explain({ agent: CAROL, resource: `${POD}/projects/p2` })
    expect(why.because.read).toEqual([
      { source: 'wac', acl: `${POD}/projects/p2.acl`, authorization: `${POD}/projects/p2.acl#carol` },
      { source: 'grant', grant: grantIris.carolP2, scope: 'SelectedFromRegistry', as: 'grantee' },
    ])
  })
  test('why nothing: the ACL that applied and the grants that did not cover', async () => {
    const why = await explain({ agent: BOB, resource: `${POD}/projects/p2`, client: 'https://other.example/id' })
    expect(why.modes).toEqual(['read'])
    const nothing = await explain({ agent: DAN, resource: `${POD}/tasks/t2` })
    expect(nothing.modes).toEqual([])
    expect(nothing.whyNot).toEqual([
      `none of the 1 authorization(s) in ${POD}/.acl (the ACL of ${POD}/, inherited through acl:default) matches this agent`,
      'no access grant names this agent as grantee (or as the grantee app acting for grantedBy)',
    ])
    const notCovered = await explain({ agent: BOB, resource: `${POD}/tasks/t2` })
    expect(notCovered.whyNot[1]).toBe(`2 access grant(s) name this agent, but none covers ${POD}/tasks/t2`)
  })
  test.each([
    [{ resource: `${POD}/` }, /agent is required/],
    [{ agent: BOB }, /resource is required/],
    [{ agent: BOB, resource: 'https://elsewhere.example/x' }, /on this pod/],
    [{ agent: 'mailto:bob@example.org', resource: `${POD}/` }, /http\(s\) URL/],
    [{ agent: 'public', client: APP, resource: `${POD}/` }, /not public/],
  ])('bad questions → 400 invalid_request (%p)', async (q, message) => {
    const res = await pod.api('GET', `/.admin/api/access?${new URLSearchParams(q as Record<string, string>)}`)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toBe('invalid_request')
    expect(body.error_description).toMatch(message)
  })
})

describe('SAI §9.6 Inherited: links in documents others may write are not followed', () => {
  test('a project anyone signed in may append to: its link to a task gives no Read, and the explanation says why', async () => {
    await pod.seed('/projects/p5', `<#it> <${PM}hasTask> </tasks/t5#it>.`)
    await pod.seed(
      '/projects/p5.acl',
      `${PREFIXES}<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <p5>; acl:mode acl:Read, acl:Write, acl:Control.
      <#signedIn> a acl:Authorization; acl:agentClass acl:AuthenticatedAgent; acl:accessTo <p5>; acl:mode acl:Append.`,
    )
    await pod.seed('/tasks/t5', `<#it> <${PM}title> "five".`)
    expect((await explain({ agent: BOB, resource: `${POD}/projects/p5` })).modes).toEqual(['read', 'append'])
    const why = await explain({ agent: BOB, resource: `${POD}/tasks/t5` })
    expect(why.modes).toEqual([])
    const reason =
      `link from ${POD}/projects/p5 not followed: others may write it ` +
      `(${POD}/projects/p5.acl#signedIn gives http://www.w3.org/ns/auth/acl#AuthenticatedAgent append on ${POD}/projects/p5)`
    expect(why.links).toEqual([
      {
        grant: `${grantIris.bobProjects}#inherit-0`,
        from: `${POD}/projects/p5`,
        predicate: `${PM}hasTask`,
        to: `${POD}/tasks/t5#it`,
        followed: false,
        why: reason,
      },
    ])
    expect(why.whyNot[1]).toEndWith(`none covers ${POD}/tasks/t5; ${reason}`)
    expect((await rsGet(BOB, '/tasks/t5')).status).toBe(403)
  })
  test('the owner-only project next to it still leads to its task', async () => {
    const why = await explain({ agent: BOB, resource: `${POD}/tasks/t1` })
    expect(why.modes).toEqual(['read'])
    expect(why.links).toEqual([
      { grant: `${grantIris.bobProjects}#inherit-0`, from: `${POD}/projects/p1`, predicate: `${PM}hasTask`, to: `${POD}/tasks/t1#it`, followed: true },
    ])
  })
})

describe('SAI §9.6 Delete: deleting a granted instance', () => {
  test('a Delete grant lets the grantee DELETE exactly its instances (Write on the registration for that deletion only)', async () => {
    await pod.seed('/projects/p4', `<#it> <${PM}title> "four".`)
    const res = await pod.api('POST', '/.admin/api/grants', {
      body: grant({ grantee: DAN, scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: [`${POD}/projects/p4`], accessMode: [ACL('Delete')] }),
    })
    expect(res.status).toBe(201)
    expect((await rsGet(DAN, '/projects/p1', undefined, undefined, 'DELETE')).status).toBe(403)
    expect((await rsGet(DAN, '/projects/', undefined, undefined, 'PUT')).status).toBe(403)
    expect((await explain({ agent: DAN, resource: `${POD}/projects/` })).modes).toEqual([])
    expect((await rsGet(DAN, '/projects/p4', undefined, undefined, 'DELETE')).status).toBe(204)
    expect((await rsGet(undefined, '/projects/p4')).status).toBe(401)
    expect((await pod.api('GET', `/.admin/api/access?${new URLSearchParams({ agent: 'public', resource: `${POD}/projects/p4` })}`)).status).toBe(200)
  })
  test('without Delete, Update cannot remove an instance', async () => {
    expect((await rsGet(CAROL, '/projects/p2', undefined, undefined, 'DELETE')).status).toBe(403)
  })
})

describe('revocation takes effect on the next request', () => {
  test('bob reads a granted project; after DELETE of the grant, the next GET is 403 and the explanation agrees', async () => {
    expect((await rsGet(BOB, '/projects/p1')).status).toBe(200)
    expect((await rsGet(BOB, '/tasks/t1')).status).toBe(200)
    expect((await pod.api('DELETE', new URL(grantIris.bobProjects!).pathname)).status).toBe(204)
    expect((await rsGet(BOB, '/projects/p1')).status).toBe(403)
    expect((await rsGet(BOB, '/tasks/t1')).status).toBe(403)
    expect((await explain({ agent: BOB, resource: `${POD}/projects/p1` })).modes).toEqual([])
  })
  test('the owner keeps Control through WAC; no grant can give it', async () => {
    const why = await explain({ agent: OWNER, resource: `${POD}/projects/p1` })
    expect(why.modes).toContain('control')
    expect(why.because.control.every((g: { source: string }) => g.source === 'wac')).toBe(true)
  })
})

describe('WAC 1.1 ED §4.4 conditions: the RS and the explanation agree, and it says which condition did not hold', () => {
  const GOOD_APP = 'https://good-app.example/id'
  const OTHER_APP = 'https://other-app.example/id'
  beforeAll(async () => {
    await pod.seed('/only-app/doc', `<#it> <${PM}title> "through one app".`)
    await pod.seed(
      '/only-app/doc.acl',
      `${PREFIXES}<#carol> a acl:Authorization; acl:agent <${CAROL}>; acl:accessTo <doc>; acl:mode acl:Read;
      acl:condition [ a acl:ClientCondition; acl:client <${GOOD_APP}> ], [ a acl:IssuerCondition; acl:issuer <${ISSUER}> ].
      <#dan> a acl:Authorization; acl:agent <${DAN}>; acl:accessTo <doc>; acl:mode acl:Read; acl:condition [ a <https://example.org/terms#TimeCondition> ].`,
    )
  })
  test('through the named app, with an identity from the named issuer: 200, and explained by the rule', async () => {
    expect((await rsGet(CAROL, '/only-app/doc', undefined, GOOD_APP)).status).toBe(200)
    const why = await explain({ agent: CAROL, client: GOOD_APP, issuer: ISSUER, resource: `${POD}/only-app/doc` })
    expect(why.modes).toEqual(['read'])
    expect(why.because.read).toEqual([{ source: 'wac', acl: `${POD}/only-app/doc.acl`, authorization: `${POD}/only-app/doc.acl#carol` }])
  })
  test('through another app: 403 forbidden, and the explanation says "only through" the app', async () => {
    const res = await rsGet(CAROL, '/only-app/doc', undefined, OTHER_APP)
    expect(res.status).toBe(403)
    expect(await res.text()).toStartWith('forbidden:')
    const why = await explain({ agent: CAROL, client: OTHER_APP, issuer: ISSUER, resource: `${POD}/only-app/doc` })
    expect(why.modes).toEqual([])
    expect(why.whyNot).toContain(`${POD}/only-app/doc.acl#carol matches this agent, but only through app ${GOOD_APP}`)
  })
  test('asked without an issuer, the explanation names the issuer condition', async () => {
    const why = await explain({ agent: CAROL, client: GOOD_APP, resource: `${POD}/only-app/doc` })
    expect(why.whyNot).toContain(`${POD}/only-app/doc.acl#carol matches this agent, but only with an identity from ${ISSUER}`)
  })
  test('a condition the pod does not understand: 403, never applies, and the explanation says so', async () => {
    expect((await rsGet(DAN, '/only-app/doc', undefined, GOOD_APP)).status).toBe(403)
    const why = await explain({ agent: DAN, client: GOOD_APP, issuer: ISSUER, resource: `${POD}/only-app/doc` })
    expect(why.whyNot).toContain(
      `${POD}/only-app/doc.acl#dan matches this agent, but it has a condition this pod does not understand (type https://example.org/terms#TimeCondition), so it never applies`,
    )
  })
  test('issuer must be a URL: 400 invalid_request', async () => {
    const res = await pod.api('GET', `/.admin/api/access?${new URLSearchParams({ agent: CAROL, issuer: 'not a url', resource: `${POD}/only-app/doc` })}`)
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_request')
  })
})
