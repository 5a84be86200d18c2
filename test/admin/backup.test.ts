// POST /.admin/backup (the owner's download of the whole pod) and GET /.admin/api/backup (when the
// last one was made): owner only, CSRF-checked, one at a time, the archive holding `solopod export`'s folder.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tar from 'tar'
import { BASE, CookieJar, FORM, field, form, logIn, openTestPod, type TestPod } from '../op/op-fixture.ts'
import { unpackExportArchive } from '../../src/store/export-archive.ts'
import { ImportError } from '../../src/store/import-pod.ts'
import { nextLogEvent } from '../log-events.ts'

let pod: TestPod
let owner: CookieJar
let csrf: string
const work = mkdtempSync(join(tmpdir(), 'solopod-backup-api-'))
beforeAll(async () => {
  pod = await openTestPod()
  owner = new CookieJar()
  await logIn(pod, owner)
  const page = await owner.take(await pod.request('/.admin/', { headers: { cookie: owner.header() } })).text()
  csrf = /data-csrf="([^"]+)"/.exec(page)![1]!
})
afterAll(async () => {
  await pod.close()
  rmSync(work, { recursive: true, force: true })
})

const post = (fields: Record<string, string>, o: { jar?: CookieJar; origin?: string } = {}) =>
  pod.request('/.admin/backup', {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: (o.jar ?? owner).header(), origin: o.origin ?? BASE },
    body: form(fields),
  })
/** The error page's code (the page shows it in #error). */
const pageError = async (res: Response) => /id="error">([a-z_]+)</.exec(await res.text())?.[1]
const last = async () => (await (await pod.request('/.admin/api/backup', { headers: { cookie: owner.header() } })).json()).last

describe("POST /.admin/backup refuses anyone but the owner's own page", () => {
  test('without a session → 401 login_required', async () => {
    const res = await post({ csrf }, { jar: new CookieJar() })
    expect(res.status).toBe(401)
    expect(await pageError(res)).toBe('login_required')
  })
  test('without the CSRF token → 403 csrf_failed', async () => {
    const res = await post({})
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
  })
  test('from another origin → 403 csrf_failed', async () => {
    const res = await post({ csrf }, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
  })
  test('GET /.admin/api/backup without a session → 401 login_required', async () => {
    const res = await pod.request('/.admin/api/backup')
    expect(res.status).toBe(401)
    expect(((await res.json()) as { error: string }).error).toBe('login_required')
  })
})

describe('the archive', () => {
  test('no backup yet: last is null', async () => {
    expect(await last()).toBeNull()
  })

  test('a second download while one is streaming → 409 backup_running; a broken-off one is not recorded', async () => {
    const first = await post({ csrf })
    expect(first.status).toBe(200)
    const second = await post({ csrf })
    expect(second.status).toBe(409)
    expect(await pageError(second)).toBe('backup_running')
    const interrupted = nextLogEvent('backup.interrupted')
    await first.body!.cancel()
    await interrupted
    expect(await last()).toBeNull()
  })

  test('a tar.gz of the export folder (manifest, N-Quads, state), recorded once delivered', async () => {
    const downloaded = nextLogEvent('backup.downloaded')
    const res = await post({ csrf })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/gzip')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const name = /attachment; filename="(solopod-backup-\d{8}T\d{6}Z)\.tar\.gz"/.exec(res.headers.get('content-disposition') ?? '')?.[1]
    expect(name).toBeDefined()
    const file = join(work, 'b.tar.gz')
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
    const listed: string[] = []
    await tar.t({
      file,
      onReadEntry: e => {
        listed.push(e.path)
      },
    })
    expect(listed).toEqual(expect.arrayContaining([`${name}/manifest.json`, `${name}/pod.nq`, `${name}/state.jsonl`, `${name}/blobs/`]))
    const { holder, exportDir } = await unpackExportArchive(file, work)
    let manifest
    try {
      manifest = JSON.parse(readFileSync(join(exportDir, 'manifest.json'), 'utf8'))
      expect(manifest.kind).toBe('solopod-export')
      expect(manifest.baseUrl).toBe(BASE)
      expect(manifest.resources.map((r: { path: string }) => r.path)).toContain('/profile/card')
      // the record of this backup is not part of it (a restored pod has made none)
      expect(readFileSync(join(exportDir, 'state.jsonl'), 'utf8')).not.toContain('last-backup')
    } finally {
      rmSync(holder, { recursive: true, force: true })
    }
    await downloaded
    const recorded = await last()
    expect(recorded).toEqual({ at: expect.any(String), via: 'download', resources: expect.any(Number) })
    expect(recorded.resources).toBe(manifest.counts.resources)
    // the temporary export folder (it holds the keys) is gone once the download ended
    expect(readdirSync(join(pod.deps.cfg.dataDir, 'tmp'))).toEqual([])
  })
})

describe('unpacking refuses what is not an export', () => {
  test('a link inside the archive → ImportError naming it', async () => {
    const src = join(work, 'evil')
    mkdirSync(join(src, 'x'), { recursive: true })
    writeFileSync(join(src, 'x', 'manifest.json'), '{}')
    symlinkSync('/etc/passwd', join(src, 'x', 'pod.nq'))
    const file = join(work, 'evil.tar.gz')
    await tar.c({ cwd: src, gzip: true, file }, ['x'])
    await expect(unpackExportArchive(file, work)).rejects.toThrow(
      new ImportError(`${file} holds x/pod.nq (SymbolicLink), which is not part of a solopod export`),
    )
  })
  test('a file that is no archive → ImportError', async () => {
    const file = join(work, 'plain.txt')
    writeFileSync(file, 'hello')
    await expect(unpackExportArchive(file, work)).rejects.toBeInstanceOf(ImportError)
  })
})
