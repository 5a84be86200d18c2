// The CLI as an operator meets it: clear refusals with exit code 2, one process per data directory.

import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const run = (args: string[]) => Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' })

describe('solopod CLI', () => {
  let pod: RunningPod | undefined
  afterAll(async () => {
    await pod?.dispose()
  })

  test('a bad flag exits 2 with a message naming it', () => {
    const r = run(['serve', '--port', 'abc'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain('--port must be an integer')
  })

  test.each([
    [['serve', '--allow-insecure-local', 'no'], '--allow-insecure-local takes no separate value'],
    [['serve', '--allow-insecure-local=no'], '--allow-insecure-local must be true or false'],
  ])('a boolean flag with a value other than =true or =false exits 2 naming the flag: %p', (args, message) => {
    const r = run(args)
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain(message)
  })

  test('--help lists every flag', () => {
    const r = run(['--help'])
    expect(r.exitCode).toBe(0)
    for (const flag of ['--port', '--base-url', '--data', '--tls-cert', '--tls-key', '--owner-password-file']) expect(r.stdout.toString()).toContain(flag)
  })

  test('a second process on the same data directory is refused with a clear message', async () => {
    pod = await startPod()
    const r = run(['serve', '--port', '0', '--base-url', pod.baseUrl, '--data', pod.dataDir])
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain('in use by another solopod process')
  })

  test('a data directory refuses to serve under another base URL', async () => {
    await pod!.stop()
    const r = run(['serve', '--port', '0', '--base-url', 'http://localhost:1', '--data', pod!.dataDir])
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain(`belongs to the pod at ${pod!.baseUrl}`)
  })

  test('the owner password is never printed or logged', async () => {
    const again = await startPod({ dataDir: pod!.dataDir, port: pod!.port })
    await fetch(`${again.baseUrl}/profile/card`)
    await again.stop()
    expect(again.output()).not.toContain('correct horse battery staple')
    expect(pod!.output()).not.toContain('correct horse battery staple')
  })
})
