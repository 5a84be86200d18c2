// What a stranger can make the pod fetch, parse and remember through remote documents (keyid URLs), over
// real HTTP against a real pod and a host the attacker runs on loopback.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { requestMemoryReport } from '../../src/server/control-socket.ts'
import { startPod, type RunningPod } from './start-server.ts'

const MB = 1024 * 1024
const bigTurtle = `@prefix ex: <https://example.org/>.\n${'<#s> ex:p "' + 'x'.repeat(1000) + '".\n'}`.repeat(1000).slice(0, MB)

let pod: RunningPod
let attacker: ReturnType<typeof Bun.serve>
let attackerOrigin = ''
const served: string[] = []

beforeAll(async () => {
  attacker = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname
      served.push(path)
      if (path.startsWith('/big/')) return new Response(bigTurtle, { headers: { 'content-type': 'text/turtle', 'cache-control': 'max-age=600' } })
      if (path.startsWith('/stream/')) {
        const chunk = new TextEncoder().encode(bigTurtle.slice(0, 16 * 1024))
        let sent = 0
        return new Response(
          new ReadableStream({
            pull: c => {
              if (sent++ < 64) c.enqueue(chunk)
              else c.close()
            },
          }),
          { headers: { 'content-type': 'text/turtle', 'cache-control': 'max-age=600' } },
        )
      }
      if (path === '/401') return new Response('no', { status: 401 })
      if (path === '/html') return new Response('<html></html>', { headers: { 'content-type': 'text/html' } })
      return new Response('not found', { status: 404 })
    },
  })
  attackerOrigin = `http://localhost:${attacker.port}`
  pod = await startPod({ extraArgs: ['--log-level', 'warn'] })
}, 30_000)

afterAll(async () => {
  attacker?.stop(true)
  await pod?.dispose()
})

let nonce = 0
/** An anonymous request with a well-formed HttpSig signature that cannot verify, naming `keyid`. */
function probe(keyid: string, path = '/profile/card'): Promise<Response> {
  const created = Math.floor(Date.now() / 1000)
  return fetch(pod.baseUrl + path, {
    headers: {
      authorization: 'HttpSig proof=sig1',
      'signature-input': `sig1=("@method" "@target-uri" "authorization");created=${created};nonce="n-${nonce++}";keyid="${keyid}"`,
      signature: `sig1=:${Buffer.alloc(64, 7).toString('base64')}:`,
    },
  })
}

describe('remote key documents named by anonymous requests', () => {
  test('an oracle is closed: a closed port, a 401, a 404, another type and a document too large are one answer', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const closedPort = closed.port
    closed.stop(true)
    const targets = [
      `http://localhost:${closedPort}/k`,
      `${attackerOrigin}/401`,
      `${attackerOrigin}/missing`,
      `${attackerOrigin}/html`,
      `${attackerOrigin}/big/oracle`,
    ]
    const answers: string[] = []
    for (const t of targets) {
      const res = await probe(`${t}#key`)
      expect(res.status).toBe(401)
      answers.push((await res.text()).replaceAll(t, 'URL'))
    }
    expect(answers).toEqual(answers.map(() => answers[0]!))
    expect(answers[0]).toContain('could not be fetched as a usable document')
    for (const leak of ['connect', '401', '404', 'text/html', 'larger', 'answered', 'timeout']) expect(answers[0]).not.toContain(leak)
  })

  test('150 requests naming 150 different 1 MB documents: at most 30 are fetched per minute, none is read past its cap, and the heap does not grow', async () => {
    const before = (await requestMemoryReport(pod.dataDir, { gc: true }))!
    served.length = 0
    const statuses: number[] = []
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => probe(`${attackerOrigin}/${i % 2 ? 'stream' : 'big'}/${batch}-${i}.ttl#key`)))
      for (const a of answers) {
        statuses.push(a.status)
        await a.arrayBuffer()
      }
    }
    expect(statuses.every(s => s === 401 || s === 429 || s === 503)).toBe(true)
    const refused = statuses.filter(s => s === 429)
    expect(refused.length).toBeGreaterThanOrEqual(150 - 30)
    expect(served.length).toBeLessThanOrEqual(30)
    const after = (await requestMemoryReport(pod.dataDir, { gc: true }))!
    // before: 3,272 MB RSS after these 150 requests (each 1 MB document and its triples kept for 10 minutes)
    expect(after.heapMb - before.heapMb).toBeLessThan(16)
    // the budget's refusal says when to come back
    const res = await probe(`${attackerOrigin}/big/again.ttl#key`)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.text()).toStartWith('remote_fetch_limit: ')
  })

  test('the pod still answers everyone else', async () => {
    expect((await fetch(`${pod.baseUrl}/profile/card`)).status).toBe(200)
  })
})
