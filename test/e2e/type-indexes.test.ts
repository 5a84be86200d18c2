// Apps find the owner's data on a new pod through the Type Indexes, as real clients look for them: Inrupt's
// solid-client from the WebID profile (`solid:publicTypeIndex`), the SolidOS data browser's solid-logic through
// the profile and the preferences file (`pim:preferencesFile` → `solid:privateTypeIndex`). The documents are the
// owner's like any other: deleted, they stay deleted.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { buildThing, createThing, getSolidDataset, getThing, getThingAll, getUrl, getUrlAll, saveSolidDatasetAt, setThing } from '@inrupt/solid-client'
import { sym } from 'rdflib'
import { solidLogicSingleton } from 'solid-logic'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { ownerClient, type OwnerClient } from '../fixtures/owner-view.ts'

const SOLID = (l: string) => `http://www.w3.org/ns/solid/terms#${l}`
const PIM = (l: string) => `http://www.w3.org/ns/pim/space#${l}`
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const BOOKMARK = 'http://www.w3.org/2002/01/bookmark#Bookmark'
const TRACKER = 'http://www.w3.org/2005/01/wf/flow#Tracker'

let pod: RunningPod
let owner: OwnerClient
let base = ''
let webid = ''

beforeAll(async () => {
  pod = await startPod()
  base = pod.baseUrl
  webid = `${base}/profile/card#me`
  owner = await ownerClient(base, base, OWNER_PASSWORD)
}, 30_000)
afterAll(() => pod?.dispose())
/** The owner's session as the `fetch` solid-client takes (Bun's `typeof fetch` also names `preconnect`, unused). */
const ownerFetch = () => owner.fetchUrl as typeof fetch

describe('Inrupt solid-client', () => {
  test('finds the public type index from the WebID profile, anonymously, and it is a listed type index', async () => {
    const me = getThing(await getSolidDataset(`${base}/profile/card`), webid)!
    const index = getUrl(me, SOLID('publicTypeIndex'))
    expect(index).toBe(`${base}/settings/publicTypeIndex.ttl`)
    expect(getUrl(me, PIM('preferencesFile'))).toBe(`${base}/settings/prefs.ttl`)
    const types = getUrlAll(getThing(await getSolidDataset(index!), index!)!, RDF_TYPE)
    expect(types.sort()).toEqual([SOLID('ListedDocument'), SOLID('TypeIndex')])
  })

  test('a registration the owner saves with it is read back by anyone', async () => {
    const url = `${base}/settings/publicTypeIndex.ttl`
    const registration = buildThing(createThing({ name: 'bookmarks' }))
      .addUrl(RDF_TYPE, SOLID('TypeRegistration'))
      .addUrl(SOLID('forClass'), BOOKMARK)
      .addUrl(SOLID('instance'), `${base}/bookmarks/mine.ttl`)
      .build()
    await saveSolidDatasetAt(url, setThing(await getSolidDataset(url, { fetch: ownerFetch() }), registration), { fetch: ownerFetch() })

    const found = getThingAll(await getSolidDataset(url)).filter(
      t => getUrlAll(t, RDF_TYPE).includes(SOLID('TypeRegistration')) && getUrl(t, SOLID('forClass')) === BOOKMARK,
    )
    expect(found.map(t => getUrl(t, SOLID('instance')))).toEqual([`${base}/bookmarks/mine.ttl`])
  })

  test("the preferences file and the private type index are the owner's alone", async () => {
    await expect(getSolidDataset(`${base}/settings/prefs.ttl`)).rejects.toMatchObject({ statusCode: 401 })
    await expect(getSolidDataset(`${base}/settings/privateTypeIndex.ttl`)).rejects.toMatchObject({ statusCode: 401 })
    const prefs = getThing(await getSolidDataset(`${base}/settings/prefs.ttl`, { fetch: ownerFetch() }), webid)!
    const index = getUrl(prefs, SOLID('privateTypeIndex'))!
    expect(index).toBe(`${base}/settings/privateTypeIndex.ttl`)
    expect(getUrlAll(getThing(await getSolidDataset(index, { fetch: ownerFetch() }), index)!, RDF_TYPE)).toContain(SOLID('UnlistedDocument'))
  })
})

describe('the SolidOS data browser (solid-logic)', () => {
  test('finds the public index in the profile and the private one through the preferences file, writing nothing', async () => {
    const writes: string[] = []
    const fetcher = solidLogicSingleton.store.fetcher as unknown as { _fetch: typeof fetch }
    fetcher._fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
      if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) writes.push(`${method} ${String(input)}`)
      return owner.fetchUrl(input, init)
    }) as typeof fetch
    const scopes = await solidLogicSingleton.typeIndex.loadTypeIndexesFor(sym(webid))
    expect(scopes.map(s => [s.label, s.index.value])).toEqual([
      ['public', `${base}/settings/publicTypeIndex.ttl`],
      ['private', `${base}/settings/privateTypeIndex.ttl`],
    ])
    expect(writes).toEqual([])

    // It registers an instance in the private index the way its panes do, and finds it there again
    const privateScope = scopes.find(s => s.label === 'private')!
    expect(await solidLogicSingleton.typeIndex.registerInTypeIndex(sym(`${base}/issues/index.ttl#this`), privateScope.index, sym(TRACKER))).not.toBeNull()
    const apps = await solidLogicSingleton.typeIndex.getScopedAppsFromIndex(privateScope, sym(TRACKER))
    expect(apps.map(a => a.instance.value)).toEqual([`${base}/issues/index.ttl#this`])
    const stored = await (await owner.fetch('/settings/privateTypeIndex.ttl', { headers: { accept: 'text/turtle' } })).text()
    expect(stored).toContain(TRACKER)
  })
})

describe('the settings documents are ordinary documents of the owner', () => {
  test('the owner deletes a type index and the preferences file; a restart does not bring them back', async () => {
    for (const path of ['/settings/privateTypeIndex.ttl', '/settings/prefs.ttl']) {
      expect((await owner.fetch(path, { method: 'DELETE' })).status).toBeLessThan(300)
    }
    await pod.restart()
    owner = await ownerClient(base, base, OWNER_PASSWORD)
    for (const path of ['/settings/privateTypeIndex.ttl', '/settings/prefs.ttl']) {
      expect((await owner.fetch(path)).status).toBe(404)
    }
    expect((await owner.fetch('/settings/publicTypeIndex.ttl')).status).toBe(200)
  }, 30_000)
})
