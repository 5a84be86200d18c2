// `solopod blobs check` on a pod whose files are in its data directory (the S3 one: test/s3/s3-blob-store.test.ts).

import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'

let pod: RunningPod | undefined
afterAll(() => pod?.dispose())

test('an unnamed file in files/ is listed as an orphan and removed with --repair; changed bytes are a wrong sha256, a lost one is missing (exit 1)', async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']) })
  const res = await fetch(`${pod.baseUrl}/files/a.bin`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(1234) })
  expect(res.status).toBe(201)
  await pod.stop()
  const orphan = 'cd'.repeat(16)
  mkdirSync(join(pod.dataDir, 'files', 'cd'), { recursive: true })
  writeFileSync(join(pod.dataDir, 'files', 'cd', orphan), 'nobody names me')

  const check = await runSolopod('blobs', 'check', '--data', pod.dataDir)
  expect(check.code).toBe(0)
  expect(check.stdout).toContain(`orphan: ${orphan}\n`)
  expect(check.stdout).toContain('0 missing, 0 of the wrong size, 1 orphan(s) (--repair removes orphans)')
  expect(existsSync(join(pod.dataDir, 'files', 'cd', orphan))).toBe(true)

  const repair = await runSolopod('blobs', 'check', '--repair', '--data', pod.dataDir)
  expect(repair.stdout).toContain(`orphan: ${orphan} (removed)`)
  expect(existsSync(join(pod.dataDir, 'files', 'cd', orphan))).toBe(false)
  expect((await runSolopod('blobs', 'check', '--data', pod.dataDir)).stdout).toContain('all blobs are in order')

  // Bytes changed behind the pod's back, the size kept: only their sha256 tells.
  // The one file left (the orphan's folder may stay, empty).
  const [name] = readdirSync(join(pod.dataDir, 'files'), { recursive: true, encoding: 'utf8' })
    .map(p => p.split('/').at(-1)!)
    .filter(n => /^[0-9a-f]{32}$/.test(n))
  const file = join(pod.dataDir, 'files', name!.slice(0, 2), name!)
  const zeros = new Bun.CryptoHasher('sha256').update(new Uint8Array(1234)).digest('hex')
  const ones = new Uint8Array(1234).fill(1)
  writeFileSync(file, ones)
  const changed = await runSolopod('blobs', 'check', '--data', pod.dataDir)
  expect(changed.code).toBe(1)
  expect(changed.stdout).toContain(
    `wrong sha256: ${name} (/files/a.bin): ${new Bun.CryptoHasher('sha256').update(ones).digest('hex')}, the record says ${zeros}\n`,
  )
  expect(changed.stdout).toContain('0 missing, 0 of the wrong size, 1 with other bytes than their sha256, 0 orphan(s)')

  rmSync(join(pod.dataDir, 'files'), { recursive: true })
  mkdirSync(join(pod.dataDir, 'files'))
  const damaged = await runSolopod('blobs', 'check', '--data', pod.dataDir)
  expect(damaged.code).toBe(1)
  expect(damaged.stdout).toMatch(/missing: [0-9a-f]{32} \(\/files\/a\.bin, 1234 bytes\)/)

  const usage = await runSolopod('blobs', 'fix', '--data', pod.dataDir)
  expect(usage.code).toBe(2)
  expect(usage.stderr).toContain('usage: solopod blobs check')
})

test('the files only versions hold (a replaced file, a deleted one) are no orphans: --repair keeps them, their mementos read back; a changed one is named by its version', async () => {
  const versioned = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/files/', ['Read', 'Write']) })
  try {
    const file = (path: string) => `${versioned.baseUrl}${path}`
    const put = (path: string, body: string) => fetch(file(path), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body })
    expect((await put('/files/kept.txt', 'first')).status).toBe(201)
    expect((await put('/files/kept.txt', 'second')).status).toBe(204)
    expect((await put('/files/gone.txt', 'deleted')).status).toBe(201)
    expect((await fetch(file('/files/gone.txt'), { method: 'DELETE' })).status).toBe(204)
    await versioned.stop()

    const repair = await runSolopod('blobs', 'check', '--repair', '--data', versioned.dataDir)
    expect(repair.code).toBe(0)
    expect(repair.stdout).toContain('all blobs are in order')
    const names = readdirSync(join(versioned.dataDir, 'files'), { recursive: true, encoding: 'utf8' }).filter(p => /[0-9a-f]{32}$/.test(p))
    expect(names.length).toBe(3)

    await versioned.restart()
    const first = async (path: string) => /<([^>]*\?version=\d+)>; rel="first/.exec(await (await fetch(file(`${path}?ext=timemap`))).text())![1]!
    expect(await (await fetch(await first('/files/kept.txt'))).text()).toBe('first')
    expect(await (await fetch(await first('/files/gone.txt'))).text()).toBe('deleted')
    await versioned.stop()

    // The deleted file's bytes changed behind the pod's back: only a version names them
    for (const name of names) {
      const path = join(versioned.dataDir, 'files', name)
      if (readFileSync(path, 'utf8') === 'deleted') writeFileSync(path, 'DELETED')
    }
    const changed = await runSolopod('blobs', 'check', '--data', versioned.dataDir)
    expect(changed.code).toBe(1)
    expect(changed.stdout).toMatch(/wrong sha256: [0-9a-f]{32} \(version \/files\/gone\.txt\)/)
  } finally {
    await versioned.dispose()
  }
})
