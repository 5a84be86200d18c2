// Issue 33: one busy client must not make every app's DPoP requests fail. Over real HTTP, with each key's share
// of the replay memory shrunk to 20 (--dpop-proofs-per-key): A floods past its share and alone gets 429, B is served.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { FORM, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { expectRefusedAlone } from './over-share.ts'

const SHARE = 20
let pod: RunningPod
const a = { key: undefined as unknown as DpopKey, token: '' }
const b = { key: undefined as unknown as DpopKey, token: '' }

async function clientToken(key: DpopKey): Promise<string> {
  const r = await runSolopod('clients', 'add', '--name', 'Load', '--data', pod.dataDir)
  expect(r.code).toBe(0)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  const url = `${pod.baseUrl}/.oidc/token`
  const res = await fetch(url, {
    method: 'POST',
    body: 'grant_type=client_credentials',
    headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${id}:${secret}`)}`, dpop: await dpopProof(key, 'POST', url, Date.now()) },
  })
  expect(res.status).toBe(200)
  return (await res.json()).access_token as string
}

const get = (c: typeof a, proof: string) =>
  fetch(`${pod.baseUrl}/`, { headers: { accept: 'text/turtle, application/problem+json', authorization: `DPoP ${c.token}`, dpop: proof } })
const proofOf = (c: typeof a, iat: number) => dpopProof(c.key, 'GET', `${pod.baseUrl}/`, Date.now(), { accessToken: c.token, iat })

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--dpop-proofs-per-key', String(SHARE), '--log-level', 'info'] })
  for (const c of [a, b]) {
    c.key = await newDpopKey()
    c.token = await clientToken(c.key)
  }
})
afterAll(async () => {
  await pod?.dispose()
})

describe('DPoP replay memory per key, over real HTTP', () => {
  test("A past its share gets 429 too_many_requests with Retry-After, alone; B's requests all succeed; one log line", async () => {
    // every proof of A in one second of iat, so exactly SHARE + 1 fit however the requests interleave
    const iat = Math.floor(Date.now() / 1000)
    const aProofs = await Promise.all(Array.from({ length: 3 * SHARE }, () => proofOf(a, iat)))
    const bProofs = await Promise.all(Array.from({ length: SHARE - 5 }, () => proofOf(b, iat)))
    const [aRes, bRes] = await Promise.all([Promise.all(aProofs.map(p => get(a, p))), Promise.all(bProofs.map(p => get(b, p)))])
    await expectRefusedAlone(aRes, bRes, SHARE)
    // a replayed proof B's memory still holds is refused as a replay
    const replay = await get(b, bProofs[0]!)
    expect(replay.status).toBe(401)
    expect(replay.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"')
    // A's next second is accepted again
    await Bun.sleep((iat + 1) * 1000 - Date.now() + 10)
    expect((await get(a, await proofOf(a, Math.floor(Date.now() / 1000)))).status).toBe(200)
    // one warn line for A in the interval, and no per-request line for its 429s
    const lines = pod
      .stdout()
      .split('\n')
      .filter(l => l.startsWith('{'))
      .map(l => JSON.parse(l) as Record<string, unknown>)
    const over = lines.filter(l => l.event === 'dpop.key_over_share')
    expect(over.map(l => [l.level, l.jkt])).toEqual([['warn', a.key.jkt]])
    expect(lines.filter(l => l.event === 'request.refused' && l.status === 429)).toEqual([])
    expect(lines.filter(l => l.event === 'request.refused' && l.status === 401).length).toBe(1)
  })
})
