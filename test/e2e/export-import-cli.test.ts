// `solopod export` / `solopod import` as an operator runs them: subprocesses against a stopped pod's data directory.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Parser } from 'n3'
import { freePort, runSolopod, startPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { openStore } from '../../src/store/open-store.ts'
import { getLastBackup } from '../../src/store/last-backup.ts'

const work = mkdtempSync(join(tmpdir(), 'solopod-cli-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const solopod = runSolopod

/** The data directory's record of its last backup (read with the server stopped). */
async function lastBackupOf(dataDir: string) {
  const store = await openStore(dataDir)
  try {
    return await getLastBackup(store)
  } finally {
    await store.close()
  }
}

const BINARY = crypto.getRandomValues(new Uint8Array(300_000))
const NOTE = '<#it> <http://purl.org/dc/terms/title> "Nöte"@de; <http://purl.org/dc/terms/references> </d/photo.bin>, [ <http://example.org/v> 7 ].'

describe('solopod export and import (CLI)', () => {
  test('a pod written over HTTP comes back whole at a new base URL', async () => {
    const pod = await startPod({ seed: (d, b) => seedPublicContainer(d, b, '/d/', ['Read', 'Write']), extraArgs: ['--log-level', 'warn'] })
    const origin = `http://127.0.0.1:${pod.port}`
    try {
      expect((await fetch(`${origin}/d/photo.bin`, { method: 'PUT', headers: { 'content-type': 'image/x-test' }, body: BINARY })).status).toBe(201)
      expect((await fetch(`${origin}/d/sub/note`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: NOTE })).status).toBe(201)
      await pod.stop('SIGTERM')

      const dest = join(work, 'export')
      const exported = await solopod('export', dest, '--data', pod.dataDir)
      expect(exported.stderr).toBe('')
      expect(exported.code).toBe(0)
      expect(readdirSync(dest).sort()).toEqual(['blobs', 'manifest.json', 'pod.nq', 'state.jsonl'])
      // the dashboard's "last backup" counts an export too; the export itself does not carry that record
      expect(await lastBackupOf(pod.dataDir)).toEqual({ at: expect.any(String), via: 'export', resources: expect.any(Number) })

      const port = await freePort()
      const newBase = `http://localhost:${port}`
      const target = join(work, 'imported')
      const imported = await solopod('import', dest, '--data', target, '--base-url', newBase)
      expect(imported.stderr).toBe('')
      expect(imported.code).toBe(0)
      expect(await lastBackupOf(target)).toBeUndefined()

      const moved = await startPod({ dataDir: target, port, extraArgs: ['--log-level', 'warn'] })
      try {
        const o = `http://127.0.0.1:${port}`
        const photo = await fetch(`${o}/d/photo.bin`)
        expect(photo.status).toBe(200)
        expect(photo.headers.get('content-type')).toBe('image/x-test')
        expect(Buffer.from(await photo.arrayBuffer()).equals(Buffer.from(BINARY))).toBe(true)

        const note = await fetch(`${o}/d/sub/note`, { headers: { accept: 'text/turtle' } })
        expect(note.status).toBe(200)
        const quads = new Parser({ baseIRI: `${newBase}/d/sub/note` }).parse(await note.text())
        expect(quads.length).toBe(4)
        expect(quads.some(q => q.object.value === `${newBase}/d/photo.bin`)).toBe(true)
        expect(quads.some(q => q.object.termType === 'Literal' && q.object.language === 'de' && q.object.value === 'Nöte')).toBe(true)

        const card = await (await fetch(`${o}/profile/card`, { headers: { accept: 'text/turtle' } })).text()
        expect(card).toContain(`solid:oidcIssuer <${newBase}>`)
        // The public-write ACL moved too: anonymous writes still work where the old pod allowed them.
        expect((await fetch(`${o}/d/new`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(201)
      } finally {
        await moved.dispose()
      }
    } finally {
      await pod.dispose()
    }
  }, 60_000)

  test('export refuses a destination that is not empty, with a message and a non-zero exit', async () => {
    const pod = await startPod({ extraArgs: ['--log-level', 'warn'] })
    try {
      await pod.stop('SIGTERM')
      const dest = join(work, 'busy')
      mkdirSync(dest)
      writeFileSync(join(dest, 'mine'), 'keep')
      const run = await solopod('export', dest, '--data', pod.dataDir)
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain(`${dest} is not an empty directory`)
      expect(readdirSync(dest)).toEqual(['mine'])
    } finally {
      await pod.dispose()
    }
  }, 30_000)

  test('import refuses a data directory that is not empty', async () => {
    const src = join(work, 'not-an-export')
    mkdirSync(src)
    const target = join(work, 'full')
    mkdirSync(target)
    writeFileSync(join(target, 'x'), '')
    const run = await solopod('import', src, '--data', target)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain(`${target} is not empty`)
    expect(existsSync(join(target, 'db'))).toBe(false)
  }, 30_000)
})
