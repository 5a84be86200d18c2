// Nobody locked out (issue "Nothing lost, nobody locked out"): one client — an anonymous address, or an agent —
// holds at most --max-channels-per-client channels (429 too_many_client_channels past it), the strangers
// together at most --max-channels (503 too_many_channels), while the owner's channels are counted apart and still
// open; anonymous webhooks are refused (401 with the challenges).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError } from '../rs/rs-helpers.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'
import { Inbox, listenOnSocket, signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'

// RFC 9421 B.1.4 test-key-ed25519 and its did:key: a second client, an agent of its own
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'
const WS = 'WebSocketChannel2023'

let pod: RunningPod
let owner: OwnerApp
const url = (path: string) => pod.baseUrl + path
const topic = () => url('/profile/card') // public: strangers may listen

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--max-channels-per-client', '2', '--max-channels', '3'] })
  owner = await signInOwnerApp(pod, "The owner's app among strangers")
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

/** The did:key agent's subscription, signed (RFC 9421). */
async function subscribeAsDid(type: string, features: Record<string, unknown> = {}): Promise<Response> {
  const target = url(`/.notifications/${type}/`)
  const body = JSON.stringify({ type, topic: topic(), ...features })
  const headers = await signedHeaders(target, {
    key: privateKeyOf(ED25519),
    alg: 'ed25519',
    keyid: DID,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/ld+json' },
  })
  return fetch(target, { method: 'POST', headers, body })
}

const anonymousPost = (type: string, features: Record<string, unknown> = {}) =>
  fetch(url(`/.notifications/${type}/`), {
    method: 'POST',
    headers: { 'content-type': 'application/ld+json' },
    body: JSON.stringify({ type, topic: topic(), ...features }),
  })

describe('per client, and the owner apart', () => {
  test('an anonymous client past its cap gets 429 too_many_client_channels on every channel type; a second client still gets a slot; the owner still subscribes when strangers filled the pod', async () => {
    const sockets: WebSocket[] = []
    let waitingId: string | undefined
    try {
      // The anonymous client (this address): two channels, one connected and one still waiting — both count
      const first = await subscribe(pod, WS, topic())
      expect(first.status).toBe(200)
      sockets.push((await listenOnSocket(String(first.body.receiveFrom))).socket)
      const waiting = await subscribe(pod, WS, topic())
      expect(waiting.status).toBe(200)
      waitingId = String(waiting.body.id)
      const refused = await anonymousPost(WS)
      expect(refused.headers.get('retry-after')).toBe('60')
      await expectRsError(refused, 429, 'too_many_client_channels')
      await expectRsError(await fetch(url('/.notifications/StreamingHTTPChannel2023/topics/profile/card')), 429, 'too_many_client_channels')
      // the solid-0.1 socket: its sub is refused with an err line, the socket stays
      const legacy = new WebSocket(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
      sockets.push(legacy)
      const lines = new Inbox<string>()
      legacy.onmessage = e => lines.push(String(e.data))
      await new Promise<void>((resolve, reject) => {
        legacy.onopen = () => resolve()
        legacy.onerror = () => reject(new Error('could not open'))
      })
      legacy.send(`sub ${topic()}`)
      expect(await lines.next()).toBe(`err ${topic()} too many notification channels from this client`)
      sockets.push((await listenOnSocket(String(waiting.body.receiveFrom))).socket)

      // A second client (another agent) still gets a slot: the third of the strangers' pool
      const other = await subscribeAsDid(WS)
      expect(other.status).toBe(200)
      sockets.push((await listenOnSocket(String(((await other.json()) as { receiveFrom: string }).receiveFrom))).socket)
      // now the strangers' pool (--max-channels 3) is full: 503, not the client's 429
      const full = await subscribeAsDid(WS)
      expect(full.headers.get('retry-after')).toBe('60')
      await expectRsError(full, 503, 'too_many_channels')

      // The owner, at the same time: subscribes, connects, and hears the next change
      const mine = await subscribe(pod, WS, topic(), {}, owner.fetch)
      expect(mine.status).toBe(200)
      const { socket, inbox } = await listenOnSocket(String(mine.body.receiveFrom))
      sockets.push(socket)
      const card = await owner.fetch(topic(), { headers: { accept: 'text/turtle' } })
      const turtle = await card.text()
      expect(
        (await owner.fetch(topic(), { method: 'PUT', headers: { 'content-type': 'text/turtle', 'if-match': card.headers.get('etag')! }, body: turtle })).status,
      ).toBeLessThan(300)
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: topic() })
    } finally {
      for (const s of sockets) s.close()
      if (waitingId) await fetch(waitingId, { method: 'DELETE' }) // gone already when it was connected
    }
  }, 60_000)

  test('once the client ends a channel, it has a slot again', async () => {
    // the first test's sockets are closed: their slots come free as the pod sees the closes
    let first = await subscribe(pod, WS, topic())
    for (let waited = 0; waited < 3000 && first.status !== 200; waited += 50) {
      await Bun.sleep(50)
      first = await subscribe(pod, WS, topic())
    }
    const second = await subscribe(pod, WS, topic())
    expect([first.status, second.status]).toEqual([200, 200])
    await expectRsError(await anonymousPost(WS), 429, 'too_many_client_channels')
    expect((await fetch(String(first.body.id), { method: 'DELETE' })).status).toBe(204)
    expect((await anonymousPost(WS)).status).toBe(200)
  }, 30_000)
})

describe('webhooks', () => {
  test('an anonymous webhook is refused: 401 unauthenticated with the challenges, nothing stored', async () => {
    const res = await anonymousPost('WebhookChannel2023', { sendTo: 'https://receiver.example/hook' })
    const challenges = res.headers.get('www-authenticate') ?? ''
    expect(challenges).toContain('DPoP')
    expect(challenges).toContain('HttpSig')
    expect(res.headers.get('accept-signature')).toContain('content-digest')
    await expectRsError(res, 401, 'unauthenticated')
  })
})
