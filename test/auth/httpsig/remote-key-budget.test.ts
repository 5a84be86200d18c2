// A signed request whose keyid is a remote URL makes the pod fetch that document before it knows who asks: the
// fetch budget (fetch/fetch-budget.ts) rations those fetches per client address and in all, and its refusals
// reach the client as they are, with Retry-After, not as a bad signature.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTempPod } from '../../temp-pod.ts'
import type { Pod } from '../../../src/pod.ts'
import { FetchBudget } from '../../../src/fetch/fetch-budget.ts'
import { makeKey } from './key-fixture.ts'
import { signedHeaders } from './sign-request.ts'

const BASE = 'http://localhost:4614'
const KEYS = 'https://keys.example'
const key = makeKey('ecdsa-p256-sha256')
let pod: Pod
// A fetch of /held/… says it began, then waits until the test lets it go, so it stays in flight
const began = Promise.withResolvers<void>()
const held = Promise.withResolvers<void>()
const letGo = () => held.resolve()

beforeAll(async () => {
  const fetchImpl = (async (target: URL | string) => {
    if (new URL(String(target)).pathname.startsWith('/held/')) {
      began.resolve()
      await held.promise
    }
    return new Response('not found', { status: 404 })
  }) as typeof fetch
  const budget = new FetchBudget({ perClientPerWindow: 2, perClientConcurrent: 4, totalConcurrent: 1, windowMs: 60_000 })
  pod = await openTempPod('fetch-budget', BASE, [], { fetcher: { fetchImpl, lookup: async () => ['93.184.216.34'], budget } })
})
afterAll(async () => {
  letGo()
  await pod.close()
})

/** GET / signed with a key the pod must fetch from `keyPath`, from the client at `address`. */
async function signedFrom(address: string, keyPath: string): Promise<Response> {
  const headers = await signedHeaders(`${BASE}/`, { key: key.privateKey, alg: 'ecdsa-p256-sha256', keyid: `${KEYS}${keyPath}#key` })
  return pod.handle(new Request(`${BASE}/`, { headers }), { requestIP: () => ({ address }) })
}

describe('the remote fetches a client may cause', () => {
  test('while the pod fetches as many documents as it allows at once, another client → 503 remote_fetch_busy, Retry-After: 1', async () => {
    const first = signedFrom('198.51.100.1', '/held/1')
    await began.promise // its fetch holds the one slot
    const res = await signedFrom('198.51.100.2', '/k/2')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.text()).toStartWith('remote_fetch_busy: ')
    letGo()
    expect((await first).status).toBe(401) // its key document was not found: a bad signature, told as one
  })

  test('past its share within the window → 429 remote_fetch_limit with the seconds to wait', async () => {
    for (const path of ['/k/3', '/k/4']) expect((await signedFrom('198.51.100.3', path)).status).toBe(401)
    const res = await signedFrom('198.51.100.3', '/k/5')
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.text()).toStartWith('remote_fetch_limit: ')
    // another client still has its own share
    expect((await signedFrom('198.51.100.4', '/k/6')).status).toBe(401)
  })
})
