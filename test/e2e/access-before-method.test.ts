// Access is decided before the method is judged, and no answer tells an agent without Read what a folder holds
// (Solid conformance suite, web-access-control/protected-operation/{read,write}-access-*): two real pods over
// HTTP and three kinds of agent — Bob from pod B (his DPoP-bound token from B's OP), Carol, a WebID hosted
// on pod A itself (HttpSig with a key her profile links), and the public.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type ClientIdServer, type TokenSet } from './oidc-client.ts'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { signedHeaders } from '../auth/httpsig/sign-request.ts'
import { keyDocument, makeKey } from '../auth/httpsig/key-fixture.ts'
import { expectRsError } from '../rs/rs-helpers.ts'

type AgentKind = 'foreign' | 'same-pod' | 'public'
type Session = { key: DpopKey; tokens: TokenSet }
interface Send {
  readonly body?: string
  readonly type?: string
}

let alice: RunningPod
let bob: RunningPod
let app: ClientIdServer
let aliceSession: Session
let bobSession: Session
const carolKey = makeKey('ecdsa-p256-sha256')
const AGENTS: AgentKind[] = ['foreign', 'same-pod', 'public']
const N3_INSERT = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <> a <http://example.org#Foo>. }.'

async function signIn(pod: RunningPod): Promise<Session> {
  const key = await newDpopKey()
  return { key, tokens: await exchangeCode(pod.baseUrl, app, key, await obtainCodeOverHttp(pod.baseUrl, app, new CookieJar(), OWNER_PASSWORD)) }
}

async function withDpop(s: Session, method: string, url: string, o: Send): Promise<Response> {
  const token = s.tokens.access_token as string
  return fetch(url, {
    method,
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: {
      authorization: `DPoP ${token}`,
      dpop: await dpopProof(s.key, method, url, Date.now(), { accessToken: token }),
      ...(o.type ? { 'content-type': o.type } : {}),
    },
  })
}

/** A request to pod A by one kind of agent. */
async function as(agent: AgentKind, method: string, path: string, o: Send = {}): Promise<Response> {
  const url = alice.baseUrl + path
  const type: Record<string, string> = o.type ? { 'content-type': o.type } : {}
  if (agent === 'foreign') return withDpop(bobSession, method, url, o)
  if (agent === 'public') return fetch(url, { method, headers: type, ...(o.body !== undefined ? { body: o.body } : {}) })
  const headers = await signedHeaders(url, {
    method,
    key: carolKey.privateKey,
    alg: 'ecdsa-p256-sha256',
    keyid: `${alice.baseUrl}/people/carol#key`,
    cred: `${alice.baseUrl}/people/carol#me`,
    headers: type,
    ...(o.body !== undefined ? { body: o.body } : {}),
  })
  return fetch(url, { method, headers, ...(o.body !== undefined ? { body: o.body } : {}) })
}

const asAlice = (method: string, path: string, o: Send = {}) => withDpop(aliceSession, method, alice.baseUrl + path, o)
async function aliceMakes(method: string, path: string, o: Send = {}) {
  const res = await asAlice(method, path, o)
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
}

function subjectOf(agent: AgentKind): string {
  if (agent === 'foreign') return `acl:agent <${bob.baseUrl}/profile/card#me>`
  if (agent === 'same-pod') return `acl:agent <${alice.baseUrl}/people/carol#me>`
  return 'acl:agentClass foaf:Agent'
}

/** A folder where `agent` has `modes` by acl:accessTo on it and by acl:default on everything in it (the suite's "R/W, inherited"). */
async function folderFor(agent: AgentKind, name: string, modes: string) {
  const dir = `/${name}-${agent}/`
  const url = alice.baseUrl + dir
  await aliceMakes('PUT', dir)
  await aliceMakes('PUT', `${dir}doc.ttl`, { type: 'text/turtle', body: '<#it> <http://purl.org/dc/terms/title> "Alice\'s".' })
  await aliceMakes('PUT', `${dir}file.txt`, { type: 'text/plain', body: "Alice's text" })
  await aliceMakes('PUT', `${dir}sub/`)
  await aliceMakes('PUT', `${dir}.acl`, {
    type: 'text/turtle',
    body: `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#alice> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <${url}>; acl:default <${url}>; acl:mode acl:Read, acl:Write, acl:Control.
<#them> a acl:Authorization; ${subjectOf(agent)}; acl:accessTo <${url}>; acl:default <${url}>; acl:mode ${modes}.`,
  })
  return dir
}

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([startPod({ extraArgs: ['--log-level', 'warn'] }), startPod({ extraArgs: ['--log-level', 'warn'] })])
  app = serveClientIdDocument('access-before-method')
  ;[aliceSession, bobSession] = await Promise.all([signIn(alice), signIn(bob)])
  // Carol's WebID profile lives on pod A, public, linking the key she signs with
  await aliceMakes('PUT', '/people/carol', {
    type: 'text/turtle',
    body: `${keyDocument(carolKey.publicJwk, `${alice.baseUrl}/people/carol#me`)}
<#me> <http://www.w3.org/ns/auth/cert#key> <#key>.`,
  })
  await aliceMakes('PUT', '/people/carol.acl', {
    type: 'text/turtle',
    body: `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#alice> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <${alice.baseUrl}/people/carol>; acl:mode acl:Read, acl:Write, acl:Control.
<#all> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${alice.baseUrl}/people/carol>; acl:mode acl:Read.`,
  })
  for (const agent of AGENTS) {
    await folderFor(agent, 'read', 'acl:Read')
    await folderFor(agent, 'write', 'acl:Write')
  }
}, 90_000)

