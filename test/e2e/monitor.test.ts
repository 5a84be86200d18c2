// The health path and the metrics scraped over HTTP, as an uptime checker and a Prometheus on the pod's
// machine would: a real server on loopback.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
let origin: string
beforeAll(async () => {
  pod = await startPod()
  origin = `http://127.0.0.1:${pod.port}`
})
afterAll(() => pod.dispose())

test('GET /.well-known/solopod/health is 200 {"status":"ok"}, never cached', async () => {
  const res = await fetch(`${origin}/.well-known/solopod/health`)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(await res.text()).toBe('{"status":"ok"}')
})

test('a scrape from loopback: requests by route group and status, latency, memory, store, caches, replay memories', async () => {
  await fetch(`${origin}/profile/card`)
  await fetch(`${origin}/no-such-thing`) // the root is private: 401 to anyone anonymous
  const res = await fetch(`${origin}/.well-known/solopod/metrics`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  const text = await res.text()
  // every sample line is `name{labels} value` under its # TYPE
  for (const line of text.split('\n').filter(l => l !== '' && !l.startsWith('#'))) {
    expect(line).toMatch(/^solopod_[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[\d.e+-]+$/)
  }
  expect(text).toMatch(/^solopod_http_requests_total\{group="resources",status="200"\} [1-9]/m)
  expect(text).toMatch(/^solopod_http_requests_total\{group="resources",status="401"\} 1$/m)
  expect(text).toMatch(/^solopod_http_request_duration_seconds_bucket\{group="resources",le="\+Inf"\} [1-9]/m)
  for (const name of [
    'solopod_process_resident_memory_bytes',
    'solopod_js_heap_bytes{kind="used"}',
    'solopod_store_bytes',
    'solopod_disk_free_bytes',
    'solopod_store_commit_batches_total',
    'solopod_cache_entries{cache="resource_metadata"}',
    'solopod_login_failures_total',
    'solopod_replay_memory_entries{memory="dpop_jti"}',
    // the replay memories' bounds are the default budget's bytes (lib/replay-limits.ts): 3 MiB, 2 MiB, 1 MiB
    'solopod_replay_memory_capacity{memory="dpop_jti"} 23603',
    'solopod_replay_memory_capacity{memory="token_endpoint_jti"} 15729',
    'solopod_replay_memory_capacity{memory="spent_uma_tickets"} 10485',
  ]) {
    expect(text).toContain(`\n${name}`)
  }
  // no certificate on plain http: the gauge has no sample
  expect(text).not.toMatch(/^solopod_certificate_expiry_seconds/m)
})

test('the replay memories hold what the memory budget gives them: half as much at --memory-budget 96MB', async () => {
  const small = await startPod({ extraArgs: ['--memory-budget', '96MB'] })
  try {
    const text = await (await fetch(`http://127.0.0.1:${small.port}/.well-known/solopod/metrics`)).text()
    expect(text.split('\n').filter(l => l.startsWith('solopod_replay_memory_capacity'))).toEqual([
      'solopod_replay_memory_capacity{memory="dpop_jti"} 11801',
      'solopod_replay_memory_capacity{memory="token_endpoint_jti"} 7873',
      'solopod_replay_memory_capacity{memory="spent_uma_tickets"} 5242',
    ])
  } finally {
    await small.dispose()
  }
})

test('through a proxy that is not trusted (a forwarding header from loopback) → 401 unauthenticated', async () => {
  const res = await fetch(`${origin}/.well-known/solopod/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } })
  expect(res.status).toBe(401)
  expect(await res.text()).toStartWith('unauthenticated:')
})
