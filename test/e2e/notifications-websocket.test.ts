// WebSocketChannel2023 (Solid Notifications Protocol 0.3) over real HTTP: discovery, subscribing with Read,
// Activity Streams notifications with the new ETag as state, the features, unsubscribing, and the refusals.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError, hasTriple, linksOf, parseTurtle } from '../rs/rs-helpers.ts'
import { listenOnSocket, signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'

let pod: RunningPod
let owner: OwnerApp
beforeAll(async () => {
  pod = await startPod()
  owner = await signInOwnerApp(pod)
  // /pub/: the owner's, and readable by everyone
  await put('/pub/news.ttl', '<#n> <http://example.org/p> "0".')
  await put(
    '/pub/.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
  )
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
// Names are not ASCII: a space, an accent, and encoded `#`, `?`, `%` and `+`
const FOLDER = '/notes%20%C3%A9t%C3%A9/'
const DOC = `${FOLDER}caf%C3%A9%20%23%3F%25+.ttl`

async function put(path: string, body: string) {
  const res = await owner.fetch(url(path), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
  expect(res.status).toBeLessThan(300)
  return res
}
const etagOf = async (path: string) => (await owner.fetch(url(path), { headers: { accept: 'text/turtle' } })).headers.get('etag')

describe('discovery', () => {
  test('the storage description names the three subscription services with their channel types and features', async () => {
    const description = url('/.well-known/solid')
    const res = await fetch(description, { headers: { accept: 'text/turtle' } })
    const quads = parseTurtle(await res.text(), description)
    const NOTIFY = (t: string) => `http://www.w3.org/ns/solid/notifications#${t}`
    for (const type of ['WebSocketChannel2023', 'StreamingHTTPChannel2023', 'WebhookChannel2023']) {
      const service = url(`/.notifications/${type}/`)
      expect(hasTriple(quads, description, NOTIFY('subscription'), service)).toBe(true)
      expect(hasTriple(quads, service, NOTIFY('channelType'), NOTIFY(type))).toBe(true)
      for (const feature of ['state', 'startAt', 'endAt', 'rate', 'accept']) expect(hasTriple(quads, service, NOTIFY('feature'), NOTIFY(feature))).toBe(true)
    }
  })

  test('each subscription service describes itself (channel type and features), in the RDF syntax asked for; another → 406 not_acceptable', async () => {
    const service = url('/.notifications/StreamingHTTPChannel2023/')
    const res = await fetch(service, { headers: { accept: 'text/turtle' } })
    expect(res.status).toBe(200)
    const quads = parseTurtle(await res.text(), service)
    const NOTIFY = (t: string) => `http://www.w3.org/ns/solid/notifications#${t}`
    expect(hasTriple(quads, service, NOTIFY('channelType'), NOTIFY('StreamingHTTPChannel2023'))).toBe(true)
    expect(hasTriple(quads, service, NOTIFY('feature'), NOTIFY('rate'))).toBe(true)
    const jsonld = await fetch(service, { headers: { accept: 'application/ld+json' } })
    expect(jsonld.headers.get('content-type')).toStartWith('application/ld+json')
    await expectRsError(await fetch(service, { headers: { accept: 'image/png' } }), 406, 'not_acceptable')
  })

  test('a resource links its own stream (rel updatesViaStreamingHttp2023) and the storage description', async () => {
    const res = await fetch(url('/pub/'), { method: 'HEAD' })
    const links = linksOf(res)
    expect(links).toContainEqual({
      target: `${pod.baseUrl}/.notifications/StreamingHTTPChannel2023/topics/pub/`,
      rel: 'http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023',
    })
    expect(links).toContainEqual({ target: `${pod.baseUrl}/.well-known/solid`, rel: 'http://www.w3.org/ns/solid/terms#storageDescription' })
  })
})

describe('WebSocketChannel2023', () => {
  test('the owner subscribes to a document: Create, Update and Delete arrive, each with the ETag a GET shows as state', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), {}, owner.fetch)
    expect(sub.status).toBe(200)
    expect(sub.body.type).toBe('WebSocketChannel2023')
    expect(sub.body.topic).toBe(url(DOC))
    expect(String(sub.body.receiveFrom)).toStartWith(`ws://localhost:${pod.port}/.notifications/WebSocketChannel2023/`)
    expect(String(sub.body.id)).toStartWith(`${pod.baseUrl}/.notifications/WebSocketChannel2023/`)
    const { socket, inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    try {
      await put(DOC, '<#a> <http://example.org/p> "1".')
      const created = await inbox.next()
      expect(created['@context']).toEqual(['https://www.w3.org/ns/activitystreams', 'https://www.w3.org/ns/solid/notification/v1'])
      expect(created).toMatchObject({ type: 'Create', object: url(DOC), state: await etagOf(DOC) })
      expect(created.id).toStartWith('urn:uuid:')
      expect(Date.parse(created.published)).toBeGreaterThan(Date.now() - 60_000)
      await put(DOC, '<#a> <http://example.org/p> "2".')
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: url(DOC), state: await etagOf(DOC) })
      expect((await owner.fetch(url(DOC), { method: 'DELETE' })).status).toBe(204)
      const deleted = await inbox.next()
      expect(deleted).toMatchObject({ type: 'Delete', object: url(DOC) })
      expect(deleted.state).toBeUndefined()
    } finally {
      socket.close()
    }
  })

  test('a container subscriber hears Add and Remove of members, with the member as object and the container as target', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(FOLDER), {}, owner.fetch)
    const { socket, inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    try {
      await put(DOC, '<#a> <http://example.org/p> "3".')
      const added = await inbox.next()
      expect(added).toMatchObject({ type: 'Add', object: url(DOC), target: url(FOLDER), state: await etagOf(FOLDER) })
      await put(DOC, '<#a> <http://example.org/p> "4".')
      expect(await inbox.quietFor(300)).toBe(true) // a member's update is not the container's news
      await owner.fetch(url(DOC), { method: 'DELETE' })
      expect(await inbox.next()).toMatchObject({ type: 'Remove', object: url(DOC), target: url(FOLDER) })
    } finally {
      socket.close()
    }
  })

  test('state: a subscriber holding an old state is told the current one as soon as it connects', async () => {
    await put(DOC, '<#a> <http://example.org/p> "5".')
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { state: '"an-old-etag"' }, owner.fetch)
    const { socket, inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    try {
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: url(DOC), state: await etagOf(DOC) })
      // with the current state, nothing is sent
      const current = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { state: await etagOf(DOC) }, owner.fetch)
      const second = await listenOnSocket(String(current.body.receiveFrom))
      expect(await second.inbox.quietFor(300)).toBe(true)
      second.socket.close()
    } finally {
      socket.close()
    }
  })

  test('rate: changes closer together than the rate are told as the latest one, once the rate has passed', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { rate: 'PT0.6S' }, owner.fetch)
    const { socket, inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    try {
      for (let i = 0; i < 3; i++) await put(DOC, `<#a> <http://example.org/p> "r${i}".`)
      const first = await inbox.next()
      const last = await inbox.next(2000)
      expect(first.type).toBe('Update')
      expect(last.state).toBe((await etagOf(DOC)) as string)
      expect(Date.parse(last.published) - Date.parse(first.published)).toBeGreaterThanOrEqual(0)
      expect(await inbox.quietFor(800)).toBe(true)
    } finally {
      socket.close()
    }
  })

  test('startAt in the future: nothing is sent before it; endAt: the channel ends then', async () => {
    const later = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { startAt: new Date(Date.now() + 3_600_000).toISOString() }, owner.fetch)
    const a = await listenOnSocket(String(later.body.receiveFrom))
    const ending = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { endAt: new Date(Date.now() + 500).toISOString() }, owner.fetch)
    const b = await listenOnSocket(String(ending.body.receiveFrom))
    await Bun.sleep(600)
    await put(DOC, '<#a> <http://example.org/p> "later".')
    expect(await a.inbox.quietFor(300)).toBe(true)
    expect((await b.inbox.closedWithin())?.reason).toBe('end_at')
    expect(b.inbox.pending).toEqual([])
    a.socket.close()
  })

  test('accept text/turtle: notifications come as Turtle', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), { accept: 'text/turtle' }, owner.fetch)
    expect(sub.body.accept).toBe('text/turtle')
    const socket = new WebSocket(String(sub.body.receiveFrom))
    const got = new Promise<string>(resolve => {
      socket.onmessage = e => resolve(String(e.data))
    })
    await new Promise(r => {
      socket.onopen = r
    })
    await put(DOC, '<#a> <http://example.org/p> "ttl".')
    const text = await got
    socket.close()
    expect(text).toContain('@prefix as: <https://www.w3.org/ns/activitystreams#>')
    expect(text).toContain('as:Update')
    expect(text).toContain(`as:object <${url(DOC)}>`)
  })

  test('DELETE of the channel id unsubscribes: the socket closes and nothing more is sent', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), {}, owner.fetch)
    const { inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    await expectRsError(await fetch(String(sub.body.id), { method: 'DELETE' }), 401, 'unauthenticated')
    expect((await owner.fetch(String(sub.body.id), { method: 'DELETE' })).status).toBe(204)
    expect((await inbox.closedWithin())?.reason).toBe('unsubscribed')
    await put(DOC, '<#a> <http://example.org/p> "after".')
    expect(inbox.pending).toEqual([])
    await expectRsError(await owner.fetch(String(sub.body.id), { method: 'DELETE' }), 404, 'not_found')
  })

  test('a receiveFrom opens once: a second connection, or one to an unknown channel, is refused', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), {}, owner.fetch)
    const { socket } = await listenOnSocket(String(sub.body.receiveFrom))
    await expect(listenOnSocket(String(sub.body.receiveFrom))).rejects.toThrow('could not open')
    await expect(listenOnSocket(`ws://localhost:${pod.port}/.notifications/WebSocketChannel2023/${'0'.repeat(32)}`)).rejects.toThrow('could not open')
    const plain = await fetch(`${pod.baseUrl}/.notifications/WebSocketChannel2023/${'0'.repeat(32)}`, {
      headers: { upgrade: 'websocket', connection: 'upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
    })
    await expectRsError(plain, 404, 'not_found')
    socket.close()
  })
})

