// `bun test/bench/dpop-get-cpu.ts [N] [ROUNDS]`: CPU per GET through the pod's request handler in-process (no HTTP, no load
// generator): a public GET, a DPoP GET of an owner-only document and one ES256 verification, in alternating rounds, so the
// DPoP GET's cost beyond "public GET + one verification" (the bench's signature-check bound) is measured on one machine at one
// load. `bun --cpu-prof` on it profiles the DPoP request alone (set ROUNDS to 0 for the public part off).
import { BASE, dpopProof } from '../op/op-fixture.ts'
import { es256Verifier, OWNER_DOC, openDpopBenchPod, PER_SECOND, PUBLIC_DOC } from './dpop-bench-pod.ts'

const N = Number(process.argv[2] ?? 4000)
const ROUNDS = Number(process.argv[3] ?? 3)
const { pod, key, token } = await openDpopBenchPod()
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
const verify = es256Verifier()
const verifyOnce = async () => verify()

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