afterAll(async () => {
  app?.stop()
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

const refusal = (agent: AgentKind): [number, string] => (agent === 'public' ? [401, 'unauthenticated'] : [403, 'forbidden'])

/** Every kind of resource the suite uses: an RDF document, a plain file, a container, a missing document and a missing container. */
const KINDS = ['doc.ttl', 'file.txt', 'sub/', 'missing.ttl', 'missing/'] as const
const WRITES: [string, Send][] = [
  ['POST', { type: 'text/turtle', body: '<> <http://www.w3.org/2000/01/rdf-schema#comment> "Bob added this.".' }],
  ['PUT', { type: 'text/turtle', body: '<> <http://www.w3.org/2000/01/rdf-schema#comment> "Bob replaced it.".' }],
  ['PATCH', { type: 'text/n3', body: N3_INSERT }],
  ['DELETE', {}],
]
const readOnlyCases = AGENTS.flatMap(agent => WRITES.flatMap(([method, o]) => KINDS.map(kind => [agent, method, kind, o] as const)))

describe('an agent with Read only: every write is refused for want of access, never for the method (401/403, no Allow)', () => {
  test.each(readOnlyCases)('%s agent: %s %s', async (agent, method, kind, o) => {
    const path = `/read-${agent}/${kind}`
    const res = await as(agent, method, path, method === 'PUT' && kind.endsWith('/') ? {} : o)
    const [status, code] = refusal(agent)
    await expectRsError(res, status, code)
    expect(res.headers.get('allow')).toBeNull()
    if (agent === 'public') {
      // UMA Grant §3.2: the public's refusal still names the AS with a ticket, beside the DPoP challenge
      expect(res.headers.get('www-authenticate')).toMatch(/^UMA realm="[^"]+", as_uri="[^"]+", ticket="[^"]+".*DPoP/)
    }
    // nothing was made or changed
    expect((await asAlice('GET', path)).status).toBe(kind.startsWith('missing') ? 404 : 200)
  })

  test.each(AGENTS)('%s agent: GET of a missing member is 404 (it may read the folder, so it may know)', async agent => {
    await expectRsError(await as(agent, 'GET', `/read-${agent}/missing.ttl`), 404, 'not_found')
  })
})

describe('an agent with Write (acl:accessTo the folder, acl:default inside) but no Read', () => {
  test.each(AGENTS)('%s agent: DELETE of a missing document is 401/403, not the 404 that would say the name is free', async agent => {
    const res = await as(agent, 'DELETE', `/write-${agent}/missing.ttl`)
    await expectRsError(res, ...refusal(agent))
  })

  test.each(AGENTS)('%s agent: DELETE of a missing container is 401/403, not 404', async agent => {
    await expectRsError(await as(agent, 'DELETE', `/write-${agent}/missing/`), ...refusal(agent))
  })

  test.each(AGENTS)('%s agent: DELETE of an empty child container is 401/403 (its answer would tell whether it is empty) and it stays', async agent => {
    const res = await as(agent, 'DELETE', `/write-${agent}/sub/`)
    await expectRsError(res, ...refusal(agent))
    expect((await asAlice('GET', `/write-${agent}/sub/`)).status).toBe(200)
  })

  test.each(AGENTS)('%s agent: POST to a document is still 405 with Allow: it may append there, so the method is what is wrong', async agent => {
    const res = await as(agent, 'POST', `/write-${agent}/doc.ttl`, { type: 'text/turtle', body: '<> a <http://example.org#Foo>.' })
    await expectRsError(res, 405, 'method_not_allowed')
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS, PUT, PATCH, DELETE')
  })

  test.each(AGENTS)('%s agent: DELETE of a document is 204 (Write on it and on its folder is enough)', async agent => {
    expect((await as(agent, 'DELETE', `/write-${agent}/file.txt`)).status).toBe(204)
    expect((await asAlice('GET', `/write-${agent}/file.txt`)).status).toBe(404)
  })
})

describe("the owner, with every mode, keeps the method's answers", () => {
  test('POST to a document: 405 method_not_allowed with Allow', async () => {
    const res = await asAlice('POST', '/read-public/doc.ttl', { type: 'text/turtle', body: '<> a <http://example.org#Foo>.' })
    await expectRsError(res, 405, 'method_not_allowed')
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS, PUT, PATCH, DELETE')
  })

  test('DELETE of a missing document: 404 not_found', async () => {
    await expectRsError(await asAlice('DELETE', '/read-public/missing.ttl'), 404, 'not_found')
  })

  test('DELETE of an empty container: 204', async () => {
    expect((await asAlice('DELETE', '/read-public/sub/')).status).toBe(204)
  })
})
