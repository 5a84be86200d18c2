// `solopod keys add` as an operator meets it: clear refusals (exit 2), nothing overwritten.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const run = (args: string[]) => Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' })
const dir = mkdtempSync(join(tmpdir(), 'solopod-keys-cli-'))
const data = join(dir, 'data')

beforeAll(async () => {
  // A pod's data directory is private (solopod refuses one open to others)
  mkdirSync(data, { mode: 0o700 })
  const store = await openStore(data)
  try {
    await ensureOwner(store, 'http://localhost:3998', Date.now())
  } finally {
    await store.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('solopod keys add', () => {
  test('--help lists the command', () => {
    expect(run(['--help']).stdout.toString()).toContain('keys add')
  })
  test.each([
    ['without "add"', ['keys', '--data', 'DATA'], 'usage: solopod keys add'],
    ['on a directory without a pod', ['keys', 'add', '--data', join(dir, 'empty')], 'holds no pod'],
    ['with a bad name', ['keys', 'add', '--data', 'DATA', '--name', '../x'], '--name: the key name must be'],
  ])('%s → exit 2 with the reason', (_what, args, reason) => {
    const r = run(args.map(a => (a === 'DATA' ? data : a)))
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain(reason)
  })
  test('never overwrites a private key file, nor an existing key document', () => {
    const out = join(dir, 'taken.jwk')
    writeFileSync(out, 'precious')
    const r1 = run(['keys', 'add', '--data', data, '--name', 'a', '--out', out])
    expect(r1.exitCode).toBe(2)
    expect(r1.stderr.toString()).toContain('already exists')
    expect(run(['keys', 'add', '--data', data, '--name', 'b', '--out', join(dir, 'b.jwk')]).exitCode).toBe(0)
    const r2 = run(['keys', 'add', '--data', data, '--name', 'b', '--out', join(dir, 'b2.jwk')])
    expect(r2.exitCode).toBe(2)
    expect(r2.stderr.toString()).toContain('/keys/b already exists')
  })
  test('the key is written through the operations layer: refused as the same PUT would be, nothing left behind', () => {
    const out = join(dir, 'acl.jwk')
    const r = run(['keys', 'add', '--data', data, '--name', 'nothing.acl', '--out', out])
    expect(r.exitCode).toBe(2)
    expect(r.stderr.toString()).toContain('/keys/nothing does not exist: create it before writing its ACL')
    expect(existsSync(out)).toBe(false)
  })
  test('the default file is DATA/private-keys/NAME.jwk and nothing secret is printed', () => {
    const r = run(['keys', 'add', '--data', data, '--name', 'c'])
    expect(r.exitCode).toBe(0)
    const jwk = JSON.parse(readFileSync(join(data, 'private-keys', 'c.jwk'), 'utf8'))
    expect(r.stdout.toString()).toContain(join(data, 'private-keys', 'c.jwk'))
    expect(r.stdout.toString()).not.toContain(jwk.d)
  })
})
