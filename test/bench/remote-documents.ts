// Remote documents under attack (the audit's "anonymous event-loop stall"): while 20 anonymous requests
// are in flight, each naming a fresh JSON-LD key document on a host the attacker runs, how long does a
// public GET wait? The attack requests come from 1,000 client addresses (X-Forwarded-For through a
// trusted proxy), so the per-client fetch budget does not stop them: what is measured is the cost of the
// fetches and parses the pod then does. Run alone with `bun test/bench/remote-documents.ts`.

import { startPod } from '../e2e/start-server.ts'

/** The audit's bar: a public GET stays under this while the attack runs. */
export const AIM_P99_MS = 50
const ATTACKERS = 20

/** A JSON-LD document of `nodes` × ~100 bytes, many nodes: jsonld.js's slow path. */
function jsonLdDocument(count: number): string {
  const nodes = Array.from({ length: count }, (_, i) => ({ '@id': `#n${i}`, 'ex:label': `node ${i} ${'x'.repeat(40)}` }))
  return JSON.stringify({ '@context': { ex: 'https://example.org/' }, '@id': '#doc', 'ex:has': nodes })
}

export interface RemoteDocumentsResult {
  readonly requests: number
  readonly attacks: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
}

/**
 * The audit's documents were 0.9 MB (refused at the key-document cap now); 60 KB is the most the cap lets
 * through, so each of those is fetched and parsed (on the remote worker).
 */
export const DOCUMENT_SIZES = [
  { label: '0.9 MB', nodes: 9000 },
  { label: '60 KB', nodes: 600 },
] as const

export async function benchRemoteDocuments(opts: { durationMs?: number; print?: boolean } = {}): Promise<RemoteDocumentsResult[]> {
  const results: RemoteDocumentsResult[] = []
  for (const size of DOCUMENT_SIZES) results.push(await underAttack(size, opts.durationMs ?? 5000, opts.print !== false))
  return results
}

async function underAttack(size: (typeof DOCUMENT_SIZES)[number], durationMs: number, print: boolean): Promise<RemoteDocumentsResult> {
  let served = 0
  // made once: each URL is new to the pod, and the attacker (in this process) must not slow the measuring client
  const body = jsonLdDocument(size.nodes)
  const attacker = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => {
      served++
      return new Response(body, { headers: { 'content-type': 'application/ld+json', 'cache-control': 'max-age=600' } })
    },
  })
  const pod = await startPod({ extraArgs: ['--log-level', 'error', '--trust-proxy', '127.0.0.1'] })
  let stop = false
  let attacks = 0
  let nonce = 0
  const attack = async (loop: number) => {
    while (!stop) {
      const created = Math.floor(Date.now() / 1000)
      const res = await fetch(`${pod.baseUrl}/profile/card`, {
        headers: {
          'x-forwarded-for': `10.${loop}.${(nonce >> 8) & 255}.${nonce & 255}`,
          authorization: 'HttpSig proof=sig1',
          'signature-input': `sig1=("@method" "@target-uri" "authorization");created=${created};nonce="n${nonce}";keyid="http://localhost:${attacker.port}/k/${nonce++}#key"`,
          signature: `sig1=:${Buffer.alloc(64, 1).toString('base64')}:`,
        },
      })
      await res.arrayBuffer()
      attacks++
    }
  }
  try {
    const loops = Array.from({ length: ATTACKERS }, (_, i) => attack(i))
    await Bun.sleep(500) // the attack is under way before the clock starts
    const latencies: number[] = []
    const end = performance.now() + durationMs
    while (performance.now() < end) {
      const t0 = performance.now()
      const res = await fetch(`${pod.baseUrl}/profile/card`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`public GET answered ${res.status}`)
      latencies.push(performance.now() - t0)
      await Bun.sleep(10)
    }
    stop = true
    await Promise.all(loops)
    latencies.sort((a, b) => a - b)
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!
    const result = { requests: latencies.length, attacks, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies.at(-1)! }
    if (print) {
      console.log(
        `public GET while ${ATTACKERS} anonymous requests naming fresh ${size.label} JSON-LD key documents are in flight (${attacks} of them, ${served} documents fetched): ` +
          `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms (aim p99 < ${AIM_P99_MS} ms: ${result.p99Ms < AIM_P99_MS ? 'met' : 'not met'})`,
      )
    }
    return result
  } finally {
    stop = true
    attacker.stop(true)
    await pod.dispose()
  }
}

if (import.meta.main) await benchRemoteDocuments()
