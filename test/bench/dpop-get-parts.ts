// `bun test/bench/dpop-get-parts.ts [N] [ROUNDS]`: where a DPoP GET's CPU goes, in-process (no HTTP, no load generator): the
// whole GET (DPoP and public) and each part a DPoP GET adds, every one timed over N calls in each of ROUNDS interleaved rounds,
// the least CPU per call kept (a busy neighbour only ever adds: the minimum is the steadiest figure on a shared machine).
import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K } from './documents.ts'
import { BASE, CookieJar, dpopProof, newDpopKey, obtainTokens, openTestPod } from '../op/op-fixture.ts'
import { makeIssuerKeyResolver } from '../../src/auth/issuer-keys.ts'
import { makeWebIdIssuerResolver } from '../../src/auth/webid-issuers.ts'
import { makeAuthenticator } from '../../src/auth/authenticate.ts'
import { verifyDpopProof } from '../../src/auth/dpop.ts'
import { JtiReplayCache } from '../../src/auth/dpop-replay.ts'
import { parseAuthorization } from '../../src/http/credentials.ts'
import { sha256Base64url } from '../../src/lib/text.ts'
import { makePublicView } from '../../src/policy/public-view.ts'
import { ANONYMOUS, type Principal } from '../../src/auth/principal.ts'
import { listenerPrincipalOf } from '../../src/channels/listener.ts'

const N = Number(process.argv[2] ?? 1500)
const ROUNDS = Number(process.argv[3] ?? 6)
const PUBLIC_DOC = '/bench/doc-1k'
const OWNER_DOC = '/private/doc-1k'
/** Proofs per second of iat, well within one key's share of the replay memory (auth/dpop-replay.ts). */
const PER_SECOND = 4000

const pod = await openTestPod()
await writeTurtle(pod.store, BASE, '/bench/', '')
await writeTurtle(
  pod.store,
  BASE,
  '/bench/.acl',
  `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${BASE}/bench/>; acl:default <${BASE}/bench/>; acl:mode acl:Read.`,
)
await writeTurtle(pod.store, BASE, PUBLIC_DOC, DOC_1K)
await writeTurtle(pod.store, BASE, OWNER_DOC, DOC_1K)
const key = await newDpopKey()
const { body } = await obtainTokens(pod, new CookieJar(), key)
const token = body.access_token as string
const url = BASE + OWNER_DOC
const T0 = pod.clock.now
const calls = N * ROUNDS
// Fresh proofs (a proof is used once) for the whole DPoP GET, the two authenticators and verifyDpopProof
const proofs: string[] = []
for (let i = 0; i < 4 * (calls + 200); i++) proofs.push(await dpopProof(key, 'GET', url, T0 + Math.floor(i / PER_SECOND) * 1000, { accessToken: token }))
let next = 0
const fresh = () => {
  const i = next++
  pod.clock.now = T0 + Math.floor(i / PER_SECOND) * 1000
  return proofs[i]!
}
const authenticate = makeAuthenticator({
  ...pod.deps,
  baseUrl: pod.deps.cfg.baseUrl,
  readableByPublic: makePublicView(pod.deps.decider, pod.deps.cfg.baseUrl),
  getIssuerKeys: makeIssuerKeyResolver({ baseUrl: BASE, ownJwks: pod.deps.signingKeys.publicJwks, fetchDoc: pod.deps.fetchDoc, now: pod.deps.now }),
  getWebIdIssuers: makeWebIdIssuerResolver(pod.deps.fetchDoc),
  umaTokenType: 'bearer',
})
const dpopRequest = (proof: string) => new Request(url, { headers: { accept: 'text/turtle', authorization: `DPoP ${token}`, dpop: proof } })
const owner = (await authenticate(dpopRequest(fresh()))) as Principal
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const signed = Buffer.from('x'.repeat(450))
// Different signatures in turn, as proofs arrive (test/bench/signature-bound.ts says why)
const signatures = Array.from({ length: 1024 }, () => sign('sha256', signed, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))
const replay = new JtiReplayCache()
const tokenHash = sha256Base64url(token)
let v = 0
let jti = 0

