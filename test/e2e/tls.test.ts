// --tls-cert/--tls-key: the pod serves HTTPS through Bun.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './start-server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
let dir: string
let proc: ReturnType<typeof Bun.spawn>
let port: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-tls-'))
  const made = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr}`)
  await Bun.write(join(dir, 'pw'), 'correct horse battery staple')
  port = await freePort()
  proc = Bun.spawn(
    [
      process.execPath,
      MAIN,
      '--port',
      String(port),
      '--base-url',
      `https://localhost:${port}`,
      '--data',
      join(dir, 'data'),
      '--owner-password-file',
      join(dir, 'pw'),
      '--tls-cert',
      join(dir, 'cert.pem'),
      '--tls-key',
      join(dir, 'key.pem'),
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`https://127.0.0.1:${port}/`, { tls: { rejectUnauthorized: false } })
      return
    } catch {
      await Bun.sleep(50)
    }
  }
  throw new Error('the HTTPS pod did not start')
})
afterAll(async () => {
  proc.kill()
  await proc.exited
  rmSync(dir, { recursive: true, force: true })
})

test('serves the WebID profile over HTTPS with an https issuer', async () => {
  const res = await fetch(`https://127.0.0.1:${port}/profile/card`, { tls: { rejectUnauthorized: false } })
  expect(res.status).toBe(200)
  expect(await res.text()).toContain(`solid:oidcIssuer <https://localhost:${port}>`)
})

test('discovery names the https issuer', async () => {
  const res = await fetch(`https://127.0.0.1:${port}/.well-known/openid-configuration`, { tls: { rejectUnauthorized: false } })
  expect((await res.json()).issuer).toBe(`https://localhost:${port}`)
})
