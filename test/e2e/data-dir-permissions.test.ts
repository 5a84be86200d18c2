// The data directory holds the signing keys' private JWKs and the owner's password hash: only the pod's user may read it.

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const mode = (p: string) => statSync(p).mode & 0o777

/** Every file and directory under `dir`, itself included. */
function walk(dir: string): string[] {
  return [dir, ...readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])]
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

  test('an empty data directory others can read (a fresh checkout\'s ./data) is made 0700 before first use', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'solopod-perm-'))
    dirs.push(dataDir)
    chmodSync(dataDir, 0o755)
    const pod = await startPod({ dataDir })
    pods.push(pod)
    expect(mode(dataDir)).toBe(0o700)
  })

  test.each(['755', '750', '705'])('a data directory holding a pod with mode %s is refused: exit 2 and how to fix it', async (bad) => {
    const pod = pods[0]!
    await pod.stop()
    chmodSync(pod.dataDir, parseInt(bad, 8))
    try {
      const r = Bun.spawnSync([process.execPath, MAIN, 'serve', '--port', '0', '--base-url', pod.baseUrl, '--data', pod.dataDir], { stdout: 'pipe', stderr: 'pipe' })
      expect(r.exitCode).toBe(2)
      expect(r.stderr.toString()).toContain(`the data directory ${pod.dataDir} is open to other users (mode ${bad})`)
      expect(r.stderr.toString()).toContain(`chmod 700 ${pod.dataDir}`)
    } finally {
      chmodSync(pod.dataDir, 0o700)
    }
  })
})
