// Scripts and bots in the owner's dashboard (issue 24): GET/POST /.admin/api/credentials and DELETE …/{id}, and
// the page without JavaScript with its Make and Remove forms; owner only, CSRF-checked, each refusal exact.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, testApiGuards, testFormGuards, type FormPod } from './owner-forms.ts'
import { getClientCredential } from '../../src/account/client-credentials.ts'

let ctx: FormPod
let pod: TestPod
beforeAll(async () => {
  ctx = await openFormPod()
  pod = ctx.pod
})
afterAll(() => pod.close())

function api(method: string, path: string, o: { jar?: CookieJar; csrf?: boolean; origin?: string; body?: unknown } = {}) {
  const jar = o.jar ?? ctx.owner
  return pod.request(path, {
    method,
    headers: {
      cookie: jar.header(),
      ...(o.csrf === false ? {} : { 'x-csrf-token': ctx.csrf }),
      ...(o.origin ? { origin: o.origin } : {}),
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  })
}
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error
const API = '/.admin/api/credentials'

describe('the credentials API is for the owner only', () => {
  const routes: [string, string][] = [
    ['GET', API],
    ['POST', API],
    ['DELETE', `${API}/script-x`],
  ]
  testApiGuards(api, routes)
  test('POST without X-CSRF-Token → 403 csrf_failed, and nothing is made', async () => {
    const res = await api('POST', API, { csrf: false, body: { name: 'Sneaky' } })
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
    expect(JSON.stringify(await (await api('GET', API)).json())).not.toContain('Sneaky')
  })
})

describe('POST /.admin/api/credentials', () => {
  test('makes a credential limited to folders (names with spaces and accents), answers its secret once, no-store', async () => {
    const res = await api('POST', API, {
      body: {
        name: 'Photo backup',
        folders: [
          { path: '/Été photos/', right: 'write' },
          { path: '/notes/', right: 'read' },
        ],
      },
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const made = await res.json()
    expect(made).toMatchObject({
      name: 'Photo backup',
      lastUsedAt: null,
      tokenEndpoint: 'http://localhost:3998/.oidc/token',
      folders: [
        { path: '/%C3%89t%C3%A9%20photos/', right: 'write' },
        { path: '/notes/', right: 'read' },
      ],
      access: 'only to read and write /Été photos/, to read /notes/',
    })
    expect(made.clientId).toStartWith('script-')
    expect(made.clientSecret).toMatch(/^[\w-]{43}$/)
    // the list never shows the secret again
    const list = await (await api('GET', API)).json()
    expect(list.find((c: { clientId: string }) => c.clientId === made.clientId)).toEqual({
      clientId: made.clientId,
      name: 'Photo backup',
      createdAt: made.createdAt,
      lastUsedAt: null,
      folders: made.folders,
      access: made.access,
    })
    expect(JSON.stringify(list)).not.toContain(made.clientSecret)
  })

  test('without folders: full access as the owner, said so', async () => {
    const made = await (await api('POST', API, { body: { name: 'Everything' } })).json()
    expect(made).toMatchObject({ folders: null, access: 'full access as you (everything you may do)' })
  })

  test.each([
    [{ name: '' }, 'invalid_request'],
    [{ name: 'x'.repeat(101) }, 'invalid_request'],
    [{ name: 'two\nlines' }, 'invalid_request'],
    [{ name: 'ok', folders: '/photos/' }, 'invalid_request'],
    [{ name: 'ok', folders: [] }, 'invalid_scope'],
    [{ name: 'ok', folders: [{ path: 'photos', right: 'write' }] }, 'invalid_scope'],
    [{ name: 'ok', folders: [{ path: '/photos/', right: 'control' }] }, 'invalid_scope'],
  ])('refuses %p with 400 %s', async (body, code) => {
    const res = await api('POST', API, { body })
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe(code)
  })
})

test('a refused name leaves no folder made and no folder limit behind', async () => {
  const before = (await pod.deps.appScopes.list()).length
  expect((await api('POST', API, { body: { name: ' ', folders: [{ path: '/never-made/', right: 'write' }] } })).status).toBe(400)
  expect((await api('GET', '/never-made/')).status).toBe(404)
  expect((await pod.deps.appScopes.list()).length).toBe(before)
})

describe('DELETE /.admin/api/credentials/{id}', () => {
  test('removes it: 204, then 404 not_found', async () => {
    const made = await (await api('POST', API, { body: { name: 'Temporary' } })).json()
    expect((await api('DELETE', `${API}/${made.clientId}`)).status).toBe(204)
    expect(await getClientCredential(pod.store, made.clientId, pod.clock.now)).toBeUndefined()
    const again = await api('DELETE', `${API}/${made.clientId}`)
    expect(again.status).toBe(404)
    expect(await errorOf(again)).toBe('not_found')
  })
})

describe('the page without JavaScript', () => {
  const PAGE = '/.admin/credentials'
  testFormGuards(
    () => ctx,
    [
      ['/.admin/credentials/add', { name: 'Bot', access: 'full' }],
      ['/.admin/credentials/remove', { id: 'script-x' }],
    ],
  )

  test('without a session, the page leads to the login page', async () => {
    const res = await pod.request(PAGE)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('/.oidc/login?return=/.admin/credentials')
  })

  test('Make shows the secret once on its answer; the page lists it after, without the secret; Remove removes it', async () => {
    const made = await ctx.post('/.admin/credentials/add', {
      csrf: ctx.csrf,
      name: 'Nightly sync',
      access: 'folders',
      new_folder: '/Été photos/',
      new_right: 'read',
    })
    expect(made.status).toBe(200)
    expect(made.headers.get('cache-control')).toBe('no-store')
    const page = await made.text()
    const secret = /client_secret=([\w-]+)/.exec(page)?.[1]
    const id = /client_id=(script-[\w-]+)/.exec(page)?.[1]
    expect(secret).toHaveLength(43)
    expect(page).toContain('only to read /Été photos/')
    const later = await (await pod.request(PAGE, { headers: { cookie: ctx.owner.header() } })).text()
    expect(later).toContain('Nightly sync')
    expect(later).toContain(id!)
    expect(later).not.toContain(secret!)
    const removed = await ctx.post('/.admin/credentials/remove', { csrf: ctx.csrf, id: id! })
    expect(removed.status).toBe(303)
    expect(removed.headers.get('location')).toBe('/.admin/credentials?done=removed')
    expect(await getClientCredential(pod.store, id!, pod.clock.now)).toBeUndefined()
  })

  test('a folder that is not a path: 400 invalid_scope on the error page', async () => {
    const res = await ctx.post('/.admin/credentials/add', { csrf: ctx.csrf, name: 'Bad', access: 'folders', new_folder: 'photos', new_right: 'write' })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_scope')
  })

  test('removing a credential that is not there: 404 not_found', async () => {
    const res = await ctx.post('/.admin/credentials/remove', { csrf: ctx.csrf, id: 'script-nothing' })
    expect(res.status).toBe(404)
    expect(await pageError(res)).toBe('not_found')
  })
})
