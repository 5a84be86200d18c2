// Issue 39 without an engine: the S3 flags as the config reads them, and a pod whose bucket does not answer at all
// (nothing listens at the endpoint) starts, keeps RDF working and answers files with 503 blob_store_unavailable;
// its health endpoint and the owner's Pod status page say that the blob store is what is wrong.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildConfig, ConfigError } from '../../src/config.ts'
import { openBlobStore } from '../../src/store/open-blob-store.ts'
import { UserError } from '../../src/lib/user-error.ts'
import { freePort, startPod, type RunningPod } from '../e2e/start-server.ts'
import { ownerSignedIn } from '../e2e/owner-login.ts'
import { seedPublicContainer } from '../e2e/seed-store.ts'

describe('the S3 flags', () => {
  const config = (...args: string[]) => buildConfig(['--data', '/tmp/x', ...args], {})
  test('s3://BUCKET/prefix with an endpoint; region and timeout defaulted; local without them', () => {
    expect(config('--blob-store', 's3://pod-files/alice/', '--s3-endpoint', 'http://127.0.0.1:7480/').s3).toEqual({
      bucket: 'pod-files',
      prefix: 'alice/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'us-east-1',
      timeoutMs: 15_000,
      sweepGraceMs: 3_600_000,
    })
    expect(config('--blob-store', 's3://pod-files', '--s3-endpoint', 'https://r2.example', '--s3-region', 'auto').s3?.prefix).toBe('')
    expect(config().s3).toBeUndefined()
    expect(config('--blob-store', 'local').s3).toBeUndefined()
  })
  test('refused: no endpoint, a bad bucket, an S3 flag without s3://', () => {
    expect(() => config('--blob-store', 's3://pod-files')).toThrow(ConfigError)
    expect(() => config('--blob-store', 's3://Bad_Bucket', '--s3-endpoint', 'http://x')).toThrow('--blob-store must be local or s3://BUCKET[/prefix]')
    expect(() => config('--s3-endpoint', 'http://x')).toThrow('--s3-endpoint needs --blob-store s3://BUCKET')
    expect(() => config('--blob-store', 's3://pod-files', '--s3-endpoint', 'ftp://x')).toThrow('--s3-endpoint must be an http(s) URL')
  })
  test('the keys come from the environment only: without them the store does not open', async () => {
    const s3 = config('--blob-store', 's3://pod-files', '--s3-endpoint', 'http://127.0.0.1:1').s3!
    await expect(openBlobStore('/tmp/x', s3, {})).rejects.toThrow(UserError)
    await expect(openBlobStore('/tmp/x', s3, {})).rejects.toThrow("needs the bucket's keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
  })
})

let pod: RunningPod
let endpoint: string
beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID = 'AKIANOBODYLISTENS000'
  process.env.AWS_SECRET_ACCESS_KEY = 'nobody-listens-secret'
  endpoint = `http://127.0.0.1:${await freePort()}`
  pod = await startPod({
    seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']),
    extraArgs: ['--blob-store', 's3://nowhere/pod', '--s3-endpoint', endpoint, '--s3-timeout-seconds', '2'],
  })
}, 60_000)
afterAll(async () => {
  await pod?.dispose()
  delete process.env.AWS_ACCESS_KEY_ID
  delete process.env.AWS_SECRET_ACCESS_KEY
})

describe('a bucket that does not answer', () => {
  test('the pod starts; a file PUT is 503 blob_store_unavailable with Retry-After and names nothing; RDF is written', async () => {
    const res = await fetch(`${pod.baseUrl}/files/a.bin`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(1000),
    })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('30')
    expect(await res.text()).toStartWith('blob_store_unavailable:')
    expect((await fetch(`${pod.baseUrl}/files/a.bin`)).status).toBe(404)
    const rdf = await fetch(`${pod.baseUrl}/files/n.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<#a> <#b> "c".' })
    expect(rdf.status).toBe(201)
    expect((await fetch(`${pod.baseUrl}/files/n.ttl`)).status).toBe(200)
    expect(pod.stdout()).not.toContain('nobody-listens-secret')
  })

  test('a resumable upload keeps its bytes on the local disk; completing it while the bucket is down is 503, and its bytes stay there', async () => {
    const created = await fetch(`${pod.baseUrl}/files/r.bin`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        'upload-draft-interop-version': '8',
        'upload-complete': '?0',
        'upload-length': '10',
      },
    })
    expect(created.status).toBe(201)
    const upload = new URL(created.headers.get('location')!, pod.baseUrl).href
    const res = await fetch(upload, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/partial-upload',
        'upload-draft-interop-version': '8',
        'upload-offset': '0',
        'upload-complete': '?1',
      },
      body: new Uint8Array(10),
    })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('30')
    expect(await res.text()).toStartWith('blob_store_unavailable:')
    expect((await fetch(`${pod.baseUrl}/files/r.bin`)).status).toBe(404)
    expect(readdirSync(join(pod.dataDir, 'uploads'))).toContain(upload.split('/').at(-1)!)
  })
})

describe('the blob store down, as the pod reports it', () => {
  test('health: 503 {"status":"blob_store_unavailable"}, within the probe\'s bound, nothing more said', async () => {
    const started = Date.now()
    const res = await fetch(`${pod.baseUrl}/.well-known/solopod/health`)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('{"status":"blob_store_unavailable"}')
    expect(Date.now() - started).toBeLessThan(4000)
  })

  test('Pod status: a warning sentence naming the bucket and why, never a key', async () => {
    const owner = await ownerSignedIn(pod)
    const url = (path: string) => pod.baseUrl + path
    const api = await fetch(url('/.admin/api/status'), { headers: { cookie: owner.header() } })
    expect(api.status).toBe(200)
    const status = (await api.json()) as { blobStore?: { location: string; problem?: string } }
    expect(status.blobStore).toEqual({
      location: `s3://nowhere/pod/ at ${endpoint}`,
      problem: `the object store s3://nowhere/pod/ at ${endpoint} is unavailable (ConnectionRefused)`,
    })
    const page = await (await fetch(url('/.admin/status'), { headers: { cookie: owner.header() } })).text()
    expect(page).toContain(
      `<dd class="warning">the object store s3://nowhere/pod/ at ${endpoint} is unavailable (ConnectionRefused): files cannot be read or written now (they answer 503 and nothing is lost); RDF documents work. The pod asks again at every request.</dd>`,
    )
    for (const text of [page, JSON.stringify(status), pod.stdout()]) {
      expect(text).not.toContain('nobody-listens-secret')
      expect(text).not.toContain('AKIANOBODYLISTENS000')
    }
  })
})
