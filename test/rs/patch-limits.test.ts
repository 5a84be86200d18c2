// A PATCH can neither stall the pod nor make it read what it will refuse: access before the body,
// its own size limit and bounded nesting; the parse off the event loop is patch-off-event-loop.slow.test.ts.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, seedTurtle, type Pod } from './pod-fixture.ts'
import { publicAcl } from '../e2e/seed-store.ts'
import { expectRsError, expectStatus, snapshotStore, withBody, withTurtle } from './rs-helpers.ts'
import { MAX_PATCH_NESTING } from '../../src/rdf/patch.ts'

let pod: Pod
let small: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  small = await openPod({ publicWrite: ['/pub/'], maxPatchBytes: 2048 })
  await seedTurtle(pod.store, pod.base, '/read/', '')
  await seedTurtle(pod.store, pod.base, '/read/.acl', publicAcl(`${pod.base}/read/`, ['Read']))
  await seedTurtle(pod.store, pod.base, '/read/doc', '<#a> <#b> <#c>.')
  await seedTurtle(pod.store, pod.base, '/private/doc', '<#a> <#b> <#c>.')
  await expectStatus(pod.request('/pub/doc', withTurtle('PUT', '<#a> <#b> <#c>.')), 201)
})
afterAll(async () => {
  await pod.close()
  await small.close()
})

const SPARQL = 'application/sparql-update'

/** A request body that sends one chunk and then never ends: only an answer that does not read it can come back. */
function endlessBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode('INSERT DATA { '))
    },
  })
}
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, Bun.sleep(ms).then(() => 'no answer' as const)])

describe('PATCH: access is decided before the body is read (at least Append on the target)', () => {
  test.each(['/private/doc', '/read/doc', '/private/new'])('anonymous PATCH to %s: 401 at once, with an endless body', async path => {
    const res = await within(
      pod.request(path, { method: 'PATCH', headers: { 'content-type': SPARQL }, body: endlessBody(), duplex: 'half' } as RequestInit),
      5000,
    )
    expect(res).not.toBe('no answer')
    const r = res as Response
    await expectRsError(r, 401, 'unauthenticated')
    expect(r.headers.get('www-authenticate')).toContain('DPoP')
  })
})

describe('PATCH: its own body limit (--max-patch-bytes), 413 payload_too_large', () => {
  const insert = (n: number) => `INSERT DATA { <#a> <#b> "${'x'.repeat(n)}" . }`
  test('a patch over the limit is refused and changes nothing, while a PUT of that size is fine', async () => {
    const before = await snapshotStore(small.store)
    const text = await expectRsError(await small.request('/pub/doc', withBody('PATCH', SPARQL, insert(2100))), 413, 'payload_too_large')
    expect(text).toContain('a PATCH body is larger than this pod accepts (2048 bytes)')
    expect(await snapshotStore(small.store)).toBe(before)
    await expectStatus(small.request('/pub/big', withTurtle('PUT', `<#a> <#b> "${'x'.repeat(2100)}".`)), 201)
  })
  test('a patch within the limit applies', async () => {
    await expectStatus(small.request('/pub/doc2', withBody('PATCH', SPARQL, insert(1900))), 201)
  })
  test('the default limit is 1 MiB', async () => {
    await expectRsError(await pod.request('/pub/doc', withBody('PATCH', SPARQL, insert(1024 * 1024))), 413, 'payload_too_large')
  })
})

describe('PATCH: nesting is bounded before any parser runs', () => {
  const nested = (n: number) => `INSERT { <#a> <#b> <#c> } WHERE ${'{ '.repeat(n)}<#a> <#b> ?o ${'} '.repeat(n)}`
  test.each([
    ['SPARQL groups', SPARQL, nested(5000)],
    ['SPARQL blank node lists', SPARQL, `INSERT DATA { <#a> <#b> ${'[ <#p> '.repeat(5000)}1${' ]'.repeat(5000)} }`],
    [
      'N3 formulas',
      'text/n3',
      `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts ${'{ '.repeat(5000)}${'} '.repeat(5000)}.`,
    ],
  ])('%s nested 5,000 deep: 400 invalid_syntax', async (_, type, body) => {
    const text = await expectRsError(await pod.request('/pub/doc', withBody('PATCH', type, body)), 400, 'invalid_syntax')
    expect(text).toContain(`more than ${MAX_PATCH_NESTING} levels`)
  })
  test('braces inside literals, IRIs and comments do not count', async () => {
    const braces = '{'.repeat(200)
    await expectStatus(pod.request('/pub/doc', withBody('PATCH', SPARQL, `# ${braces}\nINSERT DATA { <#a> <#b> "${braces}", """${braces}""" . }`)), 204)
  })
  test(`a WHERE nested ${MAX_PATCH_NESTING - 1} deep still applies`, async () => {
    await expectStatus(pod.request('/pub/doc', withBody('PATCH', SPARQL, nested(MAX_PATCH_NESTING - 1))), 204)
  })
})
