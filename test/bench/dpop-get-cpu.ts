// `bun test/bench/dpop-get-cpu.ts [N] [ROUNDS]`: CPU per GET through the pod's request handler in-process (no HTTP, no load
// generator): a public GET, a DPoP GET of an owner-only document and one ES256 verification, in alternating rounds, so the
// DPoP GET's cost beyond "public GET + one verification" (the bench's signature-check bound) is measured on one machine at one
// load. `bun --cpu-prof` on it profiles the DPoP request alone (set ROUNDS to 0 for the public part off).
import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K } from './documents.ts'
import { BASE, CookieJar, dpopProof, newDpopKey, obtainTokens, openTestPod } from '../op/op-fixture.ts'

const N = Number(process.argv[2] ?? 4000)
const ROUNDS = Number(process.argv[3] ?? 3)
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
const T = pod.clock.now
const total = N * Math.max(1, ROUNDS)
const proofs: string[] = []
for (let i = 0; i < total + 400; i++) proofs.push(await dpopProof(key, 'GET', BASE + OWNER_DOC, T + Math.floor(i / PER_SECOND) * 1000, { accessToken: token }))
let next = 0
const dpopGet = async () => {
  const i = next++
  pod.clock.now = T + Math.floor(i / PER_SECOND) * 1000
  const res = await pod.handle(new Request(BASE + OWNER_DOC, { headers: { accept: 'text/turtle', authorization: `DPoP ${token}`, dpop: proofs[i]! } }))
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`DPoP GET: ${res.status} ${res.headers.get('www-authenticate')}`)
}
const publicGet = async () => {
  const res = await pod.handle(new Request(BASE + PUBLIC_DOC, { headers: { accept: 'text/turtle' } }))
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`public GET: ${res.status}`)
}
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const signed = Buffer.from('x'.repeat(450))
// Different signatures in turn, as proofs arrive (test/bench/signature-bound.ts says why)
const signatures = Array.from({ length: 1024 }, () => sign('sha256', signed, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))
let v = 0
const verifyOnce = async () => {
  if (!verify('sha256', signed, { key: ec.publicKey, dsaEncoding: 'ieee-p1363' }, signatures[v++ % signatures.length]!)) throw new Error('did not verify')
}

async function cpuEach(f: () => Promise<void>, n: number): Promise<number> {
  const u0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await f()
  const u = process.cpuUsage(u0)
  return (u.user + u.system) / n
}

for (let i = 0; i < 200; i++) await Promise.all([publicGet(), dpopGet(), verifyOnce()])
if (ROUNDS === 0) {
  console.log(`DPoP GET: ${(await cpuEach(dpopGet, N)).toFixed(1)} µs CPU each`)
} else {
  for (let r = 0; r < ROUNDS; r++) {
    const p = await cpuEach(publicGet, N)
    const d = await cpuEach(dpopGet, N)
    const e = await cpuEach(verifyOnce, N)
    console.log(
      `public GET ${p.toFixed(1)} µs, DPoP GET ${d.toFixed(1)} µs, ES256 verify ${e.toFixed(1)} µs CPU each; ` +
        `DPoP GET beyond public GET + verify: ${(d - p - e).toFixed(1)} µs; in-process bound ratio ${((p + e) / d).toFixed(2)}`,
    )
  }
}
await pod.close()
