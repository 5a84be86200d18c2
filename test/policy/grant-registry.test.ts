import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { makeGrantRegistry } from '../../src/policy/grant-registry.ts'
import { exportPod } from '../../src/store/export-pod.ts'
import { importPod } from '../../src/store/import-pod.ts'
import { ACL, BOB, INTEROP, POD, grant, inheriting } from './grant-fixture.ts'

// Grants are pod data: they survive a restart and an export/import to another base URL, like resources.
const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-grants-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function podAt(dir: string, base: string): Promise<Store> {
  const store = await openStore(dir)
  await ensureOwner(store, base, Date.now())
  return store
}

const g = grant({
  scopeOfGrant: INTEROP('SelectedFromRegistry'),
  hasDataInstance: [`${POD}/projects/a`],
  accessMode: [ACL('Read'), ACL('Write')],
  hasInheritingGrant: [inheriting()],
})

describe('stored grants', () => {
  test('survive closing and reopening the store; the index is rebuilt from it', async () => {
    const dir = tempDir()
    let store = await podAt(dir, POD)
    const entry = await makeGrantRegistry({ store, cfg: { baseUrl: POD }, now: Date.now }).create(g)
    await store.close()
    store = await podAt(dir, POD)
    const again = makeGrantRegistry({ store, cfg: { baseUrl: POD }, now: Date.now })
    expect((await again.get(entry.id))?.data).toEqual(entry.data)
    expect((await again.index()).byGrantee.get(BOB)!.map(n => n.iri)).toEqual([entry.iri, `${entry.iri}#inherit-0`])
    await store.close()
  })

  test('a revoked grant stays revoked after a restart', async () => {
    const dir = tempDir()
    let store = await podAt(dir, POD)
    const registry = makeGrantRegistry({ store, cfg: { baseUrl: POD }, now: Date.now })
    const entry = await registry.create(g)
    expect(await registry.revoke(entry.id)).toBe(true)
    expect(await registry.revoke(entry.id)).toBe(false)
    await store.close()
    store = await podAt(dir, POD)
    const again = makeGrantRegistry({ store, cfg: { baseUrl: POD }, now: Date.now })
    expect(await again.list()).toEqual([])
    expect(await again.quadsOf(entry.id)).toEqual([])
    await store.close()
  })

  test('move with export/import to another base URL: every IRI follows', async () => {
    const src = tempDir(),
      out = join(tempDir(), 'export'),
      dest = tempDir()
    const store = await podAt(src, POD)
    const entry = await makeGrantRegistry({ store, cfg: { baseUrl: POD }, now: Date.now }).create(g)
    await exportPod(store, out)
    await store.close()
    const NEW = 'https://new.example'
    await importPod(dest, out, NEW)
    const moved = await openStore(dest)
    const registry = makeGrantRegistry({ store: moved, cfg: { baseUrl: NEW }, now: Date.now })
    const [only] = await registry.list()
    expect(only!.iri).toBe(entry.iri.replace(POD, NEW))
    expect(JSON.stringify(only!.data)).toBe(JSON.stringify(entry.data).replaceAll(POD, NEW))
    await moved.close()
  })
})
