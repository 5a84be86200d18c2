// PATCH with N3 Patch and SPARQL Update over HTTP: statuses, all-or-nothing, creation.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { EX, LDP, expectRsError, expectStatus, hasTriple, objectsOf, randomBytes, snapshotStore, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
})
afterAll(() => pod.close())

const url = (path: string) => pod.base + path
const PREFIXES = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. @prefix ex: <http://example.org/ns#>.\n'
const n3 = (body: string) => `${PREFIXES}_:patch a solid:InsertDeletePatch; ${body}.`
const patchN3 = (path: string, body: string, headers: Record<string, string> = {}) => pod.request(path, withBody('PATCH', 'text/n3', n3(body), headers))
const patchSparql = (path: string, body: string) => pod.request(path, withBody('PATCH', 'application/sparql-update', body))
const triples = async (path: string) => triplesOf(await expectStatus(pod.request(path), 200), url(path))

let n = 0
/** A fresh document holding `<#s> ex:name "Ada"; ex:age 36.` */
async function freshDoc(): Promise<string> {
  const path = `/pub/patch/doc${++n}`
  await expectStatus(pod.request(path, withTurtle('PUT', '@prefix ex: <http://example.org/ns#>. <#s> ex:name "Ada"; ex:age 36.')), 201)
  return path
}

