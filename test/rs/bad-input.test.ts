// Issue 3 "Bad input": each refusal has its exact status and code, and leaves the store as it was.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from './pod-fixture.ts'
import { EX, expectRsError, expectStatus, objectsOf, randomBytes, snapshotStore, triplesOf, withBody, withTurtle } from './rs-helpers.ts'

let pod: Pod
let small: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  small = await openPod({ publicWrite: ['/pub/'], maxBodyBytes: 1024, maxPatchBytes: 1024 })
  await expectStatus(pod.request('/pub/bad/doc', withTurtle('PUT', '<#a> <http://example.org/ns#p> "kept".')), 201)
  await expectStatus(pod.request('/pub/bad/dir/', { method: 'PUT' }), 201)
  await expectStatus(small.request('/pub/doc', withTurtle('PUT', '')), 201)
})
afterAll(async () => {
  await pod.close()
  await small.close()
})

/** Sends the request and checks status, code and that nothing in the store changed; returns the body. */
async function refused(p: Pod, path: string, init: RequestInit, status: number, code: string): Promise<string> {
  const before = await snapshotStore(p.store)
  const text = await expectRsError(await p.request(path, init), status, code)
  expect(await snapshotStore(p.store)).toBe(before)
  return text
}

const n3Insert = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#a> <#b> <#c>. }.'

describe('issue 3: malformed RDF is 400 invalid_rdf with the line and column', () => {
  test('Turtle with a syntax error on line 3', async () => {
    const text = await refused(pod, '/pub/bad/doc', withTurtle('PUT', '<#a> <#b> <#c>.\n<#a> <#b> <#d>.\n<#a> <#b> "unterminated .'), 400, 'invalid_rdf')
    expect(text).toMatch(/line 3, column \d+/)
  })

  test('JSON-LD that is not JSON, error on line 3', async () => {
    const body = '{\n  "@id": "#a",\n  "http://example.org/ns#p": oops\n}'
    const text = await refused(pod, '/pub/bad/doc', withBody('PUT', 'application/ld+json', body), 400, 'invalid_rdf')
    expect(text).toMatch(/line 3, column 30/)
  })

  test('JSON that is not a JSON-LD document', async () => {
    await refused(pod, '/pub/bad/doc', withBody('PUT', 'application/ld+json', '{"@id": 5}'), 400, 'invalid_rdf')
  })

  test('N-Triples with a relative IRI', async () => {
    await refused(pod, '/pub/bad/doc', withBody('PUT', 'application/n-triples', '<a> <b> <c> .'), 400, 'invalid_rdf')
  })

  test('a body that is not UTF-8', async () => {
    await refused(pod, '/pub/bad/doc', withBody('PUT', 'text/turtle', new Uint8Array([0x3c, 0xff, 0xfe, 0x3e])), 400, 'invalid_rdf')
  })

  test('malformed Turtle in a POST creates no member', async () => {
    await refused(pod, '/pub/bad/dir/', withTurtle('POST', '<#a> <#b>', { slug: 'x' }), 400, 'invalid_rdf')
  })
})

describe('a JSON-LD body is read with the bundled contexts only: the pod never fetches one a client names', () => {
  test.each([
    ['PUT', '/pub/bad/doc'],
    ['POST', '/pub/bad/dir/'],
  ])('%s naming a remote @context → 400 jsonld_context_not_allowed naming it, nothing written', async (method, path) => {
    const body = JSON.stringify({ '@context': 'https://contexts.example/ctx.jsonld', '@id': '#a', name: 'x' })
    const text = await refused(pod, path, withBody(method, 'application/ld+json', body), 400, 'jsonld_context_not_allowed')
    expect(text).toContain('remote JSON-LD context https://contexts.example/ctx.jsonld is not allowed')
  })
})

describe('issue 3: a type that is not RDF where RDF is required is 415', () => {
  test.each([
    ['a container body', '/pub/bad/new-dir/', withBody('PUT', 'text/plain', 'hello')],
    ['an ACL document', '/pub/bad/doc.acl', withBody('PUT', 'text/plain', 'hello')],
    ['a POSTed container', '/pub/bad/dir/', withBody('POST', 'image/png', randomBytes(8), { link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' })],
    ['a patch', '/pub/bad/doc', withBody('PATCH', 'text/turtle', '<#a> <#b> <#c>.')],
  ])('%s', async (_what, path, init) => {
    await refused(pod, path, init, 415, 'unsupported_media_type')
  })
})

describe('issue 3: a body over the configured limit is 413 payload_too_large', () => {
  const big = randomBytes(1025)
  test.each([
    ['PUT of a new document', '/pub/big', withBody('PUT', 'application/octet-stream', big)],
    ['PUT replacing a document', '/pub/doc', withBody('PUT', 'application/octet-stream', big)],
    ['POST', '/pub/', withBody('POST', 'application/octet-stream', big)],
    ['PATCH', '/pub/doc', withBody('PATCH', 'text/n3', `${n3Insert}#${'x'.repeat(1025)}`)],
  ])('%s', async (_what, path, init) => {
    await refused(small, path, init, 413, 'payload_too_large')
  })

  test('a streamed body without Content-Length', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(big.slice(0, 600))
        c.enqueue(big.slice(600))
        c.close()
      },
    })
    await refused(small, '/pub/streamed', { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: stream }, 413, 'payload_too_large')
  })

  test('a body of exactly the limit is accepted', async () => {
    expect((await small.request('/pub/exact', withBody('PUT', 'application/octet-stream', randomBytes(1024)))).status).toBe(201)
  })
})

