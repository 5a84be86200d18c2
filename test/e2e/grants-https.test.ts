// Two pods over HTTPS (one self-signed certificate made here, trusted by both as their CA): Alice's owner
// grants Bob, who logs in at his own pod with DPoP, read access to selected projects and the tasks they
// link to. Bob reads exactly those, and nothing else; after revocation, nothing at all.

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

let dir: string
let ca: string
let alice: RunningPod
let bob: RunningPod
let app: ClientIdServer
let key: DpopKey
let accessToken = ''
let grantUrl = ''
const owner = new CookieJar()

/** fetch that trusts our test certificate, as a browser with the CA installed would. */
const tfetch = ((url: string | URL | Request, init: RequestInit = {}) => fetch(url, { ...init, tls: { ca } })) as typeof fetch

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-grants-tls-'))
  const tls = makeLocalhostCertificate(dir)
  ca = readFileSync(tls.cert, 'utf8')
  alice = await startPod({
    tls,
    seed: async (dataDir, base) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, base, Date.now())
        const pm = '@prefix pm: <https://vocab.example/pm#>.\n'
        await writeTurtle(store, base, '/projects/p1', `${pm}<#it> pm:title "one"; pm:hasTask </tasks/t1#it>.`)
        await writeTurtle(store, base, '/projects/p2', `${pm}<#it> pm:title "two".`)
        await writeTurtle(store, base, '/projects/p3', `${pm}<#it> pm:title "three"; pm:hasTask </tasks/t3#it>.`)
        await writeTurtle(store, base, '/tasks/t1', `${pm}<#it> pm:title "task one".`)
        await writeTurtle(store, base, '/tasks/t3', `${pm}<#it> pm:title "task three".`)
        await writeTurtle(store, base, '/private/diary', `${pm}<#it> pm:title "secret".`)
        // The shape trees live on Alice's pod too (answered from her store, never over the network)
        await writeTurtle(
          store,
          base,
          '/shapetrees/pm',
          `@prefix st: <http://www.w3.org/ns/shapetrees#>.
          <#Project> a st:ShapeTree; st:references [ st:referencesShapeTree <#Task>; st:viaPredicate <https://vocab.example/pm#hasTask> ].
          <#Task> a st:ShapeTree.`,
        )
      } finally {
        await store.close()
      }
    },
  })
  bob = await startPod({ tls })
  app = serveClientIdDocument("Bob's reader")
  key = await newDpopKey()
  // Bob logs in at his own pod (Solid-OIDC, PKCE, DPoP) through its login and consent pages
  const code = await obtainCodeOverHttp(bob.baseUrl, app, new CookieJar(), OWNER_PASSWORD, tfetch)
  accessToken = String((await exchangeCode(bob.baseUrl, app, key, code, tfetch)).access_token)
  // Alice's owner signs in to her dashboard
  const page = await owner.take(await tfetch(`${alice.baseUrl}/.oidc/login`)).text()
  const login = owner.take(
    await tfetch(`${alice.baseUrl}/.oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: alice.baseUrl },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    }),
  )
  if (login.status >= 400) throw new Error(`owner login failed: ${login.status}`)
}, 60_000)

afterAll(async () => {
  app?.stop()
  await alice?.dispose()
  await bob?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

async function ownerApi(method: string, path: string, body?: unknown) {
  const csrf = (await owner.take(await tfetch(`${alice.baseUrl}/.admin/api/csrf`, { headers: { cookie: owner.header() } })).json()).token
  return owner.take(
    await tfetch(`${alice.baseUrl}${path}`, {
      method,
      headers: { cookie: owner.header(), 'x-csrf-token': csrf, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  )
}

/** Bob's app at Alice's pod: his DPoP-bound access token and a fresh proof per request. */
async function asBob(method: string, path: string, body?: string) {
  const url = `${alice.baseUrl}${path}`
  const proof = await new SignJWT({ htm: method, htu: url, jti: crypto.randomUUID(), ath: accessTokenHash(accessToken) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey)
  return tfetch(url, {
    method,
    headers: { authorization: `DPoP ${accessToken}`, dpop: proof, ...(body ? { 'content-type': 'text/turtle' } : {}) },
    ...(body ? { body } : {}),
  })
}

describe('a grant over HTTPS, for an agent of another pod', () => {
  test('both pods run on https://localhost base URLs', () => {
    expect(alice.baseUrl).toStartWith('https://localhost:')
    expect(bob.baseUrl).toStartWith('https://localhost:')
  })

  test("before any grant, Bob (authenticated) reads nothing at Alice's pod", async () => {
    expect((await asBob('GET', '/projects/p1')).status).toBe(403)
  })

  test('the owner grants Bob Read on p1 and p2, and on the tasks they link to', async () => {
    const aliceWebId = `${alice.baseUrl}/profile/card#me`
    const tree = `${alice.baseUrl}/shapetrees/pm`
    const res = await ownerApi('POST', '/.admin/api/grants', {
      grantee: `${bob.baseUrl}/profile/card#me`,
      grantedBy: aliceWebId,
      dataOwner: aliceWebId,
      registeredShapeTree: `${tree}#Project`,
      hasDataRegistration: `${alice.baseUrl}/projects/`,
      hasStorage: `${alice.baseUrl}/`,
      scopeOfGrant: INTEROP('SelectedFromRegistry'),
      accessMode: [ACL('Read')],
      hasDataInstance: [`${alice.baseUrl}/projects/p1`, `${alice.baseUrl}/projects/p2`],
      hasInheritingGrant: [
        {
          grantee: `${bob.baseUrl}/profile/card#me`,
          grantedBy: aliceWebId,
          dataOwner: aliceWebId,
          registeredShapeTree: `${tree}#Task`,
          hasDataRegistration: `${alice.baseUrl}/tasks/`,
          hasStorage: `${alice.baseUrl}/`,
          scopeOfGrant: INTEROP('Inherited'),
          accessMode: [ACL('Read')],
        },
      ],
    })
    expect(res.status).toBe(201)
    grantUrl = res.headers.get('location')!
    expect(grantUrl).toStartWith(`${alice.baseUrl}/.admin/api/grants/`)
  })

  test.each([
    ['/projects/p1', 200],
    ['/projects/p2', 200],
    ['/tasks/t1', 200],
    ['/projects/p3', 403],
    ['/tasks/t3', 403],
    ['/projects/', 403],
    ['/tasks/', 403],
    ['/private/diary', 403],
    ['/', 403],
    ['/projects/p1.acl', 403],
  ])('Bob GET %s → %i', async (path, status) => {
    const res = await asBob('GET', path)
    expect(res.status).toBe(status)
    if (status === 200) {
      expect(await res.text()).toContain('<https://vocab.example/pm#title>')
      expect(res.headers.get('wac-allow')).toBe('user="read",public=""')
    }
  })

  test('Read does not write: PUT on a granted instance → 403', async () => {
    expect((await asBob('PUT', '/projects/p1', '<#x> <#y> <#z>.')).status).toBe(403)
  })

  test("the owner sees why: the grant IRI behind Bob's Read", async () => {
    const q = new URLSearchParams({ agent: `${bob.baseUrl}/profile/card#me`, resource: `${alice.baseUrl}/tasks/t1` })
    const why = await (await ownerApi('GET', `/.admin/api/access?${q}`)).json()
    expect(why.modes).toEqual(['read'])
    expect(why.because.read).toEqual([
      { source: 'grant', grant: `${grantUrl}#inherit-0`, scope: 'Inherited', as: 'grantee', via: `${alice.baseUrl}/projects/p1` },
    ])
  })

  test('after revocation, the next request is refused', async () => {
    expect((await ownerApi('DELETE', new URL(grantUrl).pathname)).status).toBe(204)
    expect((await asBob('GET', '/projects/p1')).status).toBe(403)
    expect((await asBob('GET', '/tasks/t1')).status).toBe(403)
  })
})
