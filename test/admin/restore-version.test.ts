// Issue 36: undo through the owner API — the state a resource had at a time, written back as an ordinary (versioned) write.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { latestVersionBefore, readVersionSpans } from '../../src/store/versions.ts'
import { ownerWebIdOf } from '../../src/config.ts'
import { getMeta } from '../../src/store/resources.ts'

const BASE = 'http://localhost:3996'
const HOUR = 60 * 60_000
const T = Date.now()
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  for (const [i, at] of [T - 3 * HOUR, T - 2 * HOUR, T - HOUR].entries()) {
    await writeTurtle(pod.store, BASE, '/notes/doc.ttl', `<#it> <http://example.org/v> "v${i + 1}".`, at)
  }
})
afterAll(() => pod.close())

const restore = (body: unknown, o: { csrf?: boolean } = {}) => pod.api('POST', '/.admin/api/restore-version', { body, ...o })
const read = async (path: string) => (await pod.api('GET', path, { accept: 'text/turtle' })).text()

describe('POST /.admin/api/restore-version {path, datetime}', () => {
  test('writes back the state current at that time; the restore is itself a version, made by the owner', async () => {
    const res = await restore({ path: '/notes/doc.ttl', datetime: new Date(T - 2.5 * HOUR).toISOString() })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ path: '/notes/doc.ttl', restoredFrom: T - 3 * HOUR, created: false })
    expect(await read('/notes/doc.ttl')).toContain('"v1"')
    const spans = await readVersionSpans(pod.store, '/notes/doc.ttl')
    expect(spans.map(s => s.from)).toEqual([T - 3 * HOUR, T - 2 * HOUR, T - HOUR])
    // the undo can be undone: the state it replaced (v3) is kept, with who replaced it
    const v3 = await latestVersionBefore(pod.store, '/notes/doc.ttl', T)
    expect(v3).toMatchObject({ from: T - HOUR, end: 'update', by: { agent: ownerWebIdOf(BASE), via: 'session' } })
  })

  test("epoch milliseconds (a memento's version) work as well", async () => {
    const res = await restore({ path: '/notes/doc.ttl', datetime: T - 2 * HOUR })
    expect(await res.json()).toMatchObject({ restoredFrom: T - 2 * HOUR })
    expect(await read('/notes/doc.ttl')).toContain('"v2"')
  })

  test('a deleted document comes back; a file comes back byte for byte', async () => {
    await pod.seed('/notes/gone.ttl', '<#it> <http://example.org/v> "gone".')
    const written = (await getMeta(pod.store, '/notes/gone.ttl'))!.modified
    // deleted a moment later: at `written` it was there
    await Bun.sleep(5)
    expect((await pod.api('DELETE', '/notes/gone.ttl')).status).toBe(204)
    const res = await restore({ path: '/notes/gone.ttl', datetime: written })
    expect(await res.json()).toMatchObject({ path: '/notes/gone.ttl', created: true })
    expect(await read('/notes/gone.ttl')).toContain('"gone"')

    const first = Buffer.from(crypto.getRandomValues(new Uint8Array(2500))).toString('hex')
    expect((await pod.api('PUT', '/notes/f.bin', { raw: first, type: 'application/octet-stream' })).status).toBe(201)
    const at = Date.now()
    await Bun.sleep(5)
    expect((await pod.api('PUT', '/notes/f.bin', { raw: 'second', type: 'application/octet-stream' })).status).toBe(204)
    expect((await restore({ path: '/notes/f.bin', datetime: at })).status).toBe(200)
    expect(await (await pod.api('GET', '/notes/f.bin')).text()).toBe(first)
  })

  test.each([
    [{ path: '/notes/doc.ttl', datetime: T - 10 * HOUR }, 404, 'memento_not_found'],
    [{ path: '/notes/never.ttl', datetime: T }, 404, 'memento_not_found'],
    [{ path: '/notes/doc.ttl', datetime: 'whenever' }, 400, 'invalid_request'],
    [{ path: '/notes/doc.ttl' }, 400, 'invalid_request'],
    [{ path: 'notes/doc.ttl', datetime: T }, 400, 'invalid_path'],
  ])('%j → %i %s', async (body, status, code) => {
    const res = await restore(body)
    expect(res.status).toBe(status)
    expect((await res.json()).error).toBe(code)
  })

  test('without the CSRF token → 403 csrf_failed, nothing written', async () => {
    const before = await read('/notes/doc.ttl')
    const res = await restore({ path: '/notes/doc.ttl', datetime: T - 3 * HOUR }, { csrf: false })
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('csrf_failed')
    expect(await read('/notes/doc.ttl')).toBe(before)
  })
})
