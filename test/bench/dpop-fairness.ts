// Issue 33, a bounded load (not part of `npm run bench`): client A sends DPoP GETs as fast as c50 allows while
// client B sends one every 50 ms; prints each one's statuses. Run: bun test/bench/dpop-fairness.ts [SECONDS] [PROOFS_PER_KEY]

import { FORM, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { runSolopod, startPod } from '../e2e/start-server.ts'
import { presign } from './presigned.ts'

const seconds = Number(process.argv[2] ?? 10)
const perKey = process.argv[3]
const pod = await startPod({ extraArgs: perKey ? ['--dpop-proofs-per-key', perKey] : [] })
try {
  const url = `${pod.baseUrl}/`
  const client = async () => {
    const key: DpopKey = await newDpopKey()
    const r = await runSolopod('clients', 'add', '--name', 'Load', '--data', pod.dataDir)
    const [id, secret] = r.stdout
      .trim()
      .split('\n')
      .map(l => l.slice(l.indexOf('=') + 1))
    const res = await fetch(`${pod.baseUrl}/.oidc/token`, {
      method: 'POST',
      body: 'grant_type=client_credentials',
      headers: {
        'content-type': FORM,
        authorization: `Basic ${btoa(`${id}:${secret}`)}`,
        dpop: await dpopProof(key, 'POST', `${pod.baseUrl}/.oidc/token`, Date.now()),
      },
    })
    const token = (await res.json()).access_token as string
    return { key, token, sign: () => dpopProof(key, 'GET', url, Date.now(), { accessToken: token }) }
  }
  const [a, b] = [await client(), await client()]
  const proofA = await presign(a.sign, Math.min(seconds * 6000, 60_000))
  const count = (m: Map<number, number>, s: number) => m.set(s, (m.get(s) ?? 0) + 1)
  const statusA = new Map<number, number>(),
    statusB = new Map<number, number>()
  const get = async (c: typeof a, proof: string) =>
    await fetch(url, { headers: { accept: 'text/turtle', authorization: `DPoP ${c.token}`, dpop: proof } }).then(async r => {
      await r.arrayBuffer()
      return r.status
    })
  const end = Date.now() + seconds * 1000
  const started = Date.now()
  await Promise.all([
    ...Array.from({ length: 50 }, async () => {
      while (Date.now() < end) count(statusA, await get(a, await proofA()))
    }),
    (async () => {
      while (Date.now() < end) {
        count(statusB, await get(b, await b.sign()))
        await Bun.sleep(50)
      }
    })(),
  ])
  const took = (Date.now() - started) / 1000
  const total = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0)
  console.log(
    JSON.stringify({
      seconds: took,
      perKey: perKey ?? 'default',
      a: { requestsPerSecond: Math.round(total(statusA) / took), statuses: Object.fromEntries(statusA) },
      b: { statuses: Object.fromEntries(statusB) },
    }),
  )
  const lines = pod
    .stdout()
    .split('\n')
    .filter(l => l.includes('dpop.key_over_share') || l.includes('"status":429'))
  console.log(
    `over-share log lines: ${lines.filter(l => l.includes('dpop.key_over_share')).length}, per-request 429 lines: ${lines.filter(l => l.includes('"status":429')).length}`,
  )
} finally {
  await pod.dispose()
}
