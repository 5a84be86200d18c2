// Issue 37's proof with a real client: cadaver (Debian's scripted WebDAV client, neon like litmus and davfs2) signs
// in with a client credential (.netrc) and makes a folder, puts a 1 GiB file, copies, renames, moves and deletes,
// and gets it back, while the pod's RSS is sampled: it stays within 100 MB of idle, and what comes back has the
// same SHA-256 as what went up. A davfs2 mount would prove the same through the kernel, but needs FUSE (a mount
// and /dev/fuse), which test machines and containers seldom give; cadaver speaks the same protocol. ~30-60 s.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import { addDavClient, basicAuth } from './dav-credential.ts'
import { generatedBody, MIB, rssMb, sampleRss, streamedSha256 } from './large-bodies.ts'

setDefaultTimeout(600_000)

const CADAVER = Bun.which('cadaver')
const SIZE = 1024 * MIB
/** The pod's RSS may grow by this much while it streams a 1 GiB file up, across (COPY) and down. */
const RSS_GROWTH_MB = 100
/** The local file, its copy got back, the pod's two copies, and room for a neighbour's work. */
const NEEDS_BYTES = 5 * SIZE
const free = (() => {
  const s = statfsSync(tmpdir())
  return s.bavail * s.bsize
})()
const enoughDisk = free >= NEEDS_BYTES
if (!enoughDisk) console.warn(`webdav-large.slow.test.ts: skipped, ${tmpdir()} has ${Math.round(free / MIB)} MiB free, the test needs ${NEEDS_BYTES / MIB}`)

let pod: RunningPod
let auth: { authorization: string }
const home = mkdtempSync(join(tmpdir(), 'solopod-cadaver-'))
beforeAll(async () => {
  if (!enoughDisk || CADAVER === null) return
  // info: each refusal logged (request.refused), shown when a step fails
  pod = await startPod({ extraArgs: ['--log-level', 'info'] })
  const credential = await addDavClient(pod, '--name', 'cadaver')
  const { id, secret } = credential
  auth = { authorization: basicAuth(credential) }
  // cadaver signs in from ~/.netrc (cadaver(1), "THE .netrc FILE"), never from the command line
  writeFileSync(join(home, '.netrc'), `machine localhost login ${id} password ${secret}\n`, { mode: 0o600 })
}, 60_000)
afterAll(async () => {
  await pod?.dispose()
  rmSync(home, { recursive: true, force: true })
})

/** cadaver with `commands` on its standard input, in `home`: everything it printed. */
async function cadaver(commands: string[]): Promise<string> {
  const proc = Bun.spawn([CADAVER!, `${pod.baseUrl}/`], {
    cwd: home,
    env: { ...process.env, HOME: home },
    stdin: new TextEncoder().encode(`${commands.join('\n')}\nquit\n`),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  expect(await proc.exited).toBe(0)
  return out + err
}

describe.skipIf(!enoughDisk || CADAVER === null)('cadaver: a 1 GiB file through WebDAV', () => {
  test("made, copied, renamed, moved, fetched and deleted: the pod's RSS within 100 MB of idle, the bytes the same", async () => {
    const local = join(home, 'film.bin')
    const body = generatedBody(SIZE)
    await Bun.write(local, new Response(body.stream))
    const sent = await body.sha256

    const idle = rssMb(pod.proc.pid)
    const sampler = sampleRss(pod.proc.pid)
    let out: string
    try {
      out = await cadaver([
        'mkcol films',
        'put film.bin films/film.bin',
        'copy films/film.bin films/copy.bin',
        'move films/copy.bin films/renamed.bin',
        'mkcol films/kept',
        'move films/renamed.bin films/kept/renamed.bin',
        'get films/kept/renamed.bin back.bin',
        'delete films/film.bin',
        'ls films',
      ])
    } finally {
      const growth = sampler.stop() - idle
      expect(growth).toBeLessThan(RSS_GROWTH_MB)
    }
    // cadaver says "succeeded." for each step it did, "failed:" with the server's answer for one it could not
    const failed = out.split(/\n|dav:\/> /).filter(l => l.includes('failed'))
    // what the pod refused, to tell why a step failed (cadaver prints only the status line)
    if (failed.length > 0)
      console.error(
        `cadaver printed:\n${out}\n`,
        pod
          .output()
          .split('\n')
          .filter(l => l.includes('request.refused') || l.includes('"level":"error"'))
          .join('\n'),
      )
    expect(failed).toEqual([])
    expect(out.match(/succeeded\./g)?.length).toBe(9)
    // the last listing: the folder made, neither the deleted original nor the moved copy
    const listing = out.slice(out.lastIndexOf('Listing collection'))
    expect(listing).toContain('kept')
    expect(listing).not.toContain('film.bin')
    expect(listing).not.toContain('copy.bin')

    const back = await streamedSha256(Bun.file(join(home, 'back.bin')).stream())
    expect(back).toEqual({ sha256: sent, size: SIZE })
    // and the pod holds what cadaver left: the moved copy, byte for byte; the original gone
    const kept = await fetch(`${pod.baseUrl}/films/kept/renamed.bin`, { headers: auth })
    expect(kept.status).toBe(200)
    expect(await streamedSha256(kept.body)).toEqual({ sha256: sent, size: SIZE })
    expect((await fetch(`${pod.baseUrl}/films/film.bin`, { headers: auth })).status).toBe(404)
  })
})