describe('who may listen', () => {
  test('subscribing to a document the requester may not read: anonymous 401 with the challenges, nothing opened', async () => {
    await put('/private/secret.ttl', '<#s> <http://example.org/p> "secret".')
    const res = await fetch(url('/.notifications/WebSocketChannel2023/'), {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({ type: 'WebSocketChannel2023', topic: url('/private/secret.ttl') }),
    })
    await expectRsError(res, 401, 'unauthenticated')
    expect(res.headers.get('www-authenticate')).toContain('DPoP')
  })

  test('a public topic needs no login; when the owner takes the public Read away, the channel ends and tells nothing more', async () => {
    const sub = await subscribe(pod, 'WebSocketChannel2023', url('/pub/news.ttl'))
    expect(sub.status).toBe(200)
    const { inbox } = await listenOnSocket(String(sub.body.receiveFrom))
    await put('/pub/news.ttl', '<#n> <http://example.org/p> "2".')
    expect((await inbox.next()).type).toBe('Update')
    // the owner makes /pub/ private
    const acl = await owner.fetch(url('/pub/.acl'), {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: `@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    })
    expect(acl.status).toBeLessThan(300)
    await put('/pub/news.ttl', '<#n> <http://example.org/p> "3, secret now".')
    const closed = await inbox.closedWithin()
    expect(closed).toEqual({ code: 1008, reason: 'access_lost' })
    expect(inbox.pending).toEqual([])
  })
})

describe('subscription requests that are refused', () => {
  const post = (body: string, type = 'application/ld+json') =>
    owner.fetch(url('/.notifications/WebSocketChannel2023/'), { method: 'POST', headers: { 'content-type': type }, body })
  const request = (fields: Record<string, unknown>) => post(JSON.stringify({ type: 'WebSocketChannel2023', topic: url(DOC), ...fields }))

  test('not JSON-LD → 415 unsupported_media_type', async () => {
    await expectRsError(await post('type=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type')
  })
  test.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['another channel type', JSON.stringify({ type: 'WebhookChannel2023', topic: 'x' })],
    ['no topic', JSON.stringify({ type: 'WebSocketChannel2023' })],
    ['a topic on another server', JSON.stringify({ type: 'WebSocketChannel2023', topic: 'https://elsewhere.example/doc' })],
    ['a topic with a query', JSON.stringify({ type: 'WebSocketChannel2023', topic: 'TOPIC?x=1' })],
  ])('%s → 400 invalid_subscription', async (_, body) => {
    await expectRsError(await post(body.replace('TOPIC', url(DOC))), 400, 'invalid_subscription')
  })
  test.each([
    ['endAt in the past', { endAt: '2001-01-01T00:00:00Z' }],
    ['startAt without a time zone', { startAt: '2030-01-01T00:00:00' }],
    ['endAt before startAt', { startAt: '2031-01-01T00:00:00Z', endAt: '2030-01-01T00:00:00Z' }],
    ['rate in months', { rate: 'P1M' }],
    ['rate not a duration', { rate: '10 seconds' }],
    ['state not a string', { state: 42 }],
  ])('%s → 400 invalid_subscription', async (_, fields) => {
    await expectRsError(await request(fields), 400, 'invalid_subscription')
  })
  test('accept of a type the pod does not send → 422 unsupported_notification_format', async () => {
    await expectRsError(await request({ accept: 'image/png' }), 422, 'unsupported_notification_format')
  })
  test('a body over 16 KiB → 413 payload_too_large', async () => {
    await expectRsError(await request({ padding: 'x'.repeat(20_000) }), 413, 'payload_too_large')
  })
})

describe('a bounded number of channels', () => {
  test("past --max-channels a stranger's subscription is refused with 503 too_many_channels and Retry-After; once one ends, there is room again", async () => {
    const small = await startPod({ extraArgs: ['--max-channels', '2'] })
    try {
      // the owner's profile is public: anonymous strangers may listen to it
      const topic = small.baseUrl + '/profile/card'
      const open = []
      for (let i = 0; i < 2; i++) {
        const sub = await subscribe(small, 'WebSocketChannel2023', topic, {})
        open.push(await listenOnSocket(String(sub.body.receiveFrom)))
      }
      const refused = await fetch(`${small.baseUrl}/.notifications/WebSocketChannel2023/`, {
        method: 'POST',
        headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ type: 'WebSocketChannel2023', topic }),
      })
      expect(refused.headers.get('retry-after')).toBe('60')
      await expectRsError(refused, 503, 'too_many_channels')
      open[0]!.socket.close()
      await open[0]!.inbox.closedWithin()
      for (let waited = 0; waited < 2000; waited += 50) {
        if ((await subscribe(small, 'WebSocketChannel2023', topic, {})).status === 200) break
        await Bun.sleep(50)
      }
      expect((await subscribe(small, 'WebSocketChannel2023', topic, {})).status).toBe(200)
      open[1]!.socket.close()
    } finally {
      await small.dispose()
    }
  }, 60_000)
})
