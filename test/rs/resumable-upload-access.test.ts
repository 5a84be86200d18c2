// Resumable uploads in-process: only the agent that started an upload may use it, and an abandoned one is
// removed after its expiry (IETF draft-ietf-httpbis-resumable-upload §12; the pod's --upload-expiry-seconds).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from '../admin/admin-fixture.ts'
import { openPod, type Pod } from './pod-fixture.ts'
import { publicWriteAcl } from './pod-fixture.ts'
import { sweepExpiredUploads } from '../../src/store/upload-records.ts'
import { expectRsError } from './rs-helpers.ts'

const DRAFT = { 'upload-draft-interop-version': '8', 'upload-complete': '?0' }
const appendInit = (offset: number, body: string, more: Record<string, string> = {}): RequestInit => ({
  method: 'PATCH',
  headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(offset), ...DRAFT, ...more },
  body,
})

describe("draft-ietf-httpbis-resumable-upload §12: an upload resource is its starting agent's only", () => {
  let pod: OwnerPod
  beforeAll(async () => {
    pod = await openOwnerPod('http://localhost:3998')
    await pod.seed('/pub/', '')
    await pod.seed('/pub/.acl', publicWriteAcl(`${pod.base}/pub/`))
  })
  afterAll(() => pod?.close())

  const asOwner = (path: string, init: RequestInit) =>
    pod.request(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), cookie: pod.owner.header(), 'x-csrf-token': csrfOf() },
    })
  let csrf = ''
  const csrfOf = () => csrf

  test('another agent cannot append, query or cancel: 403 upload_not_yours, and the upload is untouched', async () => {
    csrf = (await (await pod.request('/.admin/api/csrf', { headers: { cookie: pod.owner.header() } })).json()).token
    const created = await asOwner('/pub/owner.bin', { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...DRAFT } })
    expect(created.status).toBe(201)
    const upload = created.headers.get('location')!
    await expectRsError(await pod.request(upload, appendInit(0, 'stranger')), 403, 'upload_not_yours')
    expect((await pod.request(upload, { method: 'HEAD' })).status).toBe(403)
    await expectRsError(await pod.request(upload, { method: 'GET' }), 403, 'upload_not_yours')
    await expectRsError(await pod.request(upload, { method: 'DELETE' }), 403, 'upload_not_yours')
    const mine = await asOwner(upload, { method: 'HEAD' })
    expect(mine.status).toBe(204)
    expect(mine.headers.get('upload-offset')).toBe('0')
  })

  test("an upload started anonymously is not the owner's either", async () => {
    const created = await pod.request('/pub/anon.bin', { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...DRAFT } })
    expect(created.status).toBe(201)
    await expectRsError(await asOwner(created.headers.get('location')!, appendInit(0, 'owner')), 403, 'upload_not_yours')
  })

  test("access is decided again at completion: taken away meanwhile, the write is refused with the written resource's links (§12)", async () => {
    await pod.seed('/shut/', '')
    await pod.seed('/shut/.acl', publicWriteAcl(`${pod.base}/shut/`))
    const created = await pod.request('/shut/film.bin', { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...DRAFT } })
    expect(created.status).toBe(201)
    await pod.seed(
      '/shut/.acl',
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent </profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    )
    const res = await pod.request(created.headers.get('location')!, appendInit(0, 'frames', { 'upload-complete': '?1' }))
    await expectRsError(res, 401, 'unauthenticated')
    expect(res.headers.get('upload-complete')).toBe('?1')
    // The Link names the refused write's target (its ACL and types), not the upload resource's.
    expect(res.headers.get('link')).toBe(`<http://www.w3.org/ns/ldp#Resource>; rel="type", <${pod.base}/shut/film.bin.acl>; rel="acl"`)
    expect((await asOwner('/shut/film.bin', {})).status).toBe(404)
  })
})

describe('abandoned uploads (--upload-expiry-seconds, default 86400)', () => {
  let pod: Pod
  let clock = Date.now()
  beforeAll(async () => {
    pod = await openPod({ publicWrite: ['/pub/'], now: () => clock })
  })
  afterAll(() => pod?.close())

  test('after a day without activity the upload resource is gone and the sweep removes its bytes', async () => {
    const created = await pod.request('/pub/abandoned.bin', { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...DRAFT } })
    const upload = new URL(created.headers.get('location')!).pathname
    const id = upload.split('/').at(-1)!
    expect((await pod.request(upload, appendInit(0, 'half of it'))).status).toBe(204)
    clock += 86_399_000
    expect(await sweepExpiredUploads(pod.store, clock)).toBe(0)
    expect(pod.store.blobs.partialSize(id)).toBe(10)
    clock += 2_000
    expect((await pod.request(upload, { method: 'HEAD' })).status).toBe(404)
    await expectRsError(await pod.request(upload, { method: 'GET' }), 404, 'not_found')
    expect(await sweepExpiredUploads(pod.store, clock)).toBe(1)
    expect(pod.store.blobs.partialSize(id)).toBeUndefined()
  })

  test('activity keeps it: an append restarts the day', async () => {
    const created = await pod.request('/pub/active.bin', { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...DRAFT } })
    const upload = new URL(created.headers.get('location')!).pathname
    clock += 80_000_000
    expect((await pod.request(upload, appendInit(0, 'more'))).status).toBe(204)
    clock += 80_000_000
    const head = await pod.request(upload, { method: 'HEAD' })
    expect(head.status).toBe(204)
    expect(head.headers.get('upload-limit')).toBe(`max-age=${86_400 - 80_000}`)
  })
})
