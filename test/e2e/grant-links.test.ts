// SAI §9.6 Inherited over real HTTPS: a grantee who may append to a parent instance writes a link into it
// and still cannot read what the link names (links in documents others may write widen nothing), while a
// link the owner writes into an owner-only instance extends the grant; the owner's "why?" says which counted.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer } from './oidc-client.ts'
import { CookieJar, FORM, field, form, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { accessTokenHash } from '../../src/auth/dpop.ts'
import { writeTurtle } from './seed-store.ts'
import { makeLocalhostCertificate } from './tls-cert.ts'

const ACL = (s: string) => `http://www.w3.org/ns/auth/acl#${s}`
const INTEROP = (s: string) => `http://www.w3.org/ns/solid/interop#${s}`
const REF = 'https://vocab.example/ex#ref'

let dir: string
let ca: string
let alice: RunningPod
let bob: RunningPod
let app: ClientIdServer
const bobAgent = { key: undefined as unknown as DpopKey, token: '' }
const ownerAgent = { key: undefined as unknown as DpopKey, token: '' }
const grants: Record<string, string> = {}
const dashboard = new CookieJar()

const tfetch = ((url: string | URL | Request, init: RequestInit = {}) => fetch(url, { ...init, tls: { ca } })) as typeof fetch

async function logIn(pod: RunningPod, agent: typeof bobAgent) {
  agent.key = await newDpopKey()
  const code = await obtainCodeOverHttp(pod.baseUrl, app, new CookieJar(), OWNER_PASSWORD, tfetch)
  agent.token = String((await exchangeCode(pod.baseUrl, app, agent.key, code, tfetch)).access_token)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-grant-links-'))
  const tls = makeLocalhostCertificate(dir)
  ca = readFileSync(tls.cert, 'utf8')
  alice = await startPod({
    tls,
    seed: async (dataDir, base) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, base, Date.now()) // the root ACL gives the owner alone everything, by acl:default too
        const ex = '@prefix ex: <https://vocab.example/ex#>.\n'
        await writeTurtle(store, base, '/a/x.ttl', `${ex}<#it> ex:title "x".`)
        await writeTurtle(store, base, '/a/y.ttl', `${ex}<#it> ex:title "y".`)
        await writeTurtle(store, base, '/b/secret.ttl', `${ex}<#it> ex:title "secret".`)
        await writeTurtle(store, base, '/b/shared.ttl', `${ex}<#it> ex:title "shared".`)
        await writeTurtle(
          store,
          base,
          '/shapetrees/ex',
          `@prefix st: <http://www.w3.org/ns/shapetrees#>.
          <#A> a st:ShapeTree; st:references [ st:referencesShapeTree <#B>; st:viaPredicate <${REF}> ].
          <#B> a st:ShapeTree.`,
        )
      } finally {
        await store.close()
      }
    },
  })
  bob = await startPod({ tls })
  app = serveClientIdDocument("A grantee's app")
  await logIn(bob, bobAgent) // Bob, the owner of the other pod, is Alice's grantee
  await logIn(alice, ownerAgent) // Alice's owner, writing her own data through the same resource server
  const page = await dashboard.take(await tfetch(`${alice.baseUrl}/.oidc/login`)).text()
  const login = dashboard.take(
    await tfetch(`${alice.baseUrl}/.oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: dashboard.header(), origin: alice.baseUrl },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    }),
  )
  if (login.status >= 400) throw new Error(`owner login failed: ${login.status}`)
  // Two grants to Bob, each with Read on /b/ inherited along ex:ref: one from /a/x.ttl, which Bob may also
  // append to, one from /a/y.ttl, which he may only read
  const aliceWebId = `${alice.baseUrl}/profile/card#me`
  const tree = `${alice.baseUrl}/shapetrees/ex`
  const common = { grantee: bobWebId(), grantedBy: aliceWebId, dataOwner: aliceWebId, hasStorage: `${alice.baseUrl}/` }
  for (const [name, instance, modes] of [
    ['appendable', 'x.ttl', ['Read', 'Append']],
    ['readOnly', 'y.ttl', ['Read']],
  ] as const) {
    const res = await dashboardApi('POST', '/.admin/api/grants', {
      ...common,
      registeredShapeTree: `${tree}#A`,
      hasDataRegistration: `${alice.baseUrl}/a/`,
      scopeOfGrant: INTEROP('SelectedFromRegistry'),
      hasDataInstance: [`${alice.baseUrl}/a/${instance}`],
      accessMode: modes.map(ACL),
      hasInheritingGrant: [
        {
          ...common,
          registeredShapeTree: `${tree}#B`,
          hasDataRegistration: `${alice.baseUrl}/b/`,
          scopeOfGrant: INTEROP('Inherited'),
          accessMode: [ACL('Read')],
        },
      ],
    })
    if (res.status !== 201) throw new Error(`grant ${name}: ${res.status} ${await res.text()}`)
    grants[name] = res.headers.get('location')!
  }
}, 90_000)

