// A data directory made by an older solopod (data format 2, test/fixtures/format2-pod.tar.gz) starts with today's
// code: it gains the preferences file and the type indexes, linked from the profile, and keeps everything else
// byte for byte — every resource as the owner saw it before, every database key and value, every file.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import { startPod, type RunningPod } from './start-server.ts'
import { copyFormat2Pod, FIXTURE_BASE, FIXTURE_PASSWORD, readBlobFiles, readDatabase, type Format2Pod } from '../fixtures/format2-pod.ts'
import { ownerClient, readOwnerView, type OwnerClient } from '../fixtures/owner-view.ts'
import { FORMAT_VERSION } from '../../src/store/open-store.ts'
import { ESSENTIALS_CHECKED_KEY } from '../../src/store/essentials-record.ts'

const SOLID = (l: string) => `http://www.w3.org/ns/solid/terms#${l}`
const PIM = (l: string) => `http://www.w3.org/ns/pim/space#${l}`
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const WEBID = `${FIXTURE_BASE}/profile/card#me`
const SETTINGS = [
  '/settings/',
  '/settings/.acl',
  '/settings/prefs.ttl',
  '/settings/privateTypeIndex.ttl',
  '/settings/publicTypeIndex.ttl',
  '/settings/publicTypeIndex.ttl.acl',
]
/** What the migration changes besides adding /settings/: the root and /profile/ list a changed member, the card gains links. */
const CHANGED = ['/', '/profile/', '/profile/card']

let fixture: Format2Pod
let dbBefore: Map<string, string>
let filesBefore: Map<string, string>
let pod: RunningPod
let owner: OwnerClient
let listen = ''

beforeAll(async () => {
  fixture = await copyFormat2Pod()
  dbBefore = await readDatabase(fixture.dataDir)
  filesBefore = readBlobFiles(fixture.dataDir)
  expect(dbBefore.get('!system!format-version')).toBe(Buffer.from('2').toString('hex'))
  // Served at the base URL it was made for, listening on a port the system picks
  pod = await startPod({ dataDir: fixture.dataDir, extraArgs: ['--base-url', FIXTURE_BASE] })
  listen = `http://127.0.0.1:${pod.port}`
  owner = await ownerClient(listen, FIXTURE_BASE, FIXTURE_PASSWORD)
}, 60_000)
afterAll(async () => {
  await pod?.stop()
  fixture?.dispose()
})

const triplesOf = async (res: Response, path: string) => {
  expect(res.status).toBe(200)
  return new Parser({ baseIRI: FIXTURE_BASE + path }).parse(await res.text())
}
const has = (triples: { subject: { value: string }; predicate: { value: string }; object: { value: string } }[], s: string, p: string, o: string) =>
  triples.some(q => q.subject.value === s && q.predicate.value === p && q.object.value === o)
const migrationLines = () =>
  pod
    .stdout()
    .split('\n')
    .filter(l => l.includes('"store.migrated"'))
    .map(l => JSON.parse(l) as Record<string, unknown>)