describe('Solid Protocol §5.3.1 N3 Patch', () => {
  test('inserts into an existing document: 204 and the triple is there', async () => {
    const path = await freshDoc()
    expect((await patchN3(path, 'solid:inserts { <#s> ex:city "London". }')).status).toBe(204)
    expect(hasTriple(await triples(path), url(`${path}#s`), EX('city'), 'London')).toBe(true)
  })

  test('deletes and inserts with a where clause binding a variable', async () => {
    const path = await freshDoc()
    const res = await patchN3(path, 'solid:where { ?p ex:name "Ada". }; solid:deletes { ?p ex:age 36. }; solid:inserts { ?p ex:age 37. }')
    expect(res.status).toBe(204)
    expect(objectsOf(await triples(path), url(`${path}#s`), EX('age'))).toEqual(['37'])
  })

  test('creates a missing document (and its containers): 201 with Location', async () => {
    const res = await patchN3('/pub/patch/new/made', 'solid:inserts { <#x> ex:p "v". }')
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/patch/new/made'))
    expect(hasTriple(await triples('/pub/patch/new/made'), url('/pub/patch/new/made#x'), EX('p'), 'v')).toBe(true)
    expect(hasTriple(await triples('/pub/patch/new/'), url('/pub/patch/new/'), LDP('contains'), url('/pub/patch/new/made'))).toBe(true)
  })

  test('a where clause that matches nothing is 409 patch_conflict and the document is unchanged', async () => {
    const path = await freshDoc()
    const before = await snapshotStore(pod.store)
    await expectRsError(await patchN3(path, 'solid:where { ?p ex:name "Grace". }; solid:inserts { ?p ex:age 1. }'), 409, 'patch_conflict')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a where clause that matches more than once is 409 patch_conflict', async () => {
    const path = await freshDoc()
    await expectStatus(patchN3(path, 'solid:inserts { <#t> ex:name "Ada". }'), 204)
    const before = await snapshotStore(pod.store)
    await expectRsError(await patchN3(path, 'solid:where { ?p ex:name "Ada". }; solid:inserts { ?p ex:age 1. }'), 409, 'patch_conflict')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('deleting a triple the document lacks is 409 and nothing else of the patch applies', async () => {
    const path = await freshDoc()
    const before = await snapshotStore(pod.store)
    const res = await patchN3(path, 'solid:deletes { <#s> ex:age 99. }; solid:inserts { <#s> ex:city "Paris". }')
    await expectRsError(res, 409, 'patch_conflict')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a patch breaking an N3 Patch rule is 422 invalid_patch (variable only in inserts)', async () => {
    const path = await freshDoc()
    const before = await snapshotStore(pod.store)
    await expectRsError(await patchN3(path, 'solid:inserts { ?x ex:p 1. }'), 422, 'invalid_patch')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a body without a solid:InsertDeletePatch is 422 invalid_patch', async () => {
    const path = await freshDoc()
    const body = `${PREFIXES}_:p solid:inserts { <#s> ex:p 1. }.`
    await expectRsError(await pod.request(path, withBody('PATCH', 'text/n3', body)), 422, 'invalid_patch')
  })

  test('a container PATCH may not insert ldp:contains (409 server_managed)', async () => {
    await expectStatus(pod.request('/pub/patch/box/', { method: 'PUT' }), 201)
    const before = await snapshotStore(pod.store)
    const res = await patchN3('/pub/patch/box/', 'solid:inserts { <> <http://www.w3.org/ns/ldp#contains> <ghost>. }')
    await expectRsError(res, 409, 'server_managed')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a container PATCH may add other triples about the container', async () => {
    await expectStatus(pod.request('/pub/patch/label/', { method: 'PUT' }), 201)
    expect((await patchN3('/pub/patch/label/', 'solid:inserts { <> ex:label "box". }')).status).toBe(204)
    expect(hasTriple(await triples('/pub/patch/label/'), url('/pub/patch/label/'), EX('label'), 'box')).toBe(true)
  })
})

describe('SPARQL 1.1 Update as PATCH (application/sparql-update)', () => {
  test('INSERT DATA adds a triple: 204', async () => {
    const path = await freshDoc()
    expect((await patchSparql(path, `INSERT DATA { <${url(path)}#s> <${EX('city')}> "Rome" . }`)).status).toBe(204)
    expect(hasTriple(await triples(path), url(`${path}#s`), EX('city'), 'Rome')).toBe(true)
  })

  test('DELETE DATA removes a triple: 204', async () => {
    const path = await freshDoc()
    expect((await patchSparql(path, `DELETE DATA { <${url(path)}#s> <${EX('age')}> 36 . }`)).status).toBe(204)
    expect(objectsOf(await triples(path), url(`${path}#s`), EX('age'))).toEqual([])
  })

  test('DELETE/INSERT WHERE rewrites the matched value: 204', async () => {
    const path = await freshDoc()
    const update = `PREFIX ex: <${EX('')}> DELETE { ?s ex:age ?a } INSERT { ?s ex:age 40 } WHERE { ?s ex:age ?a }`
    expect((await patchSparql(path, update)).status).toBe(204)
    expect(objectsOf(await triples(path), url(`${path}#s`), EX('age'))).toEqual(['40'])
  })

  test("DELETE/INSERT WHERE without a solution is a successful no-op: 204, same ETag, nothing written (not N3 Patch's 409)", async () => {
    const path = await freshDoc()
    const etag = (await pod.request(path)).headers.get('etag')
    const before = await snapshotStore(pod.store)
    const update = `PREFIX ex: <${EX('')}> DELETE { ?s ex:age ?a } INSERT { ?s ex:age 40 } WHERE { ?s ex:name "Grace"; ex:age ?a }`
    const res = await patchSparql(path, update)
    expect(res.status).toBe(204)
    expect(`"${res.headers.get('etag')!.slice(1, -1)}-t"`).toBe(etag!)
    expect(await snapshotStore(pod.store)).toBe(before)
    expect((await pod.request(path)).headers.get('etag')).toBe(etag)
    expect((await patchSparql(path, `PREFIX ex: <${EX('')}> DELETE WHERE { ?s ex:nickname ?n }`)).status).toBe(204)
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('INSERT DATA on a missing document creates it: 201', async () => {
    const res = await patchSparql('/pub/patch/sparql-new', `INSERT DATA { <${url('/pub/patch/sparql-new')}#a> <${EX('p')}> 1 . }`)
    expect(res.status).toBe(201)
  })

  test('DELETE DATA of a triple the document lacks is 409 and the document is unchanged', async () => {
    const path = await freshDoc()
    const before = await snapshotStore(pod.store)
    const update = `DELETE DATA { <${url(path)}#s> <${EX('age')}> 99 . } ; INSERT DATA { <${url(path)}#s> <${EX('p')}> 1 . }`
    await expectRsError(await patchSparql(path, update), 409, 'patch_conflict')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('a SPARQL query instead of an update is 422 invalid_patch', async () => {
    const path = await freshDoc()
    await expectRsError(await patchSparql(path, 'SELECT * WHERE { ?s ?p ?o }'), 422, 'invalid_patch')
  })
})

describe('RFC 5789 PATCH: what cannot be patched', () => {
  test('a patch in an unsupported type is 415 with Accept-Patch naming the supported ones', async () => {
    const path = await freshDoc()
    const before = await snapshotStore(pod.store)
    const res = await pod.request(path, withBody('PATCH', 'application/json-patch+json', '[]'))
    expect(res.headers.get('accept-patch')).toBe('text/n3, application/sparql-update')
    await expectRsError(res, 415, 'unsupported_media_type')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('PATCH on a binary resource is 405 and the bytes are unchanged', async () => {
    const bytes = randomBytes(256)
    await expectStatus(pod.request('/pub/patch/blob', withBody('PUT', 'application/octet-stream', bytes)), 201)
    const before = await snapshotStore(pod.store)
    const res = await patchN3('/pub/patch/blob', 'solid:inserts { <#a> ex:p 1. }')
    await expectRsError(res, 405, 'method_not_allowed')
    expect(res.headers.get('allow')).not.toContain('PATCH')
    expect(await snapshotStore(pod.store)).toBe(before)
  })

  test('an N3 syntax error is 400 invalid_syntax with its line and column', async () => {
    const path = await freshDoc()
    const text = await expectRsError(
      await pod.request(path, withBody('PATCH', 'text/n3', `${PREFIXES}_:p a solid:InsertDeletePatch;\n  solid:inserts { <#a> ex:p "x }.`)),
      400,
      'invalid_syntax',
    )
    expect(text).toMatch(/line \d+, column \d+/)
  })
})