/** Each part: what it costs once, given what the earlier parts of a request made. Proof-using parts take fresh proofs. */
const parts: [string, () => unknown][] = [
  [
    'whole public GET',
    async () => {
      const res = await pod.handle(new Request(BASE + PUBLIC_DOC, { headers: { accept: 'text/turtle' } }))
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`public GET: ${res.status}`)
    },
  ],
  [
    'whole DPoP GET (owner-only document)',
    async () => {
      const res = await pod.handle(dpopRequest(fresh()))
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`DPoP GET: ${res.status} ${res.headers.get('www-authenticate')}`)
    },
  ],
  [
    "ES256 verify (the bound's: different signatures)",
    () => {
      if (!verify('sha256', signed, { key: ec.publicKey, dsaEncoding: 'ieee-p1363' }, signatures[v++ % signatures.length]!)) throw new Error('did not verify')
    },
  ],
  ["the harness's new Request, DPoP headers", () => dpopRequest(proofs[0]!)],
  ["the harness's new Request, public", () => new Request(BASE + PUBLIC_DOC, { headers: { accept: 'text/turtle' } })],
  ['authenticator (DPoP), its Request made ahead', () => undefined],
  ["the pod's authenticator (Basic and owner-cookie wrappers too), its Request made ahead", () => undefined],
  [
    'verifyDpopProof',
    () => verifyDpopProof({ header: fresh(), method: 'GET', url, now: pod.clock.now, accessToken: token, accessTokenHash: tokenHash, status: 401 }),
  ],
  ['Authorization parse', () => parseAuthorization(`DPoP ${token}`)],
  ['access-token SHA-256', () => sha256Base64url(token)],
  ['jti replay memory', () => replay.remember('jkt', `jti ${jti++}`, url, pod.clock.now + 60_000, pod.clock.now, owner.issuer)],
  ['decision, the owner', () => pod.deps.decider.decide(owner, url, undefined)],
  ['decision, anonymous (kept)', () => pod.deps.decider.decide(ANONYMOUS, url, undefined)],
  ["Updates-Via, the owner's capability (kept)", () => pod.deps.legacyCapabilities.updatesViaFor(listenerPrincipalOf(owner))],
]
const best = parts.map(() => Number.POSITIVE_INFINITY)
const AUTH = parts.findIndex(([label]) => label.startsWith('authenticator'))
const POD_AUTH = AUTH + 1

for (const [, f] of parts) for (let i = 0; i < 200; i++) await f()
for (let r = 0; r < ROUNDS; r++) {
  for (let p = 0; p < parts.length; p++) {
    // The authenticator reads a Request the server made: built before the clock starts
    const requests = p === AUTH || p === POD_AUTH ? Array.from({ length: N }, () => dpopRequest(fresh())) : []
    const f = parts[p]![1]
    const u0 = process.cpuUsage()
    if (p === AUTH) for (let i = 0; i < N; i++) await authenticate(requests[i]!)
    else if (p === POD_AUTH) for (let i = 0; i < N; i++) await pod.deps.authenticate(requests[i]!)
    else for (let i = 0; i < N; i++) await f()
    const u = process.cpuUsage(u0)
    best[p] = Math.min(best[p]!, (u.user + u.system) / N)
  }
}
for (let p = 0; p < parts.length; p++) console.log(`${best[p]!.toFixed(1).padStart(7)} µs  ${parts[p]![0]}`)
const [publicGet, dpopGet, es256, dpopRequestMade, publicRequestMade] = best as [number, number, number, number, number]
const beyond = dpopGet - dpopRequestMade - (publicGet - publicRequestMade) - es256
console.log(`${beyond.toFixed(1).padStart(7)} µs  DPoP GET beyond public GET + one verification (requests' construction taken out)`)
await pod.close()
