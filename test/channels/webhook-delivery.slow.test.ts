// The webhook worker's time rules and bounds, in-process with the pod's clock in the test's hand: a notification
// is given up after 24 h, a receiver failing for 3 days loses its channel, an outbox holds at most 1,000.

import { afterEach, describe, expect, test } from 'bun:test'
import { openTempPod } from '../temp-pod.ts'
import type { Pod } from '../../src/pod.ts'
import type { WebId } from '../../src/account/ids.ts'
import { writeResource } from '../../src/store/resources.ts'
import { parseRdf } from '../../src/rdf/parse-rdf.ts'
import { DROP_AFTER_MS, GIVE_UP_MS, MAX_OUTBOX } from '../../src/channels/webhook-delivery.ts'

const BASE = 'http://localhost:4711'
const OWNER = `${BASE}/profile/card#me` as WebId

let pod: Pod | undefined
afterEach(async () => {
  await pod?.close()
  pod = undefined
})

/** A pod whose receiver (every POST, wherever) answers `status()`, on a public address, at the test's time. */
async function podWithReceiver(status: () => number) {
  let clock = Date.now()
  const posts: string[] = []
  pod = await openTempPod('webhooks', BASE, [], {
    now: () => clock,
    fetcher: {
      lookup: async () => ['93.184.216.34'],
      fetchImpl: (async (_url: string, init: RequestInit) => {
        posts.push(String(init.body))
        return new Response(null, { status: status() })
      }) as unknown as typeof fetch,
    },
  })
  const sub = await pod.deps.webhooks.subscribe({
    topic: '/t.ttl',
    principal: { webid: OWNER, keys: [], scheme: 'DPoP' },
    features: { accept: 'application/ld+json' },
    sendTo: 'https://hooks.example/in',
  })
  let n = 0
  const write = async () => {
    const triples = await parseRdf(`<#a> <http://example.org/n> ${++n}.`, 'text/turtle', BASE + '/t.ttl')
    await writeResource(pod!.store, BASE, '/t.ttl', { kind: 'rdf', contentType: 'text/turtle', triples, size: 40 }, clock)
  }
  return {
    sub,
    posts,
    write,
    advance: (ms: number) => {
      clock += ms
    },
  }
}

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await Bun.sleep(10)
  }
  throw new Error(`never: ${what}`)
}

describe('retry time rules', () => {
  test(`a notification not delivered within ${GIVE_UP_MS / 3600_000} h is given up and counted as lost`, async () => {
    const r = await podWithReceiver(() => 500)
    await r.write()
    await until(() => r.posts.length === 1, 'the first attempt')
    const [trouble] = await pod!.deps.webhooks.troubles()
    expect(trouble).toMatchObject({ id: r.sub.id, state: 'failing', reason: 'answered 500', lost: 0 })
    r.advance(GIVE_UP_MS + 1000)
    await r.write() // wakes the worker: the first entry has expired, the second is tried
    await until(async () => (await pod!.deps.webhooks.troubles())[0]?.lost === 1, 'the first notification counted as lost')
    await until(() => r.posts.length === 2, 'the second notification tried')
    expect(JSON.parse(r.posts[1]!).type).toBe('Update')
  })

  test('a receiver with no success for 3 days loses its channel, and the owner sees it dropped', async () => {
    const r = await podWithReceiver(() => 503)
    await r.write()
    await until(() => r.posts.length === 1, 'the first attempt')
    r.advance(DROP_AFTER_MS)
    await r.write()
    await until(() => pod!.deps.channels.get(r.sub.id) === undefined, 'the channel dropped')
    expect(await pod!.deps.webhooks.troubles()).toEqual([expect.objectContaining({ id: r.sub.id, state: 'dropped', reason: 'answered 503' })])
  })

  test('success after failures clears the trouble', async () => {
    let status = 500
    const r = await podWithReceiver(() => status)
    await r.write()
    await until(async () => (await pod!.deps.webhooks.troubles()).length === 1, 'failing listed')
    status = 200
    r.advance(1000) // the first retry is due 1 s after the failure; the worker's timer finds it due
    await until(() => r.posts.length >= 2, 'the retry')
    await until(async () => (await pod!.deps.webhooks.troubles()).length === 0, 'the trouble cleared')
  })
})

describe('bounds', () => {
  test(`past ${MAX_OUTBOX} waiting notifications the oldest are dropped and counted as lost`, async () => {
    const r = await podWithReceiver(() => 500)
    for (let i = 0; i < MAX_OUTBOX + 5; i++) await r.write()
    await until(async () => ((await pod!.deps.webhooks.troubles())[0]?.lost ?? 0) >= 5, 'five lost')
    expect((await pod!.deps.webhooks.troubles())[0]!.lost).toBe(5)
  }, 30_000)
})
