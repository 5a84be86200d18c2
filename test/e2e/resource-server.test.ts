// The resource server over real HTTP: a subprocess pod with a public-write /pub/ seeded through the store API.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { openStore } from '../../src/store/open-store.ts'
import { publicWriteAcl, seedTurtle } from '../rs/pod-fixture.ts'
import { AUTH_CHALLENGES } from '../../src/policy/access-control.ts'
import { parseRdf } from '../../src/rdf/parse-rdf.ts'
import { EX, LDP, expectRsError, hasTriple, randomBytes, triplesOf, withBody, withTurtle } from '../rs/rs-helpers.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({
    seed: async (dataDir, baseUrl) => {
      const store = await openStore(dataDir)
      try {
        await seedTurtle(store, baseUrl, '/pub/', '')
        await seedTurtle(store, baseUrl, '/pub/.acl', publicWriteAcl(`${baseUrl}/pub/`))
      } finally {
        await store.close()
      }
    },
  })
})
afterAll(() => pod?.dispose())

const url = (path: string) => pod.baseUrl + path
const http = (path: string, init?: RequestInit) => fetch(url(path), init)

/** One request written by hand, so the client cannot normalise the path (or drop empty headers) first; returns the status code. */
async function rawStatus(requestLine: string, extraHeaders = ''): Promise<number> {
  let out = ''
  const closed = Promise.withResolvers<void>()
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port: pod.port,
    socket: {
      data(_s, d) {
        out += d.toString()
      },
      close() {
        closed.resolve()
      },
      error() {
        closed.resolve()
      },
    },
  })
  socket.write(`${requestLine}\r\nHost: localhost:${pod.port}\r\nContent-Type: text/turtle\r\nContent-Length: 0\r\n${extraHeaders}Connection: close\r\n\r\n`)
  await closed.promise
  return Number(out.split(' ', 2)[1])
}

describe('Solid Protocol §5.3 over HTTP', () => {
  test('PUT creates a Turtle document that GET serves as JSON-LD too', async () => {
    const res = await http('/pub/e2e/doc', withTurtle('PUT', '<#a> <http://example.org/ns#p> "v".'))
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/e2e/doc'))
    const got = await http('/pub/e2e/doc', { headers: { accept: 'application/ld+json' } })
    const quads = await parseRdf(await got.text(), 'application/ld+json', url('/pub/e2e/doc'))
    expect(hasTriple(quads, url('/pub/e2e/doc#a'), EX('p'), 'v')).toBe(true)
  })

  test('a binary comes back byte for byte with its Content-Type', async () => {
    const bytes = randomBytes(64 * 1024)
    expect((await http('/pub/e2e/blob', withBody('PUT', 'image/webp', bytes))).status).toBe(201)
    const res = await http('/pub/e2e/blob')
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  test('POST with Slug and Link rel=type BasicContainer creates a listed container', async () => {
    const res = await http('/pub/', { method: 'POST', headers: { slug: 'made', link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' } })
    expect(res.status).toBe(201)
    const location = res.headers.get('location')!
    expect(location).toBe(url('/pub/made/'))
    expect(hasTriple(await triplesOf(await http('/pub/'), url('/pub/')), url('/pub/'), LDP('contains'), location)).toBe(true)
  })

  test('PATCH with N3 Patch changes the document', async () => {
    await http('/pub/e2e/patched', withTurtle('PUT', ''))
    const patch = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#a> <http://example.org/ns#p> "x". }.'
    expect((await http('/pub/e2e/patched', withBody('PATCH', 'text/n3', patch))).status).toBe(204)
    expect(hasTriple(await triplesOf(await http('/pub/e2e/patched'), url('/pub/e2e/patched')), url('/pub/e2e/patched#a'), EX('p'), 'x')).toBe(true)
  })

  test('DELETE of a non-empty container is 409 container_not_empty', async () => {
    await expectRsError(await http('/pub/e2e/', { method: 'DELETE' }), 409, 'container_not_empty')
  })

  test('anonymous GET of the owner-only root is 401 with the UMA, DPoP and HttpSig challenges', async () => {
    const res = await http('/')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^UMA realm="[^"]+", as_uri="[^"]+", ticket="[\w-]+\.[\w-]{22}", /)
    expect(res.headers.get('www-authenticate')).toEndWith([...AUTH_CHALLENGES, 'HttpSig realm="/"'].join(', '))
  })
})

describe('empty credentials over HTTP (issue 8)', () => {
  test('an empty Authorization and DPoP header read public data as anonymous', async () => {
    expect(await rawStatus('GET /pub/ HTTP/1.1', 'Authorization: \r\nDPoP: \r\n')).toBe(200)
  })
  test('an empty Authorization header on a private resource is the anonymous 401, not 400', async () => {
    expect(await rawStatus('GET / HTTP/1.1', 'Authorization:\r\n')).toBe(401)
  })
  test('a malformed non-empty Authorization header stays 400 invalid_request', async () => {
    expect(await rawStatus('GET /pub/ HTTP/1.1', 'Authorization: DPoP a b c\r\n')).toBe(400)
  })
})

describe('Solid Protocol CORS CORS over HTTP', () => {
  test('a preflight is answered without authentication and echoes the requested headers', async () => {
    const res = await http('/', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-thing' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('access-control-allow-headers')).toBe('x-thing')
  })
})

describe('issue 3 bad input over HTTP', () => {
  test.each(['/pub/a%2Fb', '/pub/..%2F..%2Fescape', '/pub/a%00b'])('%s is 400 invalid_path', async path => {
    await expectRsError(await http(path, withTurtle('PUT', '')), 400, 'invalid_path')
  })

  test.each(['PUT /pub/../escape HTTP/1.1', 'PUT /pub/%2e%2e/escape HTTP/1.1', 'PUT /pub/x/../../escape HTTP/1.1'])(
    'the server resolves dot segments of %s, so the write is judged at /escape (401), outside /pub/',
    async line => {
      expect(await rawStatus(line)).toBe(401)
      expect((await http('/pub/escape')).status).toBe(404)
    },
  )

  test('ten concurrent PUTs with the same If-Match: exactly one wins', async () => {
    await http('/pub/e2e/race', withTurtle('PUT', ''))
    const etag = (await http('/pub/e2e/race')).headers.get('etag')!
    const statuses = (
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => http('/pub/e2e/race', withTurtle('PUT', `<#a> <http://example.org/ns#n> ${i}.`, { 'if-match': etag }))),
      )
    ).map(r => r.status)
    expect(statuses.filter(s => s >= 200 && s < 300)).toHaveLength(1)
    expect(statuses.filter(s => s === 412)).toHaveLength(9)
  })
})
