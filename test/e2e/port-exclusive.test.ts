// A pod never shares its port: a second pod (another data directory, same port) and a program that
// listens there with SO_REUSEPORT are refused at start, exit 2 with what to do, and the first pod keeps
// answering every request. (The --domain https listener, which swaps with SO_REUSEPORT: acme.test.ts.)

import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, spawnSolopod, startPod, type RunningPod } from './start-server.ts'

const dir = mkdtempSync(join(tmpdir(), 'solopod-port-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The ETags of `count` GETs of the profile, each on a connection of its own (the kernel spreads connections, not requests). */
export async function profileTags(origin: string, count: number, init: RequestInit = {}): Promise<string[]> {
  const tags: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${origin}/profile/card`, { ...init, keepalive: false, headers: { connection: 'close' } })
    expect(res.status).toBe(200)
    tags.push(res.headers.get('etag') ?? '')
    await res.arrayBuffer()
  }
  return tags
}

/**
 * Starts `solopod …` and gives it `ms` to end: its exit code then (null: still running, and `stop` ends it)
 * and what it printed on stderr.
 */
export async function startSolopodBriefly(ms: number, ...args: string[]) {
  const proc = spawnSolopod(...args)
  const stderr = new Response(proc.stderr).text()
  const code = await Promise.race([proc.exited, Bun.sleep(ms).then(() => null)])
  return { code, stderr: code === null ? '' : await stderr, stop: async () => { proc.kill(); await proc.exited } }
}

/** A program that is not a pod, listening on `port` with SO_REUSEPORT; resolves once it listens. */
export async function foreignListener(port: number): Promise<{ stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, '-e',
    `Bun.serve({ hostname: '127.0.0.1', port: ${port}, reusePort: true, fetch: () => new Response('foreign') }); console.log('listening')`],
  { stdout: 'pipe', stderr: 'inherit' })
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  let said = ''
  while (!said.includes('listening')) {
    const chunk = await reader.read()
    if (chunk.done) throw new Error(`the foreign listener exited: ${said}`)
    said += new TextDecoder().decode(chunk.value)
  }
  return { stop: async () => { proc.kill(); await proc.exited } }
}

const refusal = (port: number) => `solopod: cannot listen on 127.0.0.1:${port} (--port): another process listens there; stop it, or give this pod another port with --port`

describe('a second pod on the same port', () => {
  let first: RunningPod
  afterAll(async () => { await first?.dispose() })

  test('exits 2 at once naming the port and what to do, creates no data directory, and the first pod answers every request', async () => {
    first = await startPod()
    const [own] = await profileTags(first.baseUrl, 1)
    const second = join(dir, 'second-data')
    const started = performance.now()
    const run = await startSolopodBriefly(10_000, 'serve', '--data', second, '--port', String(first.port))
    // asked while the second would be serving, were it not refused: every connection reaches the first
    // pod, none lands on an empty one
    const tags = await profileTags(first.baseUrl, 40)
    await run.stop()
    expect(tags.filter(t => t !== own)).toEqual([])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(refusal(first.port))
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(existsSync(second)).toBe(false)
  }, 40_000)
})

describe('a program listening on the port with SO_REUSEPORT', () => {
  test('the pod refuses to join it: exit 2 with the same sentence', async () => {
    const port = await freePort()
    const foreign = await foreignListener(port)
    try {
      const run = await startSolopodBriefly(10_000, 'serve', '--data', join(dir, 'beside-foreign'), '--port', String(port))
      await run.stop()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(refusal(port))
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('foreign')
    } finally { await foreign.stop() }
  }, 30_000)
})