describe('a format-2 data directory at its first start with format 3', () => {
  test('the log tells of the migration once, at info', () => {
    const lines = migrationLines()
    // format 3, then format 4 (the name index, store/name-index.ts), then 5 (the versions' time index)
    expect(lines.map(l => l.migration)).toEqual(['type_indexes', 'name_index', 'version_times'])
    expect(lines[0]).toMatchObject({ level: 'info', from: 2, to: 3, migration: 'type_indexes' })
    expect(lines[0]!.added).toEqual(expect.arrayContaining(['/settings/prefs.ttl', '/profile/card statements']))
  })

  test("the profile links the preferences file and the public type index, and keeps the owner's statements", async () => {
    const card = await triplesOf(await fetch(`${listen}/profile/card`, { headers: { accept: 'text/turtle' } }), '/profile/card')
    expect(has(card, WEBID, PIM('preferencesFile'), `${FIXTURE_BASE}/settings/prefs.ttl`)).toBe(true)
    expect(has(card, WEBID, SOLID('publicTypeIndex'), `${FIXTURE_BASE}/settings/publicTypeIndex.ttl`)).toBe(true)
    expect(card.some(q => q.object.value === 'Zoë Example')).toBe(true)
    expect(card.some(q => q.object.value === 'zoë+%#')).toBe(true)
  })

  test('the public type index is a listed type index anyone reads; its ACL says so', async () => {
    const index = await triplesOf(
      await fetch(`${listen}/settings/publicTypeIndex.ttl`, { headers: { accept: 'text/turtle' } }),
      '/settings/publicTypeIndex.ttl',
    )
    const url = `${FIXTURE_BASE}/settings/publicTypeIndex.ttl`
    expect(has(index, url, RDF_TYPE, SOLID('TypeIndex'))).toBe(true)
    expect(has(index, url, RDF_TYPE, SOLID('ListedDocument'))).toBe(true)
    const acl = await triplesOf(
      await owner.fetch('/settings/publicTypeIndex.ttl.acl', { headers: { accept: 'text/turtle' } }),
      '/settings/publicTypeIndex.ttl.acl',
    )
    expect(has(acl, `${url}.acl#public`, 'http://www.w3.org/ns/auth/acl#agentClass', 'http://xmlns.com/foaf/0.1/Agent')).toBe(true)
  })

  test("the preferences file names the private type index; both are the owner's alone", async () => {
    const prefs = await triplesOf(await owner.fetch('/settings/prefs.ttl', { headers: { accept: 'text/turtle' } }), '/settings/prefs.ttl')
    expect(has(prefs, `${FIXTURE_BASE}/settings/prefs.ttl`, RDF_TYPE, PIM('ConfigurationFile'))).toBe(true)
    expect(has(prefs, WEBID, SOLID('privateTypeIndex'), `${FIXTURE_BASE}/settings/privateTypeIndex.ttl`)).toBe(true)
    const index = await triplesOf(await owner.fetch('/settings/privateTypeIndex.ttl', { headers: { accept: 'text/turtle' } }), '/settings/privateTypeIndex.ttl')
    expect(has(index, `${FIXTURE_BASE}/settings/privateTypeIndex.ttl`, RDF_TYPE, SOLID('UnlistedDocument'))).toBe(true)
    for (const path of ['/settings/', '/settings/prefs.ttl', '/settings/privateTypeIndex.ttl']) {
      expect((await fetch(listen + path, { headers: { accept: 'text/turtle' } })).status).toBe(401)
    }
    const acl = await triplesOf(await owner.fetch('/settings/.acl', { headers: { accept: 'text/turtle' } }), '/settings/.acl')
    expect(acl.filter(q => q.predicate.value === 'http://www.w3.org/ns/auth/acl#agent').map(q => q.object.value)).toEqual([WEBID])
    expect(acl.some(q => q.predicate.value === 'http://www.w3.org/ns/auth/acl#agentClass')).toBe(false)
  })

  test('every other resource and ACL is what the owner saw before: status, type, ETag and body bytes', async () => {
    const now = await readOwnerView(owner, FIXTURE_BASE)
    expect(Object.keys(now).sort()).toEqual([...Object.keys(fixture.ownerView), ...SETTINGS].sort())
    for (const [path, before] of Object.entries(fixture.ownerView)) {
      if (!CHANGED.includes(path)) expect({ path, ...now[path] }).toEqual({ path, ...before })
    }
  })

  test('a second start does not migrate again; then the database and the files hold all they held, byte for byte', async () => {
    const etag = async () => (await owner.fetch('/profile/card', { method: 'HEAD' })).headers.get('etag')
    const cardEtag = await etag()
    await pod.restart()
    owner = await ownerClient(listen, FIXTURE_BASE, FIXTURE_PASSWORD)
    expect(migrationLines()).toHaveLength(3)
    expect(await etag()).toBe(cardEtag)
    await pod.stop()

    const after = await readDatabase(fixture.dataDir)
    const now = Date.now()
    // Keys the migration may change: the metadata of what CHANGED lists (ETag, size, modified) and the format.
    const mayChange = new Set([...CHANGED.map(p => `!meta!${p}`), '!system!format-version'])
    const changed: string[] = []
    for (const [key, value] of dbBefore) {
      if (mayChange.has(key) || after.get(key) === value) continue
      // The expired-record sweep removes records that expired over an hour before the start
      const expired = key.startsWith('!records!') && (JSON.parse(Buffer.from(value, 'hex').toString()) as { exp: number }).exp < now
      if (!(expired && !after.has(key))) changed.push(key)
    }
    expect(changed).toEqual([])
    expect(after.get('!system!format-version')).toBe(Buffer.from(String(FORMAT_VERSION)).toString('hex'))
    const graph = (key: string) => (key.startsWith('GSPO') ? key.split('\0\0')[1] : undefined)
    const added = [...after.keys()].filter(k => !dbBefore.has(k))
    // New: /settings/ and what it holds, the card's links (and their version), and the records a running pod keeps (the owner's
    // login sessions of this test, the UMA ticket key made at the first refusal)
    const unexpected = added.filter(
      k =>
        !(
          k.startsWith('!meta!/settings/') ||
          k.startsWith('!contains!/settings/') ||
          k === '!contains!/\0/settings/' ||
          graph(k)?.startsWith(`${FIXTURE_BASE}/settings/`) ||
          k.startsWith('!records!') ||
          // format 4: the name index of every resource (store/name-index.ts)
          k.startsWith('!names!') ||
          // the record that a start found the essential resources whole (store/essentials-record.ts)
          k === `!system!${ESSENTIALS_CHECKED_KEY}`
        ) &&
        graph(k) !== `${FIXTURE_BASE}/profile/card` &&
        !k.startsWith('!versions!/profile/card\0') &&
        // the versions' time index: the card's version, and the creations of /settings/ and what it holds
        !/^!version-times!\d{15}\0(\/profile\/card\0\d{15}\0\d{15}|\/settings\/[^\0]*\0created)$/.test(k),
    )
    expect(unexpected).toEqual([])
    // The card as it was stays as one version (issue 36: every change keeps the state it replaced, the pod's own too)
    expect(added.filter(k => k.startsWith('!versions!'))).toHaveLength(1)
    // The card gains exactly the two links
    expect(
      added
        .filter(k => graph(k) === `${FIXTURE_BASE}/profile/card`)
        .map(k => k.split('\0\0')[3])
        .sort(),
    ).toEqual([PIM('preferencesFile'), SOLID('publicTypeIndex')])
    expect(readBlobFiles(fixture.dataDir)).toEqual(filesBefore)
  }, 60_000)
})
