// What a client is told when the pod itself cannot complete a request, each with its exact status and code:
// a storage whose root ACL is gone (WAC §6.2: never a silent deny), a body whose parse takes too long.

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { expectRsError, expectStatus, snapshotStore, withTurtle } from './rs-helpers.ts'
import { deleteResource } from '../../src/store/resources.ts'
import { PARSE_TIMEOUT_MS } from '../../src/rdf/parse-off-thread.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(() => pod.close())

describe('a body whose parse takes longer than the pod allows', () => {
  const saved = { ...PARSE_TIMEOUT_MS }
  afterEach(() => Object.assign(PARSE_TIMEOUT_MS, saved))
  // Past the size parsed inline (64 KiB of Turtle), so it goes to the parse worker
  const big = Array.from({ length: 3_000 }, (_, i) => `<#s${i}> <#p> "value ${i}" .`).join('\n')

  // That the worker is replaced and the next parse works is test/rdf/parse-off-thread.test.ts's
  test('PUT → 503 temporarily_unavailable with Retry-After: 1, nothing written', async () => {
    PARSE_TIMEOUT_MS.pod = 1
    const before = await snapshotStore(pod.store)
    const res = await pod.request('/pub/big.ttl', withTurtle('PUT', big))
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await expectRsError(res, 503, 'temporarily_unavailable')).toContain('send smaller ones')
    expect(await snapshotStore(pod.store)).toBe(before)
  })
})

describe('a storage without its root ACL', () => {
  test('every request → 500 server_error: the pod refuses rather than guess who may do what', async () => {
    await deleteResource(pod.store, pod.base, '/.acl', Date.now())
    await expectRsError(await pod.request('/'), 500, 'server_error')
    await expectRsError(await pod.request('/notes/x', withTurtle('PUT', '<#a> <#b> <#c>.')), 500, 'server_error')
    // A folder with an ACL of its own is still decided by it
    await expectStatus(pod.request('/pub/'), 200)
  })
})
