// Real WebDAV clients against a real pod (issue 37): Debian's litmus, the WebDAV reference suite, and rclone's
// webdav backend syncing a folder of awkwardly named files up and back, byte for byte. Each signs in with HTTP
// Basic and a client credential, as a mounted drive does. .ci/run installs both (Debian packages litmus, rclone).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'

const LITMUS = Bun.which('litmus')
const RCLONE = Bun.which('rclone')

let pod: RunningPod
let id = ''
let secret = ''
const work = mkdtempSync(join(tmpdir(), 'solopod-dav-'))

async function run(cmd: string[], env: Record<string, string> = {}, cwd = work) {
  const proc = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

beforeAll(async () => {
  pod = await startPod()
  const r = await runSolopod('clients', 'add', '--name', 'WebDAV clients', '--data', pod.dataDir)
  ;[id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1)) as [string, string]
  const auth = `Basic ${btoa(`${id}:${secret}`)}`
  for (const folder of ['', 'basic/', 'copymove/', 'props/', 'locks/', 'http/']) {
    expect((await fetch(`${pod.baseUrl}/dav-test/${folder}`, { method: 'MKCOL', headers: { authorization: auth } })).status).toBe(201)
  }
})
afterAll(async () => {
  await pod?.dispose()
  rmSync(work, { recursive: true, force: true })
})

/** litmus prints `<- summary for `GROUP': of N tests run: P passed, F failed.` and a FAIL line per failed test. */
function summaryOf(output: string, group: string) {
  const m = new RegExp(`summary for \`${group}': of (\\d+) tests run: (\\d+) passed, (\\d+) failed`).exec(output)
  const failures = output
    .split('\n')
    .filter(l => /\bFAIL\b/.test(l))
    .map(l => l.trim())
  return m ? { run: Number(m[1]), passed: Number(m[2]), failed: Number(m[3]), failures } : { run: 0, passed: 0, failed: -1, failures: [output.slice(-2000)] }
}

describe.skipIf(LITMUS === null)('litmus, the WebDAV reference suite', () => {
  // Each group starts its own session with an anonymous DELETE and then a MKCOL, so each runs in a folder of its own,
  // where its first MKCOL makes `litmus/`. locks' notowner_modify writes from a second, unsigned session: access is
  // decided before locks, so it is challenged with Basic (a PUT or DELETE no browser sent) and then refused 423.
  test.each(['basic', 'copymove', 'props', 'locks'])(
    '%s passes in full',
    async group => {
      const r = await run([LITMUS!, `${pod.baseUrl}/dav-test/${group}/`, id, secret], { TESTS: group })
      const s = summaryOf(r.stdout + r.stderr, group)
      expect(s.failures).toEqual([])
      expect(s.failed).toBe(0)
      expect(s.run).toBeGreaterThan(10)
    },
    120_000,
  )

  test('http passes in full (Expect: 100-continue)', async () => {
    const r = await run([LITMUS!, `${pod.baseUrl}/dav-test/http/`, id, secret], { TESTS: 'http' })
    const s = summaryOf(r.stdout + r.stderr, 'http')
    expect(s.failures).toEqual([])
    expect(s.failed).toBe(0)
  }, 120_000)
})

/** Names a file manager makes every day, and the characters URLs treat specially. */
const AWKWARD = [
  'plain.txt',
  'with space.txt',
  'été à l’ombre.txt',
  'hash#tag.txt',
  'what?.txt',
  '100% sure.txt',
  'a+b=c.txt',
  'semi;colon&amp.txt',
  '日本語.bin',
  'emoji 🎉.txt',
]

describe.skipIf(RCLONE === null)('rclone with its webdav backend', () => {
  test('syncs a folder of awkward names up and back, byte for byte, and sees a change made on the pod', async () => {
    const up = join(work, 'up')
    const down = join(work, 'down')
    mkdirSync(join(up, 'sub folder é'), { recursive: true })
    AWKWARD.forEach((name, i) => writeFileSync(join(up, name), crypto.getRandomValues(new Uint8Array(100 + i * 997))))
    writeFileSync(join(up, 'sub folder é', 'inner #1.txt'), 'inner')
    const obscured = (await run([RCLONE!, 'obscure', secret])).stdout.trim()
    const env = {
      RCLONE_CONFIG_POD_TYPE: 'webdav',
      RCLONE_CONFIG_POD_URL: `${pod.baseUrl}/dav-test/`,
      RCLONE_CONFIG_POD_VENDOR: 'other',
      RCLONE_CONFIG_POD_USER: id,
      RCLONE_CONFIG_POD_PASS: obscured,
    }
    const sync = await run([RCLONE!, 'sync', up, 'pod:rclone'], env)
    expect(
      sync.stderr
        .split('\n')
        .filter(l => l !== '' && !l.includes('Config file'))
        .join('\n'),
    ).toBe('')
    expect(sync.code).toBe(0)
    expect((await run([RCLONE!, 'sync', 'pod:rclone', down], env)).code).toBe(0)
    for (const name of AWKWARD) expect(readFileSync(join(down, name)).equals(readFileSync(join(up, name)))).toBe(true)
    expect(readFileSync(join(down, 'sub folder é', 'inner #1.txt'), 'utf8')).toBe('inner')
    expect(readdirSync(down).sort()).toEqual(readdirSync(up).sort())
    expect((await run([RCLONE!, 'check', up, 'pod:rclone'], env)).code).toBe(0)
    // A change made on the pod by another face is one rclone check sees
    const auth = `Basic ${btoa(`${id}:${secret}`)}`
    const put = await fetch(`${pod.baseUrl}/dav-test/rclone/plain.txt`, {
      method: 'PUT',
      body: 'changed on the pod',
      headers: { authorization: auth, 'content-type': 'text/plain' },
    })
    expect(put.status).toBe(204)
    expect((await run([RCLONE!, 'check', up, 'pod:rclone'], env)).code).not.toBe(0)
  }, 120_000)
})
