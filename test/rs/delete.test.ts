// DELETE: documents, empty containers, their ACLs; the storage root and its ACL stay.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, publicWriteAcl, type Pod } from './pod-fixture.ts'
import { LDP, expectRsError, expectStatus, hasTriple, randomBytes, snapshotStore, triplesOf, withBody, withTurtle } from './rs-helpers.ts'
import { storedBytes } from '../store/binary-content.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const del = (path: string, headers: Record<string, string> = {}) => pod.request(path, { method: 'DELETE', headers })
const listed = async (container: string, member: string) =>
  hasTriple(await triplesOf(await pod.request(container), url(container)), url(container), LDP('contains'), url(member))

describe('Solid Protocol §5.3 DELETE', () => {
  test('deletes a document: 204, then GET is 404 and the container no longer lists it', async () => {
    await expectStatus(pod.request('/pub/del/doc', withTurtle('PUT', '')), 201)
    expect(await listed('/pub/del/', '/pub/del/doc')).toBe(true)
    expect((await del('/pub/del/doc')).status).toBe(204)
    expect((await pod.request('/pub/del/doc')).status).toBe(404)
    expect(await listed('/pub/del/', '/pub/del/doc')).toBe(false)
  })

  test('deletes a binary and its bytes', async () => {
    await expectStatus(pod.request('/pub/del/bin', withBody('PUT', 'application/octet-stream', randomBytes(300))), 201)
    expect((await del('/pub/del/bin')).status).toBe(204)
    expect(await storedBytes(pod.store, '/pub/del/bin')).toBeUndefined()
  })

  test('deletes an empty container', async () => {
    await expectStatus(pod.request('/pub/del/empty/', { method: 'PUT' }), 201)
    expect((await del('/pub/del/empty/')).status).toBe(204)
    expect((await pod.request('/pub/del/empty/')).status).toBe(404)
    expect(await listed('/pub/del/', '/pub/del/empty/')).toBe(false)
  })

  test('deleting a resource deletes its ACL too', async () => {
    await expectStatus(pod.request('/pub/del/guarded', withTurtle('PUT', '')), 201)
    await expectStatus(pod.request('/pub/del/guarded.acl', withTurtle('PUT', publicWriteAcl(url('/pub/del/guarded')))), 201)
    expect((await del('/pub/del/guarded')).status).toBe(204)
    expect(await pod.store.meta.get('/pub/del/guarded.acl')).toBeUndefined()
    expect((await pod.request('/pub/del/guarded.acl')).status).toBe(404)
  })

  test('a resource that does not exist is 404 not_found', async () => {
    await expectRsError(await del('/pub/del/never'), 404, 'not_found')
  })

  test('a non-empty container is 409 container_not_empty and nothing is deleted', async () => {
    await expectStatus(pod.request('/pub/del/full/child', withTurtle('PUT', '')), 201)
    const before = await snapshotStore(pod.store)
    const text = await expectRsError(await del('/pub/del/full/'), 409, 'container_not_empty')
    expect(text.length).toBeGreaterThan('container_not_empty: '.length)
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a container holding only its own ACL counts as empty', async () => {
    await expectStatus(pod.request('/pub/del/acl-only/', { method: 'PUT' }), 201)
    await expectStatus(pod.request('/pub/del/acl-only/.acl', withTurtle('PUT', publicWriteAcl(url('/pub/del/acl-only/')))), 201)
    expect((await del('/pub/del/acl-only/')).status).toBe(204)
    expect(await pod.store.meta.get('/pub/del/acl-only/.acl')).toBeUndefined()
  })
})

describe('Solid Protocol §5.4 the storage root and its ACL cannot be deleted', () => {
  // A pod whose root the public may write and control: the refusal left is the method's
  let open: Pod
  beforeAll(async () => {
    open = await openPod({ publicWrite: ['/'] })
  })
  afterAll(() => open.close())

  test.each(['/', '/.acl'])('DELETE %s is 405 root_protected, Allow lacks DELETE, and the store is unchanged', async path => {
    const before = await snapshotStore(open.store)
    const res = await open.request(path, { method: 'DELETE' })
    expect(res.headers.get('allow')).not.toContain('DELETE')
    await expectRsError(res, 405, 'root_protected')
    expect(await snapshotStore(open.store)).toBe(before)
  })

  test.each(['/', '/.acl'])('DELETE %s by an agent without access is 401 first, with no Allow', async path => {
    const before = await snapshotStore(pod.store)
    const res = await del(path)
    await expectRsError(res, 401, 'unauthenticated')
    expect(res.headers.get('allow')).toBeNull()
    expect(await snapshotStore(pod.store)).toBe(before)
  })
})
