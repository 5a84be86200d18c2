// /settings/ and its three documents are linked from the owner's profile by URL: every face that moves
// (the move API, the move page, Move selected) refuses to move or rename them (409 protected_resource),
// while deleting them stays the owner's choice (README: a deleted one is not made again).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { SETTINGS_PATHS } from '../../src/http/pod-paths.ts'
import { FORM, form } from '../op/op-fixture.ts'
import { pageError } from './owner-forms.ts'

const BASE = 'http://localhost:3997'
let pod: OwnerPod
let csrf: string
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  await pod.seed('/elsewhere/', '')
  await pod.seed('/settings/mine.ttl', '<#x> <http://purl.org/dc/terms/title> "mine".')
  const page = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
  csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
})
afterAll(() => pod.close())

const SETTINGS_DOCS = [SETTINGS_PATHS.preferences, SETTINGS_PATHS.publicIndex, SETTINGS_PATHS.privateIndex]
const moveApi = (from: string, to: string) => pod.api('POST', '/.admin/api/move', { body: { from, to } })
const postForm = (path: string, fields: [string, string][]) =>
  pod.request(path, {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
    body: new URLSearchParams([['csrf', csrf], ...fields]).toString(),
  })
async function expectAllInPlace() {
  for (const p of [SETTINGS_PATHS.container, ...SETTINGS_DOCS]) expect(await getMeta(pod.store, p)).toBeDefined()
  expect(await getMeta(pod.store, '/elsewhere/settings/')).toBeUndefined()
}

describe('moving the settings the profile links to', () => {
  test.each([
    ['renaming the folder', '/settings/', '/preferences/'],
    ['moving the folder', '/settings/', '/elsewhere/settings/'],
    ...SETTINGS_DOCS.map(p => [`moving ${p} out`, p, `/elsewhere/${p.split('/').pop()}`]),
    ...SETTINGS_DOCS.map(p => [`renaming ${p}`, p, `${p}.old`]),
  ])("the API refuses %s: 409 protected_resource, naming the profile's links, nothing moved", async (_what, from, to) => {
    const res = await moveApi(from, to)
    expect(res.status).toBe(409)
    const body = await res.json()
    expect(body.error).toBe('protected_resource')
    expect(body.error_description).toContain("is linked from the owner's profile")
    expect(body.error_description).toContain('moving or renaming it would break those links')
    await expectAllInPlace()
  })

  test('the move page refuses too: 409 protected_resource', async () => {
    const res = await postForm('/.admin/files/move', [
      ['path', SETTINGS_PATHS.publicIndex],
      ['name', 'index.ttl'],
      ['folder', '/elsewhere/'],
    ])
    expect(res.status).toBe(409)
    expect(await pageError(res)).toBe('protected_resource')
    await expectAllInPlace()
  })

  test('Move selected refuses the folder: 409 protected_resource', async () => {
    const res = await postForm('/.admin/files/move-selected', [
      ['item', SETTINGS_PATHS.container],
      ['folder', '/elsewhere/'],
    ])
    expect(res.status).toBe(409)
    expect(await pageError(res)).toBe('protected_resource')
    await expectAllInPlace()
  })

  test('another document of the owner in /settings/ moves as any other', async () => {
    expect((await moveApi('/settings/mine.ttl', '/elsewhere/mine.ttl')).status).toBe(200)
    expect(await getMeta(pod.store, '/elsewhere/mine.ttl')).toBeDefined()
  })

  test('deleting one stays allowed (the README: a deleted one is not made again)', async () => {
    const res = await pod.api('POST', '/.admin/api/trash', { body: { path: SETTINGS_PATHS.privateIndex } })
    expect(res.status).toBe(200)
    expect(await getMeta(pod.store, SETTINGS_PATHS.privateIndex)).toBeUndefined()
  })
})
