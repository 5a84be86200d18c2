// Issue 36 over real HTTP: every change kept as a version, read with Memento (RFC 7089) — TimeGate, TimeMap, mementos.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { Parser } from 'n3'
import { openStore } from '../../src/store/open-store.ts'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer, writeTurtle } from './seed-store.ts'
import { expectRsError, withBody, withTurtle } from '../rs/rs-helpers.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({
    seed: async (dir, base) => {
      await seedPublicContainer(dir, base, '/pub/', ['Read', 'Write'])
      // A private document (the root ACL gives only the owner access) with an earlier state.
      const store = await openStore(dir, { keepVersions: true })
      try {
        await writeTurtle(store, base, '/private/secret.ttl', '<#s> <http://example.org/v> "one".', Date.now() - 60_000)
        await writeTurtle(store, base, '/private/secret.ttl', '<#s> <http://example.org/v> "two".')
      } finally {
        await store.close()
      }
    },
  })
})
afterAll(() => pod?.dispose())

const url = (path: string) => pod.baseUrl + path
const put = (path: string, ttl: string) => fetch(url(path), withTurtle('PUT', ttl))
const EX_V = 'http://example.org/v'
const valuesOf = (ttl: string, base: string) =>
  new Parser({ baseIRI: base })
    .parse(ttl)
    .filter(q => q.predicate.value === EX_V)
    .map(q => q.object.value)
/** The mementos of a link-format TimeMap: [url, rel, datetime]. */
const mementosOf = (linkFormat: string) =>
  [...linkFormat.matchAll(/<([^>]+)>; rel="([^"]*memento)"; datetime="([^"]+)"/g)].map(m => [m[1]!, m[2]!, m[3]!] as const)
const secondsLater = (date: string, s: number) => new Date(Date.parse(date) + s * 1000).toUTCString()

