// The Files page's Delete puts an item in the trash; what the trash cannot keep (a folder of more than 2,000
// items) is not deleted at all: a page of its own asks whether to delete it for good, then does exactly that.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { TRASH_MAX_ITEMS } from '../../src/store/trash.ts'
import { FORM } from '../op/op-fixture.ts'

const BASE = 'http://localhost:3994'
const TTL = '<#x> <http://purl.org/dc/terms/title> "x".'
const BIG = '/Gro%C3%9Fer%20Ordner%20%231/'
let pod: OwnerPod
let csrf: string

beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (let i = 0; i <= TRASH_MAX_ITEMS; i++) await pod.seed(`${BIG}n${i}.ttl`, TTL)
  await pod.seed('/small/a.ttl', TTL)
  const page = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
  csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
}, 120_000)
afterAll(() => pod.close())

const post = (fields: Record<string, string>) =>
  pod.request('/.admin/delete', {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
    body: new URLSearchParams({ csrf, ...fields }).toString(),
  })
const exists = async (path: string) => (await getMeta(pod.store, path)) !== undefined
const COUNT = String(TRASH_MAX_ITEMS + 1)

describe('Delete selected with a folder too large for the trash', () => {
  test('the confirmation page already says so (413 too_large_for_trash), asking nothing it could not carry out', async () => {
    const res = await pod.request(
      `/.admin/files/delete-selected?${new URLSearchParams([
        ['path', '/'],
        ['item', '/small/a.ttl'],
        ['item', BIG],
      ])}`,
      { headers: { cookie: pod.owner.header() } },
    )
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('<code id="error">too_large_for_trash</code>')
  })
  test('is refused before anything goes (413 too_large_for_trash, naming the folder); the other item stays too', async () => {
    const res = await pod.request('/.admin/files/delete-selected', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
      body: new URLSearchParams([
        ['csrf', csrf],
        ['path', '/'],
        ['item', '/small/a.ttl'],
        ['item', BIG],
        ['count', String(TRASH_MAX_ITEMS + 3)],
      ]).toString(),
    })
    expect(res.status).toBe(413)
    const page = await res.text()
    expect(page).toContain('<code id="error">too_large_for_trash</code>')
    expect(page).toContain('Großer Ordner #1/ holds 2001 items')
    expect(await exists('/small/a.ttl')).toBe(true)
    expect(await exists(`${BIG}n0.ttl`)).toBe(true)
  })
})

describe('Delete of a folder too large for the trash', () => {
  test('is refused by the trash (413 too_large_for_trash) with a page asking to delete it for good; nothing is deleted', async () => {
    const res = await post({ path: BIG, count: COUNT })
    expect(res.status).toBe(413)
    const page = await res.text()
    expect(page).toContain('<code id="error">too_large_for_trash</code>')
    expect(page).toContain('is too large for the trash, so it cannot be restored once deleted')
    expect(page).toContain('<input type="hidden" name="forever" value="yes">')
    expect(page).toContain(`<input type="hidden" name="count" value="${COUNT}">`)
    expect(await exists(BIG)).toBe(true)
    expect(await exists(`${BIG}n0.ttl`)).toBe(true)
  })

  test('for good with another count than the folder holds → 409 confirmation_required, nothing deleted', async () => {
    const res = await post({ path: BIG, count: '5', forever: 'yes' })
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('<code id="error">confirmation_required</code>')
    expect(await exists(`${BIG}n${TRASH_MAX_ITEMS}.ttl`)).toBe(true)
  })

  test('for good with the count the page named: the folder and everything in it are gone, and the notice says so', async () => {
    const res = await post({ path: BIG, count: COUNT, forever: 'yes' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('done=deleteForGood')
    expect(await exists(BIG)).toBe(false)
    expect(await exists(`${BIG}n0.ttl`)).toBe(false)
  })

  test('a folder the trash can keep still goes to the trash, not for good', async () => {
    const res = await post({ path: '/small/', count: '1' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('done=delete&')
    const trash = await (await pod.request('/.admin/trash', { headers: { cookie: pod.owner.header() } })).text()
    expect(trash).toContain('small')
  })
})
