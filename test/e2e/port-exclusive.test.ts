// A pod never shares its port: a second pod (another data directory, same port) and a program that
// listens there with SO_REUSEPORT are refused at start, exit 2 with what to do, and the first pod keeps
// answering every request. (The --domain https listener, which swaps with SO_REUSEPORT: acme.test.ts.)

import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startPod, type RunningPod } from './start-server.ts'
import { foreignListener, profileTags, startSolopodBriefly } from './port-sharing.ts'

const dir = mkdtempSync(join(tmpdir(), 'solopod-port-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const refusal = (port: number) =>
  `solopod: cannot listen on 127.0.0.1:${port} (--port): another process listens there; stop it, or give this pod another port with --port`

describe('a second pod on the same port', () => {
  let first: RunningPod
  afterAll(async () => {
    await first?.dispose()
  })

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
  test("started after the pod, it cannot join the pod's listener (EADDRINUSE)", async () => {
    const pod = await startPod()
    try {
      const [own] = await profileTags(pod.baseUrl, 1)
      const foreign = await foreignListener(pod.port)
      await foreign.stop()
      expect(foreign.refused).toBe('EADDRINUSE')
      expect(await profileTags(pod.baseUrl, 10)).toEqual(Array(10).fill(own))
    } finally {
      await pod.dispose()
    }
  }, 30_000)

  test('the pod refuses to join it: exit 2 with the same sentence', async () => {
    const port = await freePort()
    const foreign = await foreignListener(port)
    expect(foreign.refused).toBeUndefined()
    try {
      const run = await startSolopodBriefly(10_000, 'serve', '--data', join(dir, 'beside-foreign'), '--port', String(port))
      await run.stop()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(refusal(port))
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('foreign')
    } finally {
      await foreign.stop()
    }
  }, 30_000)
})
