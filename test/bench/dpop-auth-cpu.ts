// `bun test/bench/dpop-auth-cpu.ts [N]`: CPU per DPoP authentication in-process (no HTTP, no load generator), the proof alone and the whole
// authenticator with its cached token; noise-free enough to compare changes on a shared machine, and to profile with `bun --cpu-prof`.
import { verifyDpopProof } from '../../src/auth/dpop.ts'
import { BASE, CookieJar, dpopProof, newDpopKey, obtainTokens, openTestPod } from '../op/op-fixture.ts'
import { benchAuthenticator } from './dpop-bench-pod.ts'

const pod = await openTestPod()
const key = await newDpopKey()
const { body } = await obtainTokens(pod, new CookieJar(), key)
const token = body.access_token as string
const authenticate = benchAuthenticator(pod)
const N = Number(process.argv[2] ?? 4000)
const url = `${BASE}/notes/1`
const proofs: string[] = []
for (let i = 0; i < N; i++) proofs.push(await dpopProof(key, 'GET', url, pod.clock.now, { accessToken: token }))
const requests = proofs.map(p => new Request(url, { headers: { authorization: `DPoP ${token}`, dpop: p } }))
async function time(label: string, f: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await f(i)
  const u0 = process.cpuUsage()
  for (let i = 200; i < N; i++) await f(i)
  const u = process.cpuUsage(u0)
  console.log(`${label}: ${((u.user + u.system) / (N - 200)).toFixed(1)} µs CPU each`)
}
await time('verifyDpopProof', i => verifyDpopProof({ header: proofs[i]!, method: 'GET', url, now: pod.clock.now, accessToken: token, status: 401 }))
await time('authenticate (DPoP)', i => authenticate(requests[i]!))
await pod.close()
