// Share links move with the pod (issue 38): exported from a pod on one port and imported into a pod at another
// base URL, each link opens the same file or folder at the new origin with the same token (links are path-based),
// keeps its password, its uses and its file drop's history; the export (a backup) holds no token.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, runSolopod, startPod } from './start-server.ts'
import { ownerScript } from './owner-script.ts'

const work = mkdtempSync(join(tmpdir(), 'solopod-links-move-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const PASSWORD = 'the plumber knows'
const basic = { authorization: `Basic ${Buffer.from(`x:${PASSWORD}`).toString('base64')}` }

async function addLink(dataDir: string, ...args: string[]): Promise<{ id: string; token: string }> {
  const r = await runSolopod('links', 'add', ...args, '--data', dataDir)
  expect(r.code).toBe(0)
  const [id, url] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  return { id: id!, token: url!.split('/').at(-2)! }
}

describe('share links survive export and import to a new base URL', () => {
  test('the same tokens open the same paths at the new origin, with their password, uses and uploads', async () => {
    const pod = await startPod({ extraArgs: ['--log-level', 'warn'] })
    const send = await ownerScript(pod)
    expect((await send('PUT', '/private/report.txt', 'the secret report', { 'content-type': 'text/plain' })).status).toBe(201)
    expect((await send('PUT', '/private/drop/.keep', '', { 'content-type': 'text/plain' })).status).toBe(201)
    const passwordFile = join(work, 'pw')
    writeFileSync(passwordFile, `${PASSWORD}\n`)
    const file = await addLink(pod.dataDir, '/private/report.txt', '--name', 'for the plumber', '--password-file', passwordFile)
    // A link that never expires needs the owner to have set no maximum (account/link-expiry.ts)
    expect((await runSolopod('links', 'settings', '--max-expiry', 'none', '--data', pod.dataDir)).code).toBe(0)
    const drop = await addLink(pod.dataDir, '/private/drop/', '--upload-only', '--name', 'the inbox', '--expires', 'never')
    expect((await fetch(`${pod.baseUrl}/.links/${file.token}/`, { headers: basic })).status).toBe(200)
    const sent = await fetch(`${pod.baseUrl}/.links/${drop.token}/`, {
      method: 'POST',
      body: 'hello',
      headers: { slug: 'hello.txt', 'content-type': 'text/plain' },
    })
    expect(sent.status).toBe(201)
    await pod.stop()

    const dest = join(work, 'export')
    const exported = await runSolopod('export', dest, '--data', pod.dataDir)
    expect(exported.code).toBe(0)
    // The export is a backup: the links' records are in it, their tokens are not (only their hashes)
    const state = readFileSync(join(dest, 'state.jsonl'), 'utf8')
    expect(state).toContain('for the plumber')
    expect(state).not.toContain(file.token)
    expect(state).not.toContain(drop.token)
    expect(state).not.toContain(PASSWORD)

    const port = await freePort()
    const target = join(work, 'imported')
    const imported = await runSolopod('import', dest, '--data', target, '--base-url', `http://localhost:${port}`)
    expect(imported.code).toBe(0)
    const moved = await startPod({ dataDir: target, port, extraArgs: ['--log-level', 'warn'] })
    try {
      expect(moved.baseUrl).not.toBe(pod.baseUrl)
      const url = `${moved.baseUrl}/.links/${file.token}/`
      expect((await fetch(url)).status).toBe(401)
      const opened = await fetch(url, { headers: basic })
      expect(opened.status).toBe(200)
      expect(await opened.text()).toBe('the secret report')
      const again = await fetch(`${moved.baseUrl}/.links/${drop.token}/`, {
        method: 'POST',
        body: 'again',
        headers: { slug: 'hello.txt', 'content-type': 'text/plain' },
      })
      expect(again.status).toBe(201)
      expect(((await again.json()) as { added: string[] }).added).toEqual(['hello (2).txt'])
      const listed = (await runSolopod('links', 'list', '--data', target)).stdout
      expect(listed).toMatch(new RegExp(`^${file.id}\t/private/report.txt\tview and download\tfor the plumber\texpires \\S+\t2 uses\tpassword$`, 'm'))
      expect(listed).toMatch(new RegExp(`^${drop.id}\t/private/drop/\tupload only \\(a file drop\\)\tthe inbox\tnever expires\t2 uses$`, 'm'))
    } finally {
      await moved.dispose()
      await pod.dispose()
    }
    // two pods, an export and an import, each a process of its own: half a minute on a busy machine
  }, 60_000)
})