afterAll(async () => {
  app?.stop()
  await alice?.dispose()
  await bob?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const bobWebId = () => `${bob.baseUrl}/profile/card#me`

async function dashboardApi(method: string, path: string, body?: unknown) {
  const csrf = (await dashboard.take(await tfetch(`${alice.baseUrl}/.admin/api/csrf`, { headers: { cookie: dashboard.header() } })).json()).token
  return dashboard.take(
    await tfetch(`${alice.baseUrl}${path}`, {
      method,
      headers: { cookie: dashboard.header(), 'x-csrf-token': csrf, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  )
}

/** A request to Alice's resource server with the agent's DPoP-bound access token and a fresh proof. */
async function rs(agent: typeof bobAgent, method: string, path: string, sparqlUpdate?: string) {
  const url = `${alice.baseUrl}${path}`
  const proof = await new SignJWT({ htm: method, htu: url, jti: crypto.randomUUID(), ath: accessTokenHash(agent.token) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: agent.key.jwk })
    .setIssuedAt()
    .sign(agent.key.privateKey)
  const body = sparqlUpdate ? { body: sparqlUpdate } : {}
  return tfetch(url, {
    method,
    headers: { authorization: `DPoP ${agent.token}`, dpop: proof, ...(sparqlUpdate ? { 'content-type': 'application/sparql-update' } : {}) },
    ...body,
  })
}

const insertLink = (from: string, to: string) => `INSERT DATA { <${alice.baseUrl}${from}#it> <${REF}> <${alice.baseUrl}${to}> . }`

async function explain(path: string) {
  const res = await dashboardApi('GET', `/.admin/api/access?${new URLSearchParams({ agent: bobWebId(), resource: alice.baseUrl + path })}`)
  expect(res.status).toBe(200)
  return res.json()
}

async function expectForbidden(res: Response) {
  expect(res.status).toBe(403)
  expect((await res.text()).split(':', 1)[0]).toBe('forbidden')
}

describe('SAI §9.6 Inherited: a grantee cannot widen its grant by writing a link', () => {
  test('before: Bob may read /a/x.ttl, not /b/secret.ttl', async () => {
    expect((await rs(bobAgent, 'GET', '/a/x.ttl')).status).toBe(200)
    await expectForbidden(await rs(bobAgent, 'GET', '/b/secret.ttl'))
  })

  test('Bob appends a link to /b/secret.ttl into /a/x.ttl (204), and reading it is still 403 forbidden', async () => {
    expect((await rs(bobAgent, 'PATCH', '/a/x.ttl', insertLink('/a/x.ttl', '/b/secret.ttl'))).status).toBe(204)
    expect(await (await rs(bobAgent, 'GET', '/a/x.ttl')).text()).toContain(`<${REF}> <../b/secret.ttl>`)
    await expectForbidden(await rs(bobAgent, 'GET', '/b/secret.ttl'))
  })

  test('the explanation lists the link as not followed, and why', async () => {
    const why = await explain('/b/secret.ttl')
    expect(why.modes).toEqual([])
    const ignored =
      `link from ${alice.baseUrl}/a/x.ttl not followed: others may write it ` +
      `(grant ${grants.appendable} gives ${bobWebId()} append on ${alice.baseUrl}/a/x.ttl)`
    expect(why.links).toEqual([
      {
        grant: `${grants.appendable}#inherit-0`,
        from: `${alice.baseUrl}/a/x.ttl`,
        predicate: REF,
        to: `${alice.baseUrl}/b/secret.ttl`,
        followed: false,
        why: ignored,
      },
    ])
    expect(why.whyNot[1]).toBe(`4 access grant(s) name this agent, but none covers ${alice.baseUrl}/b/secret.ttl; ${ignored}`)
  })
})

describe('SAI §9.6 Inherited: a link the owner writes into an owner-only instance extends the grant', () => {
  test('Bob may not write /a/y.ttl; before the owner links it, /b/shared.ttl is 403 forbidden', async () => {
    await expectForbidden(await rs(bobAgent, 'PATCH', '/a/y.ttl', insertLink('/a/y.ttl', '/b/shared.ttl')))
    await expectForbidden(await rs(bobAgent, 'GET', '/b/shared.ttl'))
  })

  test('the owner PATCHes the link into /a/y.ttl (204); Bob then reads /b/shared.ttl', async () => {
    expect((await rs(ownerAgent, 'PATCH', '/a/y.ttl', insertLink('/a/y.ttl', '/b/shared.ttl'))).status).toBe(204)
    const res = await rs(bobAgent, 'GET', '/b/shared.ttl')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"shared"')
  })

  test('the explanation names the grant, the instance it came through and the link that counted', async () => {
    const why = await explain('/b/shared.ttl')
    expect(why.modes).toEqual(['read'])
    expect(why.because.read).toEqual([
      { source: 'grant', grant: `${grants.readOnly}#inherit-0`, scope: 'Inherited', as: 'grantee', via: `${alice.baseUrl}/a/y.ttl` },
    ])
    expect(why.links).toEqual([
      { grant: `${grants.readOnly}#inherit-0`, from: `${alice.baseUrl}/a/y.ttl`, predicate: REF, to: `${alice.baseUrl}/b/shared.ttl`, followed: true },
    ])
  })

  test("the owner's link into the instance Bob may append to still does not count", async () => {
    expect((await rs(ownerAgent, 'PATCH', '/a/x.ttl', insertLink('/a/x.ttl', '/b/shared.ttl'))).status).toBe(204)
    const why = await explain('/b/shared.ttl')
    expect(why.links.map((l: { from: string; followed: boolean }) => [l.from, l.followed])).toEqual([
      [`${alice.baseUrl}/a/x.ttl`, false],
      [`${alice.baseUrl}/a/y.ttl`, true],
    ])
  })
})
