// Issue 9 "Export while running": `solopod export` against a serving pod takes one consistent snapshot.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Parser } from 'n3'
import { freePort, runSolopod, startPod } from './start-server.ts'
import { seedPublicContainer, writeTurtle } from './seed-store.ts'
import { DOC_1K } from '../bench/documents.ts'

const work = mkdtempSync(join(tmpdir(), 'solopod-export-running-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const solopod = runSolopod

const LANES = 8
/** Version k of /d/a-L is RDF (quads), of /d/b-L a binary (metadata + body): different key spaces. */
const body = (path: string, k: number) =>
  path.includes('/a-') ? { type: 'text/turtle', text: `<#it> <http://example.org/version> ${k}.` } : { type: 'application/octet-stream', text: `version ${k}` }

/** The version a resource holds, read back over HTTP. */
async function versionOf(origin: string, baseUrl: string, path: string): Promise<number> {
  const res = await fetch(`${origin}${path}`, { headers: { accept: 'text/turtle' } })
  if (res.status !== 200) return 0
  const text = await res.text()
  if (path.includes('/b-')) return Number(text.replace('version ', ''))
  const [q] = new Parser({ baseIRI: baseUrl + path }).parse(text)
  return Number(q!.object.value)
}

describe('solopod export of a running pod', () => {
  test('a backup taken under write load imports to one instant of the acknowledged state', async () => {
    // The export reads quads before metadata and bodies; many documents make that take a while, so a
    // reader without one snapshot would see /d/b-* much later than /d/a-*.
    const seed = (d: string, b: string) =>
      seedPublicContainer(d, b, '/d/', ['Read', 'Write'], async store => {
        for (let i = 0; i < 500; i++) await writeTurtle(store, b, `/d/aa-${String(i).padStart(4, '0')}`, DOC_1K)
      })
    const pod = await startPod({ seed, extraArgs: ['--log-level', 'warn'] })
    const origin = `http://127.0.0.1:${pod.port}`
    // Each lane writes version k of /d/a-L and then version k of /d/b-L, over and over.
    const acked = Array.from({ length: LANES }, () => ({ a: 0, b: 0 }))
    const started = Array.from({ length: LANES }, () => ({ a: 0, b: 0 }))
    let stop = false
    // The export starts once every lane has had writes acknowledged: the pod is then under write load.
    const underLoad = Promise.withResolvers<void>()
    const put = async (path: string, k: number) => {
      const { type, text } = body(path, k)
      const res = await fetch(`${origin}${path}`, { method: 'PUT', headers: { 'content-type': type }, body: text })
      if (res.status !== 201 && res.status !== 204) throw new Error(`PUT ${path} answered ${res.status}`)
    }
    const lane = async (l: number) => {
      for (let k = 1; !stop; k++) {
        started[l]!.a = k
        await put(`/d/a-${l}`, k)
        acked[l]!.a = k
        started[l]!.b = k
        await put(`/d/b-${l}`, k)
        acked[l]!.b = k
        if (acked.every(v => v.b >= 2)) underLoad.resolve()
      }
    }
    const lanes = Array.from({ length: LANES }, (_, l) => lane(l))
    let moved: Awaited<ReturnType<typeof startPod>> | undefined
    try {
      await Promise.race([underLoad.promise, Promise.all(lanes)])
      const before = acked.map(v => ({ ...v }))
      const dest = join(work, 'backup')
      const exported = await solopod('export', dest, '--data', pod.dataDir)
      const after = started.map(v => ({ ...v }))
      expect(exported.stderr).toBe('')
      expect(exported.stdout).toContain('exported the running pod')
      expect(exported.code).toBe(0)
      stop = true
      await Promise.all(lanes)
      // The writes went on during the export.
      expect(after.some((v, l) => v.a > before[l]!.a + 1)).toBe(true)

      const port = await freePort()
      const target = join(work, 'restored')
      const imported = await solopod('import', dest, '--data', target, '--base-url', `http://localhost:${port}`)
      expect(imported.stderr).toBe('')
      expect(imported.code).toBe(0)
      moved = await startPod({ dataDir: target, port, extraArgs: ['--log-level', 'warn'] })
      const o = `http://127.0.0.1:${port}`
      for (let l = 0; l < LANES; l++) {
        const a = await versionOf(o, moved.baseUrl, `/d/a-${l}`)
        const b = await versionOf(o, moved.baseUrl, `/d/b-${l}`)
        // Every write acknowledged before the export began is in it; nothing begun after it ended.
        expect(a).toBeGreaterThanOrEqual(before[l]!.a)
        expect(b).toBeGreaterThanOrEqual(before[l]!.b)
        expect(a).toBeLessThanOrEqual(after[l]!.a)
        expect(b).toBeLessThanOrEqual(after[l]!.b)
        // One instant: b-k is written only after a-k was acknowledged, so the backup holds a = b or a = b + 1.
        expect([0, 1]).toContain(a - b)
      }
    } finally {
      stop = true
      await Promise.allSettled(lanes)
      await moved?.dispose()
      await pod.dispose()
    }
  }, 90_000)

  test("the control socket is private to the pod's user and refuses an export request it cannot carry out", async () => {
    const pod = await startPod({ extraArgs: ['--log-level', 'warn'] })
    try {
      const socket = join(pod.dataDir, 'run', 'control.sock')
      expect(statSync(socket).mode & 0o777).toBe(0o600)
      const ask = (body: string) => fetch('http://solopod/export', { method: 'POST', unix: socket, body })
      const junk = await ask('not json')
      expect(junk.status).toBe(400)
      expect(await junk.json()).toEqual({ error: 'expected a JSON body {"dest": "/absolute/path"}' })
      expect((await ask('{"dest":"relative/dir"}')).status).toBe(400)
      const occupied = await ask(JSON.stringify({ dest: pod.dataDir }))
      expect(occupied.status).toBe(422)
      expect((await occupied.json()).error).toContain('is not an empty directory')
      await pod.stop('SIGTERM')
      expect(() => statSync(socket)).toThrow()
    } finally {
      await pod.dispose()
    }
  }, 30_000)
})
