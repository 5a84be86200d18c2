// The owner's pages refuse a bad form with the error page naming the code (exact status), and change nothing:
// the share form's fields, the selection's bounds, the editor's, and the revoke/restore buttons' hidden ids.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { FORM } from '../op/op-fixture.ts'
import { sharePage } from '../../src/admin/share-page.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'

const BASE = 'http://localhost:3995'
const TTL = '<#x> <http://purl.org/dc/terms/title> "x".'
let pod: OwnerPod
let csrf: string

beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  await pod.seed('/docs/a.ttl', TTL)
  const page = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
  csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
})
afterAll(() => pod.close())

const post = (path: string, fields: [string, string][]) =>
  pod.request(path, {
    method: 'POST',
    headers: { 'content-type': FORM, cookie: pod.owner.header(), origin: BASE },
    body: new URLSearchParams([['csrf', csrf], ...fields]).toString(),
  })
const get = (path: string) => pod.request(path, { headers: { cookie: pod.owner.header() } })
const refusal = async (res: Response) => ({ status: res.status, code: /id="error">([a-z_]+)</.exec(await res.text())?.[1] })
const aclOf = async (path: string) => getMeta(pod.store, `${path}.acl`)

describe('the share form: each field checked, nothing written', () => {
  const share = (fields: Record<string, string>) => post('/.admin/share/add', Object.entries({ path: '/docs/a.ttl', kind: 'public', read: 'yes', ...fields }))
  const cases: [string, Record<string, string>][] = [
    ['a "who" the form does not offer', { kind: 'owner' }],
    ['a person without a URL', { kind: 'agent', value: 'alice' }],
    ['nothing they may do', { read: '' }],
    ['"applies to" inside, for a document', { scope: 'inside' }],
    ['an app origin that is no origin', { origin: 'app.example' }],
  ]
  for (const [what, fields] of cases) {
    test(`${what} → 400 invalid_field`, async () => {
      expect(await refusal(await share(fields))).toEqual({ status: 400, code: 'invalid_field' })
      expect(await aclOf('/docs/a.ttl')).toBeUndefined()
    })
  }
})

describe('the selection: bounded, never the root, only what exists', () => {
  const select = (...items: string[]) =>
    get(`/.admin/files/delete-selected?${new URLSearchParams([['path', '/docs/'], ...items.map((i): [string, string] => ['item', i])])}`)
  test('more than one page of rows (100) → 400 invalid_request', async () => {
    const items = Array.from({ length: 101 }, (_, i) => `/docs/n${i}.ttl`)
    expect(await refusal(await select(...items))).toEqual({ status: 400, code: 'invalid_request' })
  })
  test('the root → 405 root_protected', async () => {
    expect(await refusal(await select('/'))).toEqual({ status: 405, code: 'root_protected' })
  })
  test('an item that is not there → 404 not_found, and the confirmed delete of it too; the other item stays', async () => {
    expect(await refusal(await select('/docs/a.ttl', '/docs/gone.ttl'))).toEqual({ status: 404, code: 'not_found' })
    const res = await post('/.admin/files/delete-selected', [
      ['path', '/docs/'],
      ['item', '/docs/a.ttl'],
      ['item', '/docs/gone.ttl'],
      ['count', '2'],
    ])
    expect(await refusal(res)).toEqual({ status: 404, code: 'not_found' })
    expect(await getMeta(pod.store, '/docs/a.ttl')).toBeDefined()
  })
})

describe('the editor', () => {
  test('a folder → 400 not_a_document', async () => {
    expect(await refusal(await get('/.admin/files/edit?path=%2Fdocs%2F'))).toEqual({ status: 400, code: 'not_a_document' })
  })
  test('a save without its text → 400 invalid_field, the document unchanged', async () => {
    const before = await getMeta(pod.store, '/docs/a.ttl')
    expect(
      await refusal(
        await post('/.admin/files/edit', [
          ['path', '/docs/a.ttl'],
          ['type', 'text/turtle'],
          ['version', before!.etag],
        ]),
      ),
    ).toEqual({ status: 400, code: 'invalid_field' })
    expect((await getMeta(pod.store, '/docs/a.ttl'))!.etag).toBe(before!.etag)
  })
})

describe('revoke and restore buttons without their hidden id', () => {
  test('a key revoke without its name → 400 invalid_field', async () => {
    expect(await refusal(await post('/.admin/keys/revoke', []))).toEqual({ status: 400, code: 'invalid_field' })
  })
  test('a grant revoke without its id → 400 invalid_field', async () => {
    expect(await refusal(await post('/.admin/grants/revoke', []))).toEqual({ status: 400, code: 'invalid_field' })
  })
  test('a restore without its id → 400 invalid_request', async () => {
    expect(await refusal(await post('/.admin/trash/restore', []))).toEqual({ status: 400, code: 'invalid_request' })
  })
})

describe('the owner guard: a refused form leads back where it was sent from', () => {
  const backLinks = async (res: Response) => [...(await res.text()).matchAll(/<a class="button secondary" href="([^"]+)">([^<]+)<\/a>/g)].map(m => [m[1], m[2]])
  test('a share form of /docs/a.ttl refused → the page leads back to sharing of /docs/a.ttl, headed "Access not changed"', async () => {
    const res = await post('/.admin/share/add', [
      ['path', '/docs/a.ttl'],
      ['kind', 'owner'],
      ['read', 'yes'],
    ])
    expect(res.status).toBe(400)
    const page = await res.clone().text()
    expect(page).toContain('Access not changed')
    // with what was typed, for the form to show it again
    expect(await backLinks(res)).toEqual([[`${sharePage('/docs/a.ttl')}&kind=owner&read=yes`.replaceAll('&', '&amp;'), 'Back to sharing']])
  })
  test('signed out → 401 login_required, the page leads back to the trash', async () => {
    const res = await pod.request(ADMIN_PATHS.trashRestore, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: BASE },
      body: new URLSearchParams([
        ['csrf', csrf],
        ['id', 'x'],
      ]).toString(),
    })
    expect(await refusal(res.clone())).toEqual({ status: 401, code: 'login_required' })
    expect(await backLinks(res)).toEqual([[ADMIN_PATHS.trashPage, 'Back to the trash']])
  })
})
