// `bun test/bench/dpop-get-threads.ts [N] [ROUNDS] [TEXT]`: in-process GETs through the pod's request handler (a public GET,
// a DPoP GET of the owner-only and of the public document, the pod's authenticator alone), N each in ROUNDS interleaved
// rounds, with the CPU of each of this process's threads per request (JS thread, JSC's JIT workers and collector, Bun's
// own): the work beside the JS thread that a per-part loop does not show (docs/performance.md, fifth pass). TEXT keeps
// the variants whose name contains it; PER_ROUND=1 prints every round. `BUN_JSC_logGC=1` prints each collection.
import { readdirSync, readFileSync } from 'node:fs'
import { BASE, dpopProof } from '../op/op-fixture.ts'
import { OWNER_DOC, openDpopBenchPod, PER_SECOND, PUBLIC_DOC } from './dpop-bench-pod.ts'

const N = Number(process.argv[2] ?? 1500)
const ROUNDS = Number(process.argv[3] ?? 5)
const only = process.argv[4]
const { pod, key, token } = await openDpopBenchPod()
const T0 = pod.clock.now
const WARM = 100

/** A proof per request (each is used once), the pod's clock following their iat. */
async function proofsFor(path: string) {
  const proofs: string[] = []
  for (let i = 0; i < N * ROUNDS + WARM; i++)
    proofs.push(await dpopProof(key, 'GET', BASE + path, T0 + Math.floor(i / PER_SECOND) * 1000, { accessToken: token }))
  let next = 0
  return () => {
    pod.clock.now = T0 + Math.floor(next / PER_SECOND) * 1000
    return new Request(BASE + path, { headers: { accept: 'text/turtle', authorization: `DPoP ${token}`, dpop: proofs[next++]! } })
  }
}
const get = async (request: Request) => {
  const res = await pod.handle(request)
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`${res.status} ${res.headers.get('www-authenticate')}`)
}
/** Each variant, made only when chosen (its proofs are signed ahead). */
const makers: [string, () => Promise<() => Promise<unknown>>][] = [
  ['public GET', async () => () => get(new Request(BASE + PUBLIC_DOC, { headers: { accept: 'text/turtle' } }))],
  ['DPoP GET, owner-only document', async () => requests(await proofsFor(OWNER_DOC), get)],
  ['DPoP GET, public document', async () => requests(await proofsFor(PUBLIC_DOC), get)],
  ["the pod's authenticator alone (its Request made inline)", async () => requests(await proofsFor(OWNER_DOC), pod.deps.authenticate)],
]
function requests(next: () => Request, f: (r: Request) => Promise<unknown>) {
  return () => f(next())
}
const variants: [string, () => Promise<unknown>][] = []
for (const [name, make] of makers) if (!only || name.includes(only)) variants.push([name, await make()])

/** CPU ns of each live thread of this process, by "TID name". */
function threads(): Map<string, number> {
  const m = new Map<string, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
      m.set(`${tid} ${name}`, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]))
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return m
}

const least = variants.map(() => Number.POSITIVE_INFINITY)
const byThread = variants.map(() => new Map<string, number>())
for (const [, f] of variants) for (let i = 0; i < WARM; i++) await f()
for (let r = 0; r < ROUNDS; r++) {
  for (let v = 0; v < variants.length; v++) {
    const [name, f] = variants[v]!
    const t0 = threads()
    const u0 = process.cpuUsage()
    for (let i = 0; i < N; i++) await f()
    const u = process.cpuUsage(u0)
    const round = new Map<string, number>()
    for (const [k, ns] of threads()) {
      const thread = k.slice(k.indexOf(' ') + 1)
      round.set(thread, (round.get(thread) ?? 0) + (ns - (t0.get(k) ?? 0)) / 1e3 / N)
    }
    for (const [thread, us] of round) byThread[v]!.set(thread, (byThread[v]!.get(thread) ?? 0) + us / ROUNDS)
    least[v] = Math.min(least[v]!, (u.user + u.system) / N)
    if (process.env.PER_ROUND) console.log(`round ${r} ${name}: ${[...round].map(([t, us]) => `${t} ${us.toFixed(1)}`).join(', ')} µs`)
  }
}
for (let v = 0; v < variants.length; v++) {
  const threadsUs = [...byThread[v]!].filter(([, us]) => us >= 0.5).map(([t, us]) => `${t} ${us.toFixed(1)}`)
  console.log(`${least[v]!.toFixed(1).padStart(7)} µs  ${variants[v]![0]} (least of ${ROUNDS}); mean µs by thread: ${threadsUs.join(', ')}`)
}
await pod.close()
