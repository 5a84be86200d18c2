// StreamingHTTPChannel2023 over real HTTP, slow and silent subscribers, and a revoked app: what the pod
// does when a listener's access ends, or when it stops reading.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError, linksOf } from '../rs/rs-helpers.ts'
import { listenOnSocket, listenOnStream, signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
beforeAll(async () => {
  pod = await startPod()
  owner = await signInOwnerApp(pod)
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
const DOC = '/diary/%C3%BCber%20%23%3F%25+.ttl'
const put = async (path: string, body: string) => {
  const res = await owner.fetch(url(path), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
  expect(res.status).toBeLessThan(300)
}

describe('StreamingHTTPChannel2023', () => {
  test("the topic's own stream (its updatesViaStreamingHttp2023 link), fetched with the owner's token, carries its notifications", async () => {
    await put(DOC, '<#d> <http://example.org/p> "1".')
    const head = await owner.fetch(url(DOC), { method: 'HEAD' })
    const stream = linksOf(head).find(l => l.rel === 'http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023')!.target
    const res = await owner.fetch(stream)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    const { inbox, stop } = listenOnStream(res)
    try {
      await put(DOC, '<#d> <http://example.org/p> "2".')
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: url(DOC) })
    } finally {
      stop()
    }
  })

  test('a subscribed channel: its receiveFrom streams to the agent that subscribed, and to no one else', async () => {
    const sub = await subscribe(pod, 'StreamingHTTPChannel2023', url(DOC), {}, owner.fetch)
    expect(sub.status).toBe(200)
    const receiveFrom = String(sub.body.receiveFrom)
    expect(receiveFrom).toStartWith(`${pod.baseUrl}/.notifications/StreamingHTTPChannel2023/`)
    await expectRsError(await fetch(receiveFrom), 401, 'unauthenticated')
    const res = await owner.fetch(receiveFrom)
    expect(res.status).toBe(200)
    const { inbox, stop } = listenOnStream(res)
    try {
      await put(DOC, '<#d> <http://example.org/p> "3".')
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: url(DOC) })
    } finally {
      stop()
    }
    await expectRsError(await owner.fetch(receiveFrom), 404, 'not_found')
  })

  test('a stream of a topic the requester may not read: 401 for anonymous', async () => {
    await expectRsError(await fetch(`${pod.baseUrl}/.notifications/StreamingHTTPChannel2023/topics${DOC}`), 401, 'unauthenticated')
  })
})

describe('a revoked app', () => {
  test('when the owner revokes the app that subscribed, its channel ends and hears nothing more', async () => {
    const app = await signInOwnerApp(pod, 'An app the owner revokes')
    try {
      const sub = await subscribe(pod, 'WebSocketChannel2023', url(DOC), {}, app.fetch)
      expect(sub.status).toBe(200)
      const { inbox } = await listenOnSocket(String(sub.body.receiveFrom))
      await put(DOC, '<#d> <http://example.org/p> "4".')
      expect((await inbox.next()).type).toBe('Update')
      const csrf = { token: await csrfToken(pod.baseUrl, app.browser) }.token
      const revoked = await fetch(url(`/.admin/api/consents/${encodeURIComponent(app.client.clientId)}`), {
        method: 'DELETE',
        headers: { cookie: app.browser.header(), 'x-csrf-token': csrf, origin: pod.baseUrl },
      })
      expect(revoked.status).toBe(204)
      await put(DOC, '<#d> <http://example.org/p> "5, after the revocation".')
      expect(await inbox.closedWithin()).toEqual({ code: 1008, reason: 'session_revoked' })
      expect(inbox.pending).toEqual([])
    } finally {
      app.stop()
    }
  })
})

describe('a subscriber that never reads', () => {
  test('its channel is ended and its socket dropped once its queue is full; the pod goes on serving and other listeners still hear', async () => {
    // A long name makes each notification ~2 KB, so the socket and the kernel buffers fill in a few thousand writes.
    const topic = `/slow/${'n'.repeat(1800)}.ttl`
    await put(topic, '<#s> <http://example.org/p> 0.')
    const sub = await subscribe(pod, 'WebSocketChannel2023', url(topic), {}, owner.fetch)
    const other = await subscribe(pod, 'WebSocketChannel2023', url(topic), {}, owner.fetch)
    const reading = await listenOnSocket(String(other.body.receiveFrom))
    // A raw client: the handshake, then it stops reading (its socket is paused).
    const path = new URL(String(sub.body.receiveFrom)).pathname
    const socket = connect(pod.port, '127.0.0.1')
    let handshake = ''
    await new Promise<void>(resolve => {
      socket.on('connect', () =>
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: localhost:${pod.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      )
      socket.on('data', d => {
        handshake += d.toString('latin1')
        if (handshake.includes('\r\n\r\n')) {
          socket.pause()
          resolve()
        }
      })
    })
    expect(handshake).toStartWith('HTTP/1.1 101')
    let received = 0
    const counting = (async () => {
      for (;;) {
        await reading.inbox.next(10_000)
        received++
      }
    })().catch(() => undefined)
    let writes = 0
    for (; writes < 6000 && !pod.stdout().includes('"reason":"too_slow"'); writes++) await put(topic, `<#s> <http://example.org/p> ${writes}.`)
    expect(pod.stdout()).toContain('"reason":"too_slow"')
    // the reading listener heard every one of them
    for (let waited = 0; received < writes && waited < 5000; waited += 50) await Bun.sleep(50)
    expect(received, `heard ${received} of ${writes}`).toBe(writes)
    // the pod goes on serving (the silent socket was dropped server-side: Bun's node:net does not report the
    // close of a paused socket, so the log is what tells)
    expect((await owner.fetch(url(topic))).status).toBe(200)
    socket.destroy()
    reading.socket.close()
    void counting
  }, 120_000)
})
