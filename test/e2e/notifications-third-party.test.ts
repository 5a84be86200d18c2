// A third-party Solid Notifications client against the pod: @solid-notifications/subscription (with its
// discovery client, from the Solid Application Interoperability work) discovers the subscription service in
// the storage description, subscribes in Turtle with the owner's DPoP-bound token, and the WebSocket it is
// given receives the pod's notifications.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SubscriptionClient } from '@solid-notifications/subscription'
import { startPod, type RunningPod } from './start-server.ts'
import { listenOnSocket, signInOwnerApp, type OwnerApp } from './notify-client.ts'

const NOTIFY = 'http://www.w3.org/ns/solid/notifications#'
let pod: RunningPod
let owner: OwnerApp
beforeAll(async () => {
  pod = await startPod()
  owner = await signInOwnerApp(pod, 'A third-party notifications client')
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

// A space, an accent and encoded `#`, `?`, `%`, `+` in the topic's name
const DOC = '/shopping%20list/%C3%A9picerie%20%23%3F%25+.ttl'

describe('@solid-notifications/subscription', () => {
  test('discovers WebSocketChannel2023, subscribes in Turtle, and the socket hears the next change', async () => {
    const topic = pod.baseUrl + DOC
    const put = (body: string) => owner.fetch(topic, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
    expect((await put('<#milk> <http://example.org/qty> 1.')).status).toBe(201)
    const client = new SubscriptionClient(owner.fetch as typeof fetch)
    const channel = await client.subscribe(topic, `${NOTIFY}WebSocketChannel2023`)
    expect(channel.type).toBe(`${NOTIFY}WebSocketChannel2023`)
    expect(channel.topic).toBe(topic)
    expect(channel.receiveFrom).toStartWith(`ws://localhost:${pod.port}/.notifications/WebSocketChannel2023/`)
    const { socket, inbox } = await listenOnSocket(channel.receiveFrom!)
    try {
      expect((await put('<#milk> <http://example.org/qty> 2.')).status).toBeLessThan(300)
      const etag = (await owner.fetch(topic, { headers: { accept: 'text/turtle' } })).headers.get('etag')
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: topic, state: etag })
    } finally {
      socket.close()
    }
  })
})
