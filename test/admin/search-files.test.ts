// Search by name across the pod: the owner's API and page read the name index the store keeps with every write.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { findNames } from '../../src/store/name-index.ts'

const BASE = 'http://localhost:3993'
let pod: OwnerPod
/** Stored paths (each segment percent-encoded) of the names people give. */
const enc = (...names: string[]) => `/${names.map(encodeURIComponent).join('/')}`
const NAMES = {
  summer: `${enc('Été 2026')}/`,
  beach: enc('Été 2026', 'plage #1 ?.jpg'),
  // `+` is kept as it is in a stored path (a PUT of `%2B` stores `+`: both name the same resource)
  percent: '/notes/100%25%20done+more.txt',
  spaced: enc('notes', 'a long  name with spaces.txt'),
}
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (const p of [NAMES.beach, NAMES.percent, NAMES.spaced]) {
    const res = await pod.api('PUT', p, { raw: 'bytes', type: 'application/octet-stream' })
    if (res.status !== 201) throw new Error(`seed ${p}: ${res.status}`)
  }
})
afterAll(() => pod.close())

const search = async (q: string, jar?: CookieJar) => pod.api('GET', `/.admin/api/search?q=${encodeURIComponent(q)}`, jar ? { jar } : {})
const found = async (q: string) => {
  const res = await search(q)
  expect(res.status).toBe(200)
  return ((await res.json()).items as { path: string; readablePath: string; href: string }[]).map(i => i.path).sort()
}

describe('GET /.admin/api/search', () => {
  test('finds a name with accents by its letters without them ("ete" finds "Été"), folders too', async () => {
    expect(await found('ete')).toEqual([NAMES.summer])
    expect(await found('été plage')).toEqual([])
    expect(await found('ÉTÉ 2026')).toEqual([NAMES.summer])
  })

  test('answers the decoded path and a link to open it', async () => {
    const res = await search('plage')
    const [item] = (await res.json()).items
    expect(item).toMatchObject({ path: NAMES.beach, readablePath: '/Été 2026/plage #1 ?.jpg', name: 'plage #1 ?.jpg', kind: 'binary' })
    expect(item.href).toBe(`/.admin/files/view?path=${encodeURIComponent(NAMES.beach)}`)
  })

  test.each([
    ['plage #1', [NAMES.beach]],
    ['1', [NAMES.beach, NAMES.percent].sort()],
    ['plage ?', [NAMES.beach]],
    ['100%', [NAMES.percent]],
    ['done+more', [NAMES.percent]],
    ['with spaces', [NAMES.spaced]],
    ['name wi', [NAMES.spaced]],
    ['nothing-like-it', []],
  ])('%j → its name', async (q, paths) => {
    expect(await found(q)).toEqual(paths)
  })

  test('a moved file is found at its new name only; a deleted one, and one in the trash, not at all', async () => {
    const from = enc('notes', 'moving target.txt')
    const to = enc('notes', 'arrived safely.txt')
    expect((await pod.api('PUT', from, { raw: 'x', type: 'text/plain' })).status).toBe(201)
    expect(await found('moving')).toEqual([from])
    expect((await pod.api('POST', '/.admin/api/move', { body: { from, to } })).status).toBe(200)
    expect(await found('moving')).toEqual([])
    expect(await found('arrived')).toEqual([to])
    expect((await pod.api('POST', '/.admin/api/trash', { body: { path: to } })).status).toBe(200)
    expect(await found('arrived')).toEqual([])
    const gone = enc('notes', 'short lived.txt')
    expect((await pod.api('PUT', gone, { raw: 'x', type: 'text/plain' })).status).toBe(201)
    expect((await pod.api('DELETE', gone)).status).toBe(204)
    expect(await found('short lived')).toEqual([])
    // Not only hidden from the results: the index itself holds none of them any more
    for (const q of ['moving', 'arrived', 'short lived']) expect((await findNames(pod.store, q, 10)).paths).toEqual([])
  })

  test('a folder moved with what it holds: everything in it is found under the new folder', async () => {
    const folder = `${enc('trip')}/`
    expect((await pod.api('PUT', `${folder}${encodeURIComponent('snow day.jpg')}`, { raw: 'x', type: 'image/jpeg' })).status).toBe(201)
    expect((await pod.api('POST', '/.admin/api/move', { body: { from: folder, to: `${enc('winter trip')}/` } })).status).toBe(200)
    expect(await found('snow')).toEqual([`${enc('winter trip')}/${encodeURIComponent('snow day.jpg')}`])
    expect(await found('trip')).toEqual([`${enc('winter trip')}/`])
    expect((await findNames(pod.store, 'trip', 10)).paths).toEqual([`${enc('winter trip')}/`])
  })

  test.each([
    ['', 'type at least one letter or digit of a name to search for'],
    ['  ?# ', 'type at least one letter or digit of a name to search for'],
    ['x'.repeat(201), 'a search may be at most 200 characters long'],
  ])('%j → 400 invalid_search', async (q, description) => {
    const res = await search(q)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'invalid_search', error_description: description })
  })

  test('a limit outside 1–200 → 400 invalid_query', async () => {
    const res = await pod.api('GET', '/.admin/api/search?q=ete&limit=0')
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_query')
  })

  test('a limit stops the results and says more may match', async () => {
    const body = await (await pod.api('GET', '/.admin/api/search?q=ete&limit=1')).json()
    expect(body.items).toHaveLength(1)
    expect(body.more).toBe(true)
  })

  test('without the owner → 401 login_required', async () => {
    const res = await search('ete', new CookieJar())
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
  })
})

describe('the search page', () => {
  test('the Files page has the search box; the results page shows decoded paths linking to them', async () => {
    const files = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
    expect(files).toContain('action="/.admin/files/search"')
    const res = await pod.request(`/.admin/files/search?q=plage`, { headers: { cookie: pod.owner.header() } })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain(`href="/.admin/files/view?path=${encodeURIComponent(NAMES.beach)}"`)
    expect(page).toContain('plage #1 ?.jpg</a>')
    expect(page).toContain('/Été 2026/</a>')
    const none = await (await pod.request('/.admin/files/search?q=zzz', { headers: { cookie: pod.owner.header() } })).text()
    expect(none).toContain('Nothing is named like “zzz”')
    expect(page).not.toContain('%C3%89')
  })

  test('an empty query shows the box alone; a bad one its refusal', async () => {
    const empty = await pod.request('/.admin/files/search?q=', { headers: { cookie: pod.owner.header() } })
    expect(empty.status).toBe(200)
    const bad = await pod.request(`/.admin/files/search?q=${'x'.repeat(201)}`, { headers: { cookie: pod.owner.header() } })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('A search may be at most 200 characters long')
  })
})
