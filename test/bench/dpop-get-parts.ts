// `bun test/bench/dpop-get-parts.ts [N] [ROUNDS]`: where a DPoP GET's CPU goes, in-process (no HTTP, no load generator): the
// whole GET (DPoP and public) and each part a DPoP GET adds, every one timed over N calls in each of ROUNDS interleaved rounds,
// the least CPU per call kept (a busy neighbour only ever adds: the minimum is the steadiest figure on a shared machine).
import { BASE, dpopProof } from '../op/op-fixture.ts'
import { benchAuthenticator, es256Verifier, OWNER_DOC, openDpopBenchPod, PER_SECOND, PUBLIC_DOC } from './dpop-bench-pod.ts'
import { verifyDpopProof } from '../../src/auth/dpop.ts'
import { JtiReplayCache } from '../../src/auth/dpop-replay.ts'
import { parseAuthorization } from '../../src/http/credentials.ts'
import { sha256Base64url } from '../../src/lib/text.ts'
import { ANONYMOUS, type Principal } from '../../src/auth/principal.ts'
import { listenerPrincipalOf } from '../../src/channels/listener.ts'

const N = Number(process.argv[2] ?? 1500)
const ROUNDS = Number(process.argv[3] ?? 6)
const { pod, key, token } = await openDpopBenchPod()
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
const authenticate = benchAuthenticator(pod)
const dpopRequest = (proof: string) => new Request(url, { headers: { accept: 'text/turtle', authorization: `DPoP ${token}`, dpop: proof } })
const owner = (await authenticate(dpopRequest(fresh()))) as Principal
const verifyOnce = es256Verifier()
const replay = new JtiReplayCache()
const tokenHash = sha256Base64url(token)
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
  ["ES256 verify (the bound's: different signatures)", verifyOnce],
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
