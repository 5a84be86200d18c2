// Webhooks (issue 23 "Measures"), over loopback against a real pod: deliveries per second to a local receiver,
// and none lost across a SIGKILL of the pod mid-burst (counted by notification id after a restart on the same
// data directory). Printed, never asserted. Run alone with `bun test/bench/webhooks.ts`, or call `benchWebhooks()`.

import { seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'

const CONTAINER = '/hooks/'
/** Webhook channels on the container for the throughput run; each hears every Add. */
const CHANNELS = 10
const WRITES = 1000
const WRITING = 20
/** The burst the pod is killed in the middle of. */
const BURST = 300
/** The receiver answers the burst's deliveries this slowly, so the kill comes with most of them still owed. */
const SLOW_RECEIVER_MS = 20
const DRAIN_TIMEOUT_MS = 60_000

export interface WebhooksResult {
  readonly deliveries: number
  readonly expected: number
  readonly seconds: number
  readonly burst: number
  readonly beforeKill: number
  readonly afterRestart: number
}

/** A receiver on 127.0.0.1 that counts the Add notifications it got, by path, once per notification id. */
function startReceiver(delayMs: () => number) {
  const ids = new Map<string, Set<string>>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const body = (await req.json()) as { id: string; type: string }
      const path = new URL(req.url).pathname
      const ms = delayMs()
      if (ms > 0) await Bun.sleep(ms)
      if (body.type === 'Add') {
        let set = ids.get(path)
        if (!set) ids.set(path, (set = new Set()))
        set.add(body.id)
      }
      return new Response(null, { status: 204 })
    },
  })
  return {
    base: `http://127.0.0.1:${server.port}`,
    unique: (path: string) => ids.get(path)?.size ?? 0,
    uniqueAll: () => [...ids.values()].reduce((n, s) => n + s.size, 0),
    stop: () => server.stop(true),
  }
}

/** Webhooks are for authenticated agents: the subscriptions are signed (RFC 9421) by a did:key agent (B.1.4's test key). */
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'

async function subscribeWebhook(pod: RunningPod, sendTo: string): Promise<void> {
  // At the pod's own origin: the signature covers the target URI, which the pod compares with its base URL
  const target = `${pod.baseUrl}/.notifications/WebhookChannel2023/`
  const body = JSON.stringify({
    '@context': ['https://www.w3.org/ns/solid/notification/v1'],
    type: 'WebhookChannel2023',
    topic: pod.baseUrl + CONTAINER,
    sendTo,
  })
  const headers = await signedHeaders(target, {
    key: privateKeyOf(ED25519),
    alg: 'ed25519',
    keyid: DID,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/ld+json' },
  })
  const res = await fetch(target, { method: 'POST', headers, body })
  if (res.status !== 200) throw new Error(`webhook subscription: ${res.status} ${await res.text()}`)
}

/** Creates `count` members of the container, `concurrency` at a time; resolves once every PUT is acknowledged. */
async function writeMembers(origin: string, prefix: string, count: number, concurrency: number): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const res = await fetch(`${origin}${CONTAINER}${prefix}-${i}.ttl`, {
          method: 'PUT',
          headers: { 'content-type': 'text/turtle' },
          body: `<#it> <http://example.org/n> ${i}.`,
        })
        await res.arrayBuffer()
        if (res.status !== 201) throw new Error(`PUT ${prefix}-${i}: ${res.status}`)
      }
    }),
  )
}

async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms
  while (!done() && performance.now() < deadline) await Bun.sleep(20)
}

export async function benchWebhooks(opts: { print?: boolean } = {}): Promise<WebhooksResult> {
  let slow = false
  const receiver = startReceiver(() => (slow ? SLOW_RECEIVER_MS : 0))
  const pod: RunningPod = await startPod({
    extraArgs: ['--log-level', 'warn'],
    seed: (dataDir, baseUrl) => seedPublicContainer(dataDir, baseUrl, CONTAINER, ['Read', 'Write']),
  })
  const origin = `http://127.0.0.1:${pod.port}`
  try {
    // Throughput: CHANNELS webhooks on the container, WRITES new members; from the first write to the last delivery.
    for (let c = 0; c < CHANNELS; c++) await subscribeWebhook(pod, `${receiver.base}/fast-${c}`)
    const started = performance.now()
    await writeMembers(origin, 'fast', WRITES, WRITING)
    const expected = WRITES * CHANNELS
    await waitFor(() => receiver.uniqueAll() >= expected, DRAIN_TIMEOUT_MS)
    const seconds = (performance.now() - started) / 1000
    const deliveries = receiver.uniqueAll()

    // None lost: one more webhook with a slow receiver; BURST acknowledged writes, kill -9, restart, count.
    slow = true
    await subscribeWebhook(pod, `${receiver.base}/burst`)
    await writeMembers(origin, 'burst', BURST, WRITING)
    const beforeKill = receiver.unique('/burst')
    await pod.stop('SIGKILL')
    await pod.restart()
    slow = false
    await waitFor(() => receiver.unique('/burst') >= BURST, DRAIN_TIMEOUT_MS)
    const afterRestart = receiver.unique('/burst')
    const result: WebhooksResult = { deliveries, expected, seconds, burst: BURST, beforeKill, afterRestart }
    if (opts.print !== false) for (const line of formatWebhooks(result)) console.log(line)
    return result
  } finally {
    receiver.stop()
    await pod.dispose()
  }
}

export function formatWebhooks(r: WebhooksResult): string[] {
  return [
    `webhooks: ${r.deliveries} of ${r.expected} deliveries (${WRITES} new documents × ${CHANNELS} webhooks, writes ${WRITING} at a time) in ${r.seconds.toFixed(1)} s: ` +
      `${(r.deliveries / r.seconds).toFixed(0)} deliveries/s to a local receiver, signed (RFC 9421), each after its write's access decision`,
    `webhooks: kill -9 mid-burst: ${r.burst} acknowledged writes, ${r.beforeKill} delivered before the kill, ${r.afterRestart} of ${r.burst} after the restart ` +
      `(none lost: ${r.afterRestart === r.burst ? 'met' : 'not met'}; at-least-once, counted by notification id)`,
  ]
}

if (import.meta.main) await benchWebhooks()