describe('issue 3: path traversal never reaches outside the pod', () => {
  test.each(['PUT', 'GET', 'DELETE', 'PATCH', 'POST'])('%s with an encoded slash is 400 invalid_path', async method => {
    const init = method === 'GET' || method === 'DELETE' ? { method } : withTurtle(method, '')
    await refused(pod, '/pub/bad/..%2F..%2Fescape', init, 400, 'invalid_path')
  })

  test.each(['/pub/bad/a%00b', '/pub/bad/%00/x', '/pub/bad/a%5Cb', '/pub/bad//x', '/pub/bad/%zz'])('PUT %s is 400 invalid_path', async path => {
    await refused(pod, path, withTurtle('PUT', ''), 400, 'invalid_path')
  })

  test.each(['/pub/../escape', '/pub/%2e%2e/escape', '/pub/.%2E/escape'])(
    'the URL parser resolves %s before the pod, so it is judged as /escape (401) and nothing is written',
    async path => {
      expect(new URL(pod.base + path).pathname).toBe('/escape')
      await refused(pod, path, withTurtle('PUT', ''), 401, 'unauthenticated')
    },
  )
})

describe('reserved URL space: writes to the reserved paths of the pod are 405 reserved_path', () => {
  // Paths no other role claims (those answer for themselves): whatever falls through to the RS is refused.
  const paths = ['/.oidc/unclaimed', '/.oidcx', '/.admin/unclaimed', '/.uma/unclaimed', '/.well-known/solid', '/.well-known/x/']
  const cases = paths.flatMap(path => ['PUT', 'POST', 'PATCH', 'DELETE'].map(method => [method, path] as const))
  test.each(cases)('%s %s', async (method, path) => {
    const init = method === 'DELETE' ? { method } : method === 'PATCH' ? withBody('PATCH', 'text/n3', n3Insert) : withTurtle(method, '')
    const res = await pod.request(path, init)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    await refused(pod, path, init, 405, 'reserved_path')
  })
})

describe('Solid Protocol §3.1: /a and /a/ never both exist (409 name_conflict)', () => {
  beforeAll(async () => {
    await expectStatus(pod.request('/pub/names/doc', withTurtle('PUT', '')), 201)
    await expectStatus(pod.request('/pub/names/box/', { method: 'PUT' }), 201)
  })

  test.each([
    ['a container where a document is', 'PUT', '/pub/names/doc/'],
    ['a document where a container is', 'PUT', '/pub/names/box'],
    ['an intermediate container where a document is', 'PUT', '/pub/names/doc/child'],
    ['a deeper intermediate container where a document is', 'PUT', '/pub/names/doc/a/b'],
    ['a PATCH-created document where a container is', 'PATCH', '/pub/names/box'],
    ['a PATCH-created container where a document is', 'PATCH', '/pub/names/doc/'],
  ])('%s (%s %s)', async (_what, method, path) => {
    const init = method === 'PATCH' ? withBody('PATCH', 'text/n3', n3Insert) : withTurtle('PUT', '')
    await refused(pod, path, init, 409, 'name_conflict')
  })

  test('a container may not be named like an ACL document (x.acl/): 400 invalid_path', async () => {
    await refused(pod, '/pub/names/doc.acl/', { method: 'PUT' }, 400, 'invalid_path')
    await refused(pod, '/pub/names/doc.acl/inner', withTurtle('PUT', ''), 400, 'invalid_path')
  })
})

describe('Solid Protocol §5.3: content without a Content-Type is 400 missing_content_type', () => {
  const noType = (method: string) => withBody(method, undefined, '<#a> <#b> <#c>.')
  test.each([
    ['PUT a document', 'PUT', '/pub/bad/untyped'],
    ['PUT a container', 'PUT', '/pub/bad/untyped/'],
    ['POST', 'POST', '/pub/bad/dir/'],
    ['PATCH', 'PATCH', '/pub/bad/doc'],
  ])('%s', async (_what, method, path) => {
    await refused(pod, path, noType(method), 400, 'missing_content_type')
  })
})

describe('Solid Protocol §5.3.1: a PATCH deleting a triple that is not there is 409', () => {
  test('N3 Patch deletes', async () => {
    const body =
      '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:deletes { <#a> <http://example.org/ns#p> "absent". }.'
    await refused(pod, '/pub/bad/doc', withBody('PATCH', 'text/n3', body), 409, 'patch_conflict')
  })
})

describe('RFC 9110 §13.1.1: concurrent PUTs with the same If-Match', () => {
  test('exactly one of ten wins, the other nine are 412, and the stored state is the winner', async () => {
    const path = '/pub/bad/race'
    await expectStatus(pod.request(path, withTurtle('PUT', '<#a> <http://example.org/ns#n> 0.')), 201)
    const etag = (await pod.request(path)).headers.get('etag')!
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => pod.request(path, withTurtle('PUT', `<#a> <http://example.org/ns#n> ${i + 1}.`, { 'if-match': etag }))),
    )
    const winners = results.flatMap((r, i) => (r.status >= 200 && r.status < 300 ? [i] : []))
    expect(winners).toHaveLength(1)
    expect(results.filter(r => r.status === 412)).toHaveLength(9)
    for (const r of results.filter(r => r.status === 412)) expect((await r.text()).startsWith('precondition_failed:')).toBe(true)
    const triples = await triplesOf(await pod.request(path), pod.base + path)
    expect(objectsOf(triples, `${pod.base}${path}#a`, EX('n'))).toEqual([String(winners[0]! + 1)])
  })
})
