// For the tests of a pod's port (port-exclusive.test.ts, acme.test.ts): the answers of many connections,
// a solopod that should be refused, and a program that listens with SO_REUSEPORT.

import { expect } from 'bun:test'
import { spawnSolopod } from './start-server.ts'

/** The ETags of `count` GETs of the profile, each on a connection of its own (the kernel spreads connections, not requests). */
export async function profileTags(origin: string, count: number, init: BunFetchRequestInit = {}): Promise<string[]> {
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
  return {
    code,
    stderr: code === null ? '' : await stderr,
    stop: async () => {
      proc.kill()
      await proc.exited
    },
  }
}

/** A program that is not a pod, listening on `port` with SO_REUSEPORT; resolves once it listens, or with the error code of its refusal. */
export async function foreignListener(port: number): Promise<{ refused?: string; stop(): Promise<void> }> {
  const proc = Bun.spawn(
    [
      process.execPath,
      '-e',
      `try { Bun.serve({ hostname: '127.0.0.1', port: ${port}, reusePort: true, fetch: () => new Response('foreign') }); console.log('listening') } catch (e) { console.log('refused ' + e.code); process.exit(1) }`,
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  )
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  let said = ''
  while (!/listening|refused \w+/.test(said)) {
    const chunk = await reader.read()
    if (chunk.done) throw new Error(`the foreign listener exited: ${said}`)
    said += new TextDecoder().decode(chunk.value)
  }
  return {
    refused: /refused (\w+)/.exec(said)?.[1],
    stop: async () => {
      proc.kill()
      await proc.exited
    },
  }
}
