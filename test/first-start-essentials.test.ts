// A restart checks the pod's essential resources (first-start.ts repairEssentials) only when they changed since a
// start found them whole (store/essentials-record.ts, issue 41): a whole pod restarts without reading a document,
// a pod damaged since — by any writer, which knows nothing of the record — is still repaired.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../src/store/open-store.ts'
import { ensureOwner } from '../src/first-start.ts'
import { deleteResource, getMeta, readTriples } from '../src/store/resources.ts'
import { ESSENTIALS_CHECKED_KEY, essentialsState, getEssentialsChecked, recordEssentialsChecked } from '../src/store/essentials-record.ts'
import { lostEssentialAccess, missingProfileStatements, PROFILE_PATH, storedAclLoader } from '../src/policy/pod-essentials.ts'
import { KEYS_PATH } from '../src/http/pod-paths.ts'
import { exportPod, STATE_FILE } from '../src/store/export-pod.ts'
import { importPod } from '../src/store/import-pod.ts'
import { writeTurtle } from './e2e/seed-store.ts'

const POD = 'http://localhost:3999'
const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'solopod-essentials-'))
  dirs.push(d)
  return d
}
const stores: Store[] = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const open = async (dir: string) => {
  const store = await openStore(dir)
  stores.push(store)
  return store
}
/** Closes the store and opens it again, as a restart does (the meta cache starts empty). */
async function reopen(store: Store, dir: string) {
  stores.splice(stores.indexOf(store), 1)
  await store.close()
  return open(dir)
}

/** Counts the documents read from the store (the check reads the WebID document and the ACLs). */
function countReads(store: Store) {
  const counter = { reads: 0 }
  const get = store.quads.get.bind(store.quads)
  store.quads.get = ((...args: Parameters<typeof get>) => {
    counter.reads++
    return get(...args)
  }) as typeof get
  return counter
}

async function isWhole(store: Store, base: string) {
  expect(await getMeta(store, KEYS_PATH)).toBeDefined()
  expect(missingProfileStatements(await readTriples(store, base, PROFILE_PATH), base)).toEqual([])
  expect(await lostEssentialAccess(storedAclLoader(store, base), base)).toEqual([])
}

/** The damage an older dashboard could do: the card's and /keys/'s ACLs and /keys/ deleted, the card's issuer and storage gone. */
async function damage(store: Store, base: string) {
  for (const path of ['/profile/card.acl', '/keys/.acl', '/keys/']) await deleteResource(store, base, path, Date.now())
  await writeTurtle(store, base, PROFILE_PATH, '<#me> <http://xmlns.com/foaf/0.1/name> "Alice".')
}

describe('the essentials check at a restart', () => {
  test('the first start records the whole state; a restart of an unchanged pod reads no document and writes nothing', async () => {
    const dir = tempDir()
    let store = await open(dir)
    expect(await ensureOwner(store, POD, Date.now())).toBe(true)
    const recorded = await getEssentialsChecked(store)
    expect(recorded).toContain(`${PROFILE_PATH} `)
    const cardTag = (await getMeta(store, PROFILE_PATH))!.etag
    store = await reopen(store, dir)
    const counter = countReads(store)
    expect(await ensureOwner(store, POD, Date.now())).toBe(false)
    expect(counter.reads).toBe(0)
    expect(await getEssentialsChecked(store)).toBe(recorded!)
    expect((await getMeta(store, PROFILE_PATH))!.etag).toBe(cardTag)
  })

  test('a pod damaged after the record (by writes that know nothing of it) is repaired at the restart, and the repaired state recorded', async () => {
    const dir = tempDir()
    let store = await open(dir)
    await ensureOwner(store, POD, Date.now())
    const before = await getEssentialsChecked(store)
    await damage(store, POD)
    expect(await getEssentialsChecked(store)).toBe(before!)
    store = await reopen(store, dir)
    await ensureOwner(store, POD, Date.now())
    await isWhole(store, POD)
    expect((await readTriples(store, POD, PROFILE_PATH)).some(q => q.object.value === 'Alice')).toBe(true)
    const after = await getEssentialsChecked(store)
    expect(after).not.toBe(before!)
    // The repaired state is the recorded one: the next restart reads nothing
    store = await reopen(store, dir)
    const counter = countReads(store)
    await ensureOwner(store, POD, Date.now())
    expect(counter.reads).toBe(0)
  })

  test("a single changed ACL is enough to check again: the card's ACL rewritten without the public's Read is repaired", async () => {
    const dir = tempDir()
    let store = await open(dir)
    await ensureOwner(store, POD, Date.now())
    // The public loses the card's Read: only the card's ACL changes
    await writeTurtle(
      store,
      POD,
      '/profile/card.acl',
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>. <#owner> a acl:Authorization; acl:agent <${POD}/profile/card#me>; acl:accessTo <card>; acl:mode acl:Read, acl:Write, acl:Control.`,
    )
    expect(await lostEssentialAccess(storedAclLoader(store, POD), POD)).not.toEqual([])
    store = await reopen(store, dir)
    await ensureOwner(store, POD, Date.now())
    await isWhole(store, POD)
  })

  test('a record made by another version of the check, or none, is not trusted: the pod is checked and repaired', async () => {
    const dir = tempDir()
    let store = await open(dir)
    await ensureOwner(store, POD, Date.now())
    const [check, , , ...lines] = (await getEssentialsChecked(store))!.split('\n')
    const paths = lines.map(l => l.split(' ')[0]!)
    await damage(store, POD)
    store = await reopen(store, dir)
    // A record of exactly this damaged state by the same rules is trusted (nothing read, nothing repaired)...
    await recordEssentialsChecked(store, await essentialsState(store, POD, check!, paths))
    let counter = countReads(store)
    await ensureOwner(store, POD, Date.now())
    expect(counter.reads).toBe(0)
    expect(await getMeta(store, KEYS_PATH)).toBeUndefined()
    // ...but not one made by another version of the check's rules
    await recordEssentialsChecked(store, await essentialsState(store, POD, 'essentials check 0', paths))
    store = await reopen(store, dir)
    counter = countReads(store)
    await ensureOwner(store, POD, Date.now())
    expect(counter.reads).toBeGreaterThan(0)
    await isWhole(store, POD)
    // No record at all (a pod of a version before the record): checked too
    await damage(store, POD)
    await store.system.del(ESSENTIALS_CHECKED_KEY)
    store = await reopen(store, dir)
    await ensureOwner(store, POD, Date.now())
    await isWhole(store, POD)
  })

  test('export leaves the record out: an imported pod is checked at its first start, then recorded', async () => {
    const dir = tempDir()
    const store = await open(dir)
    await ensureOwner(store, POD, Date.now())
    const out = join(tempDir(), 'export')
    await exportPod(store, out)
    expect(readFileSync(join(out, STATE_FILE), 'utf8')).not.toContain(ESSENTIALS_CHECKED_KEY)
    const dest = join(tempDir(), 'data')
    const NEW = 'http://localhost:4888'
    await importPod(dest, out, NEW)
    const imported = await open(dest)
    expect(await getEssentialsChecked(imported)).toBeUndefined()
    expect(await ensureOwner(imported, NEW, Date.now())).toBe(false)
    await isWhole(imported, NEW)
    expect(await getEssentialsChecked(imported)).toContain(NEW)
  })
})
