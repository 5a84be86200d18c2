// WebDAV at the size and in the ways real clients use it (issue 37): rclone syncing 500 awkwardly named files up,
// down and back byte for byte; curl's PUT with `Expect: 100-continue` and with a chunked body; cadaver (Debian's
// command-line WebDAV client, standing in for a davfs2 mount, which needs root here) creating, renaming, moving and
// deleting. Each signs in with HTTP Basic and a client credential. .ci/run installs rclone and cadaver.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'

const RCLONE = Bun.which('rclone')
const CURL = Bun.which('curl')
const CADAVER = Bun.which('cadaver')

let pod: RunningPod
let id = ''
let secret = ''
let auth = ''
const work = mkdtempSync(join(tmpdir(), 'solopod-dav-bulk-'))

async function run(cmd: string[], o: { env?: Record<string, string>; stdin?: string } = {}) {
  const proc = Bun.spawn(cmd, {
    cwd: work,
    env: { ...process.env, ...o.env },
    stdin: o.stdin === undefined ? 'ignore' : new TextEncoder().encode(o.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

beforeAll(async () => {
  pod = await startPod()
  const r = await runSolopod('clients', 'add', '--name', 'Bulk clients', '--data', pod.dataDir)
  ;[id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1)) as [string, string]
  auth = `Basic ${btoa(`${id}:${secret}`)}`
})
afterAll(async () => {
  await pod?.dispose()
  rmSync(work, { recursive: true, force: true })
})

/** Every file under `dir`, by its path relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(p => statSync(join(dir, p)).isFile())
    .sort()
}
const sameTree = (a: string, b: string) => {
  expect(filesUnder(b)).toEqual(filesUnder(a))
  for (const p of filesUnder(a)) expect(readFileSync(join(b, p)).equals(readFileSync(join(a, p)))).toBe(true)
}

describe.skipIf(RCLONE === null)('rclone, 500 files', () => {
  test('up, down and back, names with spaces, accents, #, ?, %, +, byte for byte', async () => {
    const up = join(work, 'up')
    const down = join(work, 'down')
    const again = join(work, 'again')
    const awkward = ['a b', 'été', 'x#y', 'q?', '100%', 'a+b', 'Ünï #1 ?%+']
    for (let i = 0; i < 500; i++) {
      const dir = join(up, `folder ${i % 10} ${awkward[i % awkward.length]}`)
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, `${awkward[(i * 3) % awkward.length]} ${i}.bin`), crypto.getRandomValues(new Uint8Array(1 + ((i * 131) % 5000))))
    }
    expect(filesUnder(up)).toHaveLength(500)
    const obscured = (await run([RCLONE!, 'obscure', secret])).stdout.trim()
    const env = {
      RCLONE_CONFIG_POD_TYPE: 'webdav',
      RCLONE_CONFIG_POD_URL: `${pod.baseUrl}/`,
      RCLONE_CONFIG_POD_VENDOR: 'other',
      RCLONE_CONFIG_POD_USER: id,
      RCLONE_CONFIG_POD_PASS: obscured,
    }
    const sync = async (from: string, to: string) => {
      const r = await run([RCLONE!, 'sync', '--transfers', '4', from, to], { env })
      expect(
        r.stderr
          .split('\n')
          .filter(l => l !== '' && !l.includes('Config file'))
          .join('\n'),
      ).toBe('')
      expect(r.code).toBe(0)
    }
    await sync(up, 'pod:bulk')
    await sync('pod:bulk', down)
    sameTree(up, down)
    // Back: changed, removed and added on the other computer, synced up again, then down to a third
    const names = filesUnder(down)
    for (const p of names.slice(0, 5)) writeFileSync(join(down, p), `changed ${p}`)
    for (const p of names.slice(5, 8)) rmSync(join(down, p))
    writeFileSync(join(down, 'new #1 ?%+ é.txt'), 'new')
    await sync(down, 'pod:bulk')
    await sync('pod:bulk', again)
    sameTree(down, again)
    expect(filesUnder(again)).toHaveLength(498)
    expect((await run([RCLONE!, 'check', down, 'pod:bulk'], { env })).code).toBe(0)
  }, 300_000)
})

describe.skipIf(CURL === null)('curl PUT: Expect: 100-continue and a chunked body', () => {
  const file = () => {
    const path = join(work, 'upload.bin')
    writeFileSync(path, crypto.getRandomValues(new Uint8Array(300_000)))
    return path
  }
  const stored = async (path: string) => new Uint8Array(await (await fetch(pod.baseUrl + path, { headers: { authorization: auth } })).arrayBuffer())

  test('Expect: 100-continue: the pod says 100 Continue, then 201 with the bytes kept', async () => {
    const local = file()
    const r = await run([
      CURL!,
      '-sS',
      '-v',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-u',
      `${id}:${secret}`,
      '-H',
      'Expect: 100-continue',
      '-H',
      'Content-Type: application/octet-stream',
      '-T',
      local,
      `${pod.baseUrl}/curl%20%23%3F%25+continue.bin`,
    ])
    expect(r.stdout).toBe('201')
    expect(r.stderr).toContain('HTTP/1.1 100 Continue')
    expect(Buffer.from(await stored('/curl%20%23%3F%25+continue.bin')).equals(readFileSync(local))).toBe(true)
  })

  test('Transfer-Encoding: chunked: 201 with the bytes kept; a locked file: 423 locked, unchanged', async () => {
    const local = file()
    const put = (path: string, extra: string[] = []) =>
      run([
        CURL!,
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-u',
        `${id}:${secret}`,
        '-H',
        'Transfer-Encoding: chunked',
        '-H',
        'Content-Type: application/octet-stream',
        ...extra,
        '-T',
        local,
        pod.baseUrl + path,
      ])
    expect((await put('/curl%20chunked.bin')).stdout).toBe('201')
    expect(Buffer.from(await stored('/curl%20chunked.bin')).equals(readFileSync(local))).toBe(true)
    const lock = await fetch(`${pod.baseUrl}/curl%20chunked.bin`, {
      method: 'LOCK',
      headers: { authorization: auth, 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    })
    expect(lock.status).toBe(200)
    const token = lock.headers.get('lock-token')!
    writeFileSync(local, 'other bytes')
    expect((await put('/curl%20chunked.bin')).stdout).toBe('423')
    expect(new TextDecoder().decode(await stored('/curl%20chunked.bin'))).not.toBe('other bytes')
    expect((await put('/curl%20chunked.bin', ['-H', `If: (${token})`])).stdout).toBe('204')
    expect(new TextDecoder().decode(await stored('/curl%20chunked.bin'))).toBe('other bytes')
  })
})

describe.skipIf(CADAVER === null)('cadaver', () => {
  test('creates a folder and a file, renames, moves and deletes them, as a mounted drive would', async () => {
    const home = join(work, 'home')
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, '.netrc'), `machine localhost\nlogin ${id}\npassword ${secret}\n`, { mode: 0o600 })
    writeFileSync(join(work, 'local note.txt'), 'a note from cadaver')
    const script =
      [
        'mkcol Cadaver',
        'mkcol Cadaver/Été',
        'cd Cadaver',
        `put "${join(work, 'local note.txt')}" "note é.txt"`,
        'move "note é.txt" "renamed #1.txt"',
        'move "renamed #1.txt" "Été/renamed #1.txt"',
        'put "' + join(work, 'local note.txt') + '" "gone.txt"',
        'delete "gone.txt"',
        'ls Été',
        'quit',
      ].join('\n') + '\n'
    const r = await run([CADAVER!, `${pod.baseUrl}/`], { env: { HOME: home }, stdin: script })
    expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/failed|Could not|Authentication/i)
    expect(r.stdout).toContain('renamed #1.txt')
    const get = (path: string) => fetch(pod.baseUrl + path, { headers: { authorization: auth } })
    expect(await (await get('/Cadaver/%C3%89t%C3%A9/renamed%20%231.txt')).text()).toBe('a note from cadaver')
    for (const gone of ['/Cadaver/note%20%C3%A9.txt', '/Cadaver/renamed%20%231.txt', '/Cadaver/gone.txt']) expect((await get(gone)).status).toBe(404)
  }, 60_000)
})
