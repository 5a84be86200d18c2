// The Files page's forms (new folder, upload, delete for good) act through the operations layer as the owner
// (issue 35): each write the pod's rules refuse is refused with the status and code the same write gets over
// LDP from the owner's dashboard session, and nothing is written.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE } from '../op/op-fixture.ts'
import { getMeta } from '../../src/store/resources.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'

let ctx: FormPod
beforeAll(async () => {
  ctx = await openFormPod()
})
afterAll(() => ctx.pod.close())

interface Refusal {
  readonly status: number
  readonly code: string | undefined
}

const upload = (folder: string, file: File, replace = false) => {
  const body = new FormData()
  body.append('csrf', ctx.csrf)
  body.append('path', folder)
  if (replace) body.append('replace', 'yes')
  body.append('file', file)
  return ctx.pod.request('/.admin/files/upload', { method: 'POST', headers: { cookie: ctx.owner.header(), origin: BASE }, body })
}

/** The same write over LDP, as the dashboard's script sends it: the owner's cookie, the CSRF header, problem details. */
const ldp = async (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Refusal> => {
  const res = await ctx.pod.request(path, {
    method,
    headers: { cookie: ctx.owner.header(), origin: BASE, 'x-csrf-token': ctx.csrf, accept: 'application/problem+json', ...headers },
    ...(body === undefined ? {} : { body }),
  })
  return { status: res.status, code: ((await res.json()) as { error: string }).error }
}

const shown = async (res: Response): Promise<Refusal> => ({ status: res.status, code: await pageError(res) })

describe("the Files page's writes are refused as the same LDP write is", () => {
  test('an upload into a reserved path → 405 reserved_path, nothing stored', async () => {
    const page = await shown(await upload('/.admin/', new File(['x'], 'x.txt', { type: 'text/plain' })))
    expect(page).toEqual({ status: 405, code: 'reserved_path' })
    expect(await ldp('PUT', '/.admin/x.txt', { 'content-type': 'text/plain', 'if-none-match': '*' }, 'x')).toEqual(page)
    expect(await getMeta(ctx.pod.store, '/.admin/x.txt')).toBeUndefined()
  })

  test('an upload replacing the WebID document with a file → 409 webid_statement_required, the document kept', async () => {
    const before = await getMeta(ctx.pod.store, '/profile/card')
    const page = await shown(await upload('/profile/', new File(['not RDF'], 'card', { type: 'text/plain' }), true))
    expect(page).toEqual({ status: 409, code: 'webid_statement_required' })
    expect(await ldp('PUT', '/profile/card', { 'content-type': 'text/plain' }, 'not RDF')).toEqual(page)
    expect((await getMeta(ctx.pod.store, '/profile/card'))?.etag).toBe(before!.etag)
  })

  test('a new folder in a reserved path → 405 reserved_path', async () => {
    const page = await shown(await ctx.post('/.admin/files/folder', { csrf: ctx.csrf, path: '/.well-known/', name: 'x' }))
    expect(page).toEqual({ status: 405, code: 'reserved_path' })
    expect(await ldp('PUT', '/.well-known/x/', { 'content-type': 'text/turtle', 'if-none-match': '*' }, '')).toEqual(page)
  })

  test("deleting a reserved path for good → 405 reserved_path, as the RS's DELETE", async () => {
    const page = await shown(await ctx.post('/.admin/delete', { csrf: ctx.csrf, path: '/.admin/x.txt', forever: 'yes' }))
    expect(page).toEqual({ status: 405, code: 'reserved_path' })
    expect(await ldp('DELETE', '/.admin/x.txt')).toEqual(page)
  })

  test('deleting the WebID document for good → 409 protected_resource, the document kept', async () => {
    const page = await shown(await ctx.post('/.admin/delete', { csrf: ctx.csrf, path: '/profile/card', forever: 'yes' }))
    expect(page).toEqual({ status: 409, code: 'protected_resource' })
    expect(await ldp('DELETE', '/profile/card')).toEqual(page)
    expect(await getMeta(ctx.pod.store, '/profile/card')).toBeDefined()
  })
})
