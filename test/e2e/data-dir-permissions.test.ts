// The data directory holds the signing keys' private JWKs and the owner's password hash: only the pod's user may read it.

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const mode = (p: string) => statSync(p).mode & 0o777

/** Every file and directory under `dir`, itself included. */
function walk(dir: string): string[] {
  return [dir, ...readdirSync(dir, { withFileTypes: true }).flatMap(e => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))]
}

describe('data directory permissions', () => {
  const pods: RunningPod[] = []
  const dirs: string[] = []
  afterAll(async () => {
    for (const p of pods) await p.dispose()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  test('a new data directory is 0700 and every file in it (LevelDB files too) 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'solopod-perm-'))
    dirs.push(parent)
    const dataDir = join(parent, 'data')
    const pod = await startPod({ dataDir })
    pods.push(pod)
    await fetch(`${pod.baseUrl}/profile/card`)
    const entries = walk(dataDir)
    expect(entries.length).toBeGreaterThan(3)
    for (const p of entries) expect([p, mode(p)]).toEqual([p, statSync(p).isDirectory() ? 0o700 : 0o600])
  })

  test("an empty data directory others can read (a fresh checkout's ./data) is made 0700 before first use", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'solopod-perm-'))
    dirs.push(dataDir)
    chmodSync(dataDir, 0o755)
    const pod = await startPod({ dataDir })
    pods.push(pod)
    expect(mode(dataDir)).toBe(0o700)
  })

  /** A `solopod` command run under umask 022, as from a login shell. */
  const solopodUnderUmask022 = (...args: string[]) =>
    Bun.spawnSync(['sh', '-c', 'umask 022; exec "$@"', 'sh', process.execPath, MAIN, ...args, '--log-level', 'warn'], { stdout: 'pipe', stderr: 'pipe' })
  const expectPrivate = (dir: string) => {
    for (const p of walk(dir)) expect([p, mode(p)]).toEqual([p, statSync(p).isDirectory() ? 0o700 : 0o600])
  }

  test('solopod keys add and export of a stopped pod leave every file of the data directory private', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'solopod-perm-'))
    dirs.push(parent)
    const pod = await startPod({ dataDir: join(parent, 'data') })
    await pod.stop()
    const keys = solopodUnderUmask022('keys', 'add', '--data', pod.dataDir, '--name', 'laptop')
    expect([keys.exitCode, keys.stderr.toString()]).toEqual([0, ''])
    const exported = solopodUnderUmask022('export', join(parent, 'backup'), '--data', pod.dataDir)
    expect([exported.exitCode, exported.stderr.toString()]).toEqual([0, ''])
    expectPrivate(pod.dataDir)
  })

  test('solopod import into an empty directory others can read makes it 0700, every file 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'solopod-perm-'))
    dirs.push(parent)
    const pod = await startPod({ dataDir: join(parent, 'data') })
    await pod.stop()
    expect(solopodUnderUmask022('export', join(parent, 'backup'), '--data', pod.dataDir).exitCode).toBe(0)
    const target = join(parent, 'restored')
    mkdirSync(target, { mode: 0o755 })
    chmodSync(target, 0o755)
    const imported = solopodUnderUmask022('import', join(parent, 'backup'), '--data', target, '--base-url', pod.baseUrl)
    expect([imported.exitCode, imported.stderr.toString()]).toEqual([0, ''])
    expectPrivate(target)
  })

  test.each(['755', '750', '705'])('a data directory holding a pod with mode %s is refused: exit 2 and how to fix it', async bad => {
    const pod = pods[0]!
    await pod.stop()
    chmodSync(pod.dataDir, parseInt(bad, 8))
    try {
      const r = Bun.spawnSync([process.execPath, MAIN, 'serve', '--port', '0', '--base-url', pod.baseUrl, '--data', pod.dataDir], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      expect(r.exitCode).toBe(2)
      expect(r.stderr.toString()).toContain(`the data directory ${pod.dataDir} is open to other users (mode ${bad})`)
      expect(r.stderr.toString()).toContain(`chmod 700 ${pod.dataDir}`)
    } finally {
      chmodSync(pod.dataDir, 0o700)
    }
  })
})