describe('RFC 7089: the resource is its own TimeGate', () => {
  let created: string
  let replaced: string
  beforeAll(async () => {
    expect((await put('/pub/doc.ttl', '<#it> <http://example.org/v> "first".')).status).toBe(201)
    created = (await fetch(url('/pub/doc.ttl'))).headers.get('last-modified')!
    // Accept-Datetime has a second's precision: the second state is written in a later second.
    await Bun.sleep(1100)
    expect((await put('/pub/doc.ttl', '<#it> <http://example.org/v> "second".')).status).toBe(204)
    replaced = (await fetch(url('/pub/doc.ttl'))).headers.get('last-modified')!
  })

  test('GET and HEAD name the TimeMap and vary on Accept-Datetime (§4.1.1)', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(url('/pub/doc.ttl'), { method })
      expect(res.status).toBe(200)
      expect(res.headers.get('link')).toContain(`<${url('/pub/doc.ttl')}?ext=timemap>; rel="timemap"; type="application/link-format"`)
      expect(res.headers.get('link')).toContain(`<${url('/pub/doc.ttl')}>; rel="original timegate"`)
      expect(res.headers.get('vary')).toBe('Accept, Authorization, Origin, Accept-Datetime')
    }
  })

  test('Accept-Datetime: 302 to the memento current at that time, varying on it', async () => {
    const res = await fetch(url('/pub/doc.ttl'), { headers: { 'accept-datetime': created }, redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('vary')).toBe('Accept-Datetime')
    expect(res.headers.get('link')).toContain('rel="timemap"')
    const location = res.headers.get('location')!
    const memento = await fetch(location, { headers: { accept: 'text/turtle' } })
    expect(memento.status).toBe(200)
    expect(memento.headers.get('memento-datetime')).toBe(created)
    expect(memento.headers.get('link')).toContain(`<${url('/pub/doc.ttl')}>; rel="original timegate"`)
    expect(valuesOf(await memento.text(), url('/pub/doc.ttl'))).toEqual(['first'])
    // A later time reaches the present state.
    const now = await fetch(url('/pub/doc.ttl'), { headers: { 'accept-datetime': secondsLater(replaced, 5) }, redirect: 'manual' })
    const present = await fetch(now.headers.get('location')!)
    expect(present.headers.get('memento-datetime')).toBe(replaced)
    expect(valuesOf(await present.text(), url('/pub/doc.ttl'))).toEqual(['second'])
  })

  test('a memento is content-negotiated as the resource is (JSON-LD here) and takes no write', async () => {
    const [[first]] = [mementosOf(await (await fetch(url('/pub/doc.ttl?ext=timemap'))).text())]
    const res = await fetch(first![0], { headers: { accept: 'application/ld+json' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('application/ld+json')
    expect(JSON.stringify(await res.json())).toContain('first')
    await expectRsError(await fetch(first![0], withTurtle('PUT', '<#a> <#b> <#c>.')), 405, 'method_not_allowed')
    expect(valuesOf(await (await fetch(url('/pub/doc.ttl'))).text(), url('/pub/doc.ttl'))).toEqual(['second'])
  })

  test('the TimeMap in link-format lists the mementos with their datetimes (§5.1.1), and in Turtle', async () => {
    const res = await fetch(url('/pub/doc.ttl?ext=timemap'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/link-format')
    const body = await res.text()
    expect(body).toContain(`<${url('/pub/doc.ttl')}>; rel="original timegate"`)
    expect(body).toContain(`<${url('/pub/doc.ttl')}?ext=timemap>; rel="self"; type="application/link-format"; from="${created}"; until="${replaced}"`)
    expect(mementosOf(body).map(([, rel, at]) => [rel, at])).toEqual([
      ['first memento', created],
      ['last memento', replaced],
    ])
    const turtle = await fetch(url('/pub/doc.ttl?ext=timemap'), { headers: { accept: 'text/turtle' } })
    expect(turtle.headers.get('content-type')).toBe('text/turtle; charset=utf-8')
    const quads = new Parser({ baseIRI: url('/') }).parse(await turtle.text())
    // xsd:dateTime keeps the milliseconds the HTTP-dates drop
    expect(quads.filter(q => q.predicate.value === 'http://mementoweb.org/ns#mementoDatetime').map(q => new Date(q.object.value).toUTCString())).toEqual([
      created,
      replaced,
    ])
    await expectRsError(await fetch(url('/pub/doc.ttl?ext=timemap'), { headers: { accept: 'image/png' } }), 406, 'not_acceptable')
  })

  test('the TimeMap is streamed with the very text it had when built whole: link-format and Turtle, one memento or three', async () => {
    expect((await put('/pub/three.ttl', '<#it> <http://example.org/v> "1".')).status).toBe(201)
    expect((await put('/pub/three.ttl', '<#it> <http://example.org/v> "2".')).status).toBe(204)
    expect((await put('/pub/three.ttl', '<#it> <http://example.org/v> "3".')).status).toBe(204)
    expect((await put('/pub/one.ttl', '<#it> <http://example.org/v> "1".')).status).toBe(201)
    for (const [path, count] of [
      ['/pub/three.ttl', 3],
      ['/pub/one.ttl', 1],
    ] as const) {
      const r = url(path)
      const linkFormat = await (await fetch(`${r}?ext=timemap`)).text()
      const ids = [...linkFormat.matchAll(/\?version=(\d+)>/g)].map(m => Number(m[1]))
      expect(ids.length).toBe(count)
      // The text the TimeMap had when it was built whole (before it streamed), for these ids.
      const date = (ms: number) => new Date(ms).toUTCString()
      const lines = [
        `<${r}>; rel="original timegate"`,
        `<${r}?ext=timemap>; rel="self"; type="application/link-format"; from="${date(ids[0]!)}"; until="${date(ids.at(-1)!)}"`,
        ...ids.map((id, i) => {
          const rel = [i === 0 ? 'first' : '', i === ids.length - 1 ? 'last' : '', 'memento'].filter(Boolean).join(' ')
          return `<${r}?version=${id}>; rel="${rel}"; datetime="${date(id)}"`
        }),
      ]
      expect(linkFormat).toBe(`${lines.join(',\n')}\n`)
      const turtle = [
        '@prefix mem: <http://mementoweb.org/ns#>.',
        '@prefix xsd: <http://www.w3.org/2001/XMLSchema#>.',
        '',
        `<${r}?ext=timemap> a mem:TimeMap; mem:original <${r}>; mem:timegate <${r}>.`,
        ...ids.flatMap(id => [
          `<${r}?ext=timemap> mem:memento <${r}?version=${id}>.`,
          `<${r}?version=${id}> a mem:Memento; mem:original <${r}>; mem:mementoDatetime "${new Date(id).toISOString()}"^^xsd:dateTime.`,
        ]),
      ]
      expect(await (await fetch(`${r}?ext=timemap`, { headers: { accept: 'text/turtle' } })).text()).toBe(`${turtle.join('\n')}\n`)
      const head = await fetch(`${r}?ext=timemap`, { method: 'HEAD' })
      expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/link-format', ''])
    }
  })

  test('Accept-Datetime before the first version → 404 memento_not_found', async () => {
    const res = await fetch(url('/pub/doc.ttl'), { headers: { 'accept-datetime': secondsLater(created, -3600) }, redirect: 'manual' })
    await expectRsError(res, 404, 'memento_not_found')
  })

  test.each(['yesterday', '2026-01-01T00:00:00Z', 'Tue, 32 Jun 2000 18:02:59 GMT', 'Mon, 20 Jun 2000 18:02:59 GMT', 'Tue, 20 Jun 2000 18:02:59 CET'])(
    'a malformed Accept-Datetime (%p) → 400 invalid_accept_datetime',
    async value => {
      await expectRsError(await fetch(url('/pub/doc.ttl'), { headers: { 'accept-datetime': value }, redirect: 'manual' }), 400, 'invalid_accept_datetime')
    },
  )

  test('an unknown memento → 404 memento_not_found', async () => {
    await expectRsError(await fetch(url('/pub/doc.ttl?version=12345')), 404, 'memento_not_found')
    await expectRsError(await fetch(url('/pub/doc.ttl?version=soon')), 404, 'memento_not_found')
  })
})

describe("a folder's mementos are its own statements", () => {
  test('its members coming and going move its Last-Modified, not its memento: Accept-Datetime at its creation reaches it, and the URL stays good', async () => {
    expect((await put('/pub/box/', '<> <http://example.org/v> "box".')).status).toBe(201)
    const created = (await fetch(url('/pub/box/'))).headers.get('last-modified')!
    await Bun.sleep(1100)
    expect((await fetch(url('/pub/box/a.txt'), withBody('PUT', 'text/plain', 'a'))).status).toBe(201)
    expect((await fetch(url('/pub/box/'))).headers.get('last-modified')).not.toBe(created)
    const gate = await fetch(url('/pub/box/'), { headers: { 'accept-datetime': created }, redirect: 'manual' })
    expect(gate.status).toBe(302)
    const memento = gate.headers.get('location')!
    expect(mementosOf(await (await fetch(url('/pub/box/?ext=timemap'))).text())).toEqual([[memento, 'first last memento', created]])
    // Another member later: the memento the TimeGate gave still answers, with the folder's own statements
    expect((await fetch(url('/pub/box/b.txt'), withBody('PUT', 'text/plain', 'b'))).status).toBe(201)
    const res = await fetch(memento, { headers: { accept: 'text/turtle' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('memento-datetime')).toBe(created)
    expect(valuesOf(await res.text(), url('/pub/box/'))).toEqual(['box'])
    // Its own statements replaced: the state of its creation is a version, still at the same URL
    expect((await put('/pub/box/', '<> <http://example.org/v> "crate".')).status).toBe(204)
    expect(valuesOf(await (await fetch(memento, { headers: { accept: 'text/turtle' } })).text(), url('/pub/box/'))).toEqual(['box'])
    await expectRsError(
      await fetch(url('/pub/box/'), { headers: { 'accept-datetime': secondsLater(created, -3600) }, redirect: 'manual' }),
      404,
      'memento_not_found',
    )
  })
})

describe('who may read the versions: whoever may Read the URI now', () => {
  test("a stranger asking a private file's TimeMap, a memento or the TimeGate gets what a GET would: 401 with the challenges", async () => {
    for (const target of ['/private/secret.ttl?ext=timemap', '/private/secret.ttl?version=1']) {
      const res = await fetch(url(target))
      expect(res.headers.get('www-authenticate')).toContain('DPoP')
      await expectRsError(res, 401, 'unauthenticated')
    }
    const gate = await fetch(url('/private/secret.ttl'), { headers: { 'accept-datetime': new Date().toUTCString() }, redirect: 'manual' })
    await expectRsError(gate, 401, 'unauthenticated')
    await expectRsError(await fetch(url('/private/gone.ttl?ext=timemap')), 401, 'unauthenticated')
  })

  test("an ACL's versions need Control, as the ACL does: the public, who may Read and Write /pub/, gets a GET's 401 for its TimeMap, a memento and the TimeGate", async () => {
    await expectRsError(await fetch(url('/pub/.acl')), 401, 'unauthenticated')
    for (const target of ['/pub/.acl?ext=timemap', `/pub/.acl?version=${Date.now()}`]) await expectRsError(await fetch(url(target)), 401, 'unauthenticated')
    await expectRsError(await fetch(url('/pub/.acl'), { headers: { 'accept-datetime': new Date().toUTCString() }, redirect: 'manual' }), 401, 'unauthenticated')
  })

  test('a deleted public document keeps public versions; the TimeGate knows it was gone after its delete', async () => {
    expect((await put('/pub/gone.ttl', '<#it> <http://example.org/v> "kept".')).status).toBe(201)
    const written = (await fetch(url('/pub/gone.ttl'))).headers.get('last-modified')!
    await Bun.sleep(1100)
    expect((await fetch(url('/pub/gone.ttl'), { method: 'DELETE' })).status).toBe(204)
    expect((await fetch(url('/pub/gone.ttl'))).status).toBe(404)
    const map = await fetch(url('/pub/gone.ttl?ext=timemap'))
    expect(map.status).toBe(200)
    const [[memento]] = [mementosOf(await map.text())]
    expect(memento![2]).toBe(written)
    expect(valuesOf(await (await fetch(memento![0])).text(), url('/pub/gone.ttl'))).toEqual(['kept'])
    const before = await fetch(url('/pub/gone.ttl'), { headers: { 'accept-datetime': written }, redirect: 'manual' })
    expect(before.headers.get('location')).toBe(memento![0])
    const after = await fetch(url('/pub/gone.ttl'), { headers: { 'accept-datetime': secondsLater(written, 60) }, redirect: 'manual' })
    await expectRsError(after, 404, 'memento_not_found')
  })
})

describe('files', () => {
  test("a replaced file's memento streams its old bytes, also after a restart (the blob sweep keeps what versions hold)", async () => {
    const first = randomBytes(3000)
    expect((await fetch(url('/pub/f.bin'), withBody('PUT', 'application/octet-stream', first))).status).toBe(201)
    expect((await fetch(url('/pub/f.bin'), withBody('PUT', 'application/octet-stream', randomBytes(10)))).status).toBe(204)
    await pod.restart()
    const [[memento]] = [mementosOf(await (await fetch(url('/pub/f.bin?ext=timemap'))).text())]
    const res = await fetch(memento![0])
    expect(res.status).toBe(200)
    expect(res.headers.get('memento-datetime')).toBe(memento![2])
    expect(Buffer.from(await res.arrayBuffer()).equals(first)).toBe(true)
    const range = await fetch(memento![0], { headers: { range: 'bytes=0-9' } })
    expect(range.status).toBe(206)
    expect(Buffer.from(await range.arrayBuffer()).equals(first.subarray(0, 10))).toBe(true)
  })
})
