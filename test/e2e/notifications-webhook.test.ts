// WebhookChannel2023 over real HTTP: notifications POSTed to a receiver on loopback, signed by the pod (RFC 9421,
// checked by an independent verifier with the key fetched from its keyid), retried, refused for private targets,
// ended when access goes, unsubscribed by DELETE, and kept across a restart.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError, parseTurtle } from '../rs/rs-helpers.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'
import { NOTIFICATION_CONTEXT, signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'
import { eventually, startReceiver, verifyDelivery, type Receiver } from './webhook-receiver.ts'

// RFC 9421 B.1.4 test-key-ed25519 and its did:key: a second agent, given Read by an ACL
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'
const WEBHOOK = 'WebhookChannel2023'

let pod: RunningPod
let owner: OwnerApp
let receiver: Receiver
beforeAll(async () => {
  receiver = startReceiver()
  pod = await startPod()
  owner = await signInOwnerApp(pod)
}, 60_000)
afterAll(async () => {
  owner?.stop()
  receiver?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
const put = async (path: string, body: string, contentType = 'text/turtle') => {
  const res = await owner.fetch(url(path), { method: 'PUT', headers: { 'content-type': contentType }, body })
  expect(res.status).toBeLessThan(300)
}
const remove = async (path: string) => expect((await owner.fetch(url(path), { method: 'DELETE' })).status).toBe(204)
const etagOf = async (path: string) => (await owner.fetch(url(path), { headers: { accept: 'text/turtle' } })).headers.get('etag')
const hook = (topic: string, path: string, features: Record<string, unknown> = {}) =>
  subscribe(pod, WEBHOOK, url(topic), { sendTo: receiver.base + path, ...features }, owner.fetch)

/** The did:key agent's signed request. */
async function asDid(target: string, method: string, body?: string): Promise<Response> {
  const headers = await signedHeaders(target, {
    key: privateKeyOf(ED25519),
    alg: 'ed25519',
    keyid: DID,
    method,
    ...(body !== undefined ? { body, headers: { 'content-type': 'application/ld+json' } } : {}),
  })
  return fetch(target, { method, headers, ...(body !== undefined ? { body } : {}) })
}

describe("the pod's key document", () => {
  test('is public, in Turtle and JSON-LD, with an Ed25519 public key and nothing private', async () => {
    const docUrl = url('/.notifications/webhook-key')
    const ttl = await fetch(docUrl, { headers: { accept: 'text/turtle' } })
    expect(ttl.status).toBe(200)
    expect(ttl.headers.get('content-type')).toStartWith('text/turtle')
    const jwk = JSON.parse(
      parseTurtle(await ttl.text(), docUrl).find(q => q.subject.value === `${docUrl}#key` && q.predicate.value === 'https://w3id.org/security#publicKeyJwk')!
        .object.value,
    )
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' })
    expect(jwk.d).toBeUndefined()
    const ld = await fetch(docUrl, { headers: { accept: 'application/ld+json' } })
    expect(ld.status).toBe(200)
    expect(ld.headers.get('content-type')).toStartWith('application/ld+json')
    expect(await ld.text()).toContain(jwk.x)
  })
})

describe('WebhookChannel2023 delivery', () => {
  test('the subscription answers the channel with sendTo and sender; Create, Update and Delete arrive signed by the pod', async () => {
    const sub = await hook('/pub/doc.ttl', '/doc')
    expect(sub.status).toBe(200)
    expect(sub.body).toMatchObject({ type: WEBHOOK, topic: url('/pub/doc.ttl'), sendTo: `${receiver.base}/doc`, sender: url('/.notifications/webhook-key') })
    expect(String(sub.body.id)).toStartWith(url('/.notifications/WebhookChannel2023/'))
    await put('/pub/doc.ttl', '<#a> <http://example.org/p> "1".')
    const created = (await etagOf('/pub/doc.ttl')) ?? 'no ETag'
    await put('/pub/doc.ttl', '<#a> <http://example.org/p> "2".')
    const updated = (await etagOf('/pub/doc.ttl')) ?? 'no ETag'
    await remove('/pub/doc.ttl')
    await eventually(() => receiver.at('/doc').length >= 3, 'three deliveries')
    const got = receiver.at('/doc')
    expect(got.map(d => [d.json.type, d.json.object, d.json.state])).toEqual([
      ['Create', url('/pub/doc.ttl'), created],
      ['Update', url('/pub/doc.ttl'), updated],
      ['Delete', url('/pub/doc.ttl'), undefined],
    ])
    for (const d of got) {
      expect(d.headers['content-type']).toBe('application/ld+json')
      expect(d.json['@context']).toEqual(['https://www.w3.org/ns/activitystreams', NOTIFICATION_CONTEXT])
      expect(await verifyDelivery(d)).toEqual({ verified: true, keyid: url('/.notifications/webhook-key#key'), digestMatches: true })
    }
    expect(new Set(got.map(d => d.json.id)).size).toBe(3)
  })

  test('a delivery whose body was changed does not verify (the verifier is not a rubber stamp)', async () => {
    const d = receiver.at('/doc')[0]!
    const tampered = { ...d, body: d.body.replace('Create', 'Delete') }
    expect((await verifyDelivery(tampered)).digestMatches).toBe(false)
    const resigned = {
      ...d,
      headers: { ...d.headers, 'content-digest': `sha-256=:${Buffer.from(new Bun.CryptoHasher('sha256').update(tampered.body).digest()).toString('base64')}:` },
    }
    expect((await verifyDelivery(resigned)).verified).toBe(false)
  })

  test('a container subscription hears Add and Remove with the member as object and the container as target', async () => {
    await put('/box/first.ttl', '<#a> <http://example.org/p> "1".')
    expect((await hook('/box/', '/box')).status).toBe(200)
    await put('/box/second.ttl', '<#a> <http://example.org/p> "2".')
    await remove('/box/first.ttl')
    await eventually(() => receiver.at('/box').length >= 2, 'Add and Remove')
    expect(receiver.at('/box').map(d => [d.json.type, d.json.object, d.json.target])).toEqual([
      ['Add', url('/box/second.ttl'), url('/box/')],
      ['Remove', url('/box/first.ttl'), url('/box/')],
    ])
    expect((await verifyDelivery(receiver.at('/box')[0]!)).verified).toBe(true)
  })
})

describe('sendTo is refused where the pod must not post', () => {
  test.each([
    ['https://10.0.0.1/hook', 'private-use'],
    ['http://10.0.0.1/hook', 'plain http is not allowed'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fd00::1]/hook', 'unique-local'],
    ['https://192.168.1.1:8443/hook', 'private-use'],
  ])('%s → 400 unsafe_send_to', async (sendTo, why) => {
    const res = await subscribe(pod, WEBHOOK, url('/pub/'), { sendTo }, owner.fetch)
    const text = String(res.body.text)
    expect([res.status, text.split(':', 1)[0]]).toEqual([400, 'unsafe_send_to'])
    expect(text).toContain(why)
  })

  test("the pod's own origin → 400 unsafe_send_to", async () => {
    const res = await subscribe(pod, WEBHOOK, url('/pub/'), { sendTo: url('/inbox/') }, owner.fetch)
    expect([res.status, String(res.body.text).split(':', 1)[0]]).toEqual([400, 'unsafe_send_to'])
  })
})

describe('retries', () => {
  test('a receiver answering 500 gets the notification again, and it is delivered once; its answer is never quoted', async () => {
    receiver.behave('/flaky', n => (n === 1 ? new Response('RECEIVER-SECRET-BODY', { status: 500 }) : undefined))
    expect((await hook('/pub/flaky.ttl', '/flaky')).status).toBe(200)
    await put('/pub/flaky.ttl', '<#a> <http://example.org/p> "1".')
    await eventually(() => receiver.at('/flaky').length === 1, 'the retried delivery')
    expect(receiver.attemptsAt('/flaky')).toBe(2)
    expect(
      await (async () => {
        await Bun.sleep(1500)
        return receiver.at('/flaky').length
      })(),
    ).toBe(1)
    expect(pod.stdout()).toMatch(/"event":"webhook.failing".*answered 500/)
    expect(pod.output()).not.toContain('RECEIVER-SECRET-BODY')
  })

  test('a receiver that never answers times out and is retried, while another channel of the topic is served at once', async () => {
    receiver.behave('/silent', () => new Promise<Response>(() => {}))
    expect((await hook('/pub/busy.ttl', '/silent')).status).toBe(200)
    expect((await hook('/pub/busy.ttl', '/busy')).status).toBe(200)
    const started = Date.now()
    await put('/pub/busy.ttl', '<#a> <http://example.org/p> "1".')
    await eventually(() => receiver.at('/busy').length === 1, "the answering channel's delivery", 2000)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(receiver.attemptsAt('/silent')).toBe(1)
    // 5 s timeout, then a retry 1 s later
    await eventually(() => receiver.attemptsAt('/silent') >= 2, 'a second attempt at the silent receiver', 10_000)
    expect(pod.stdout()).toMatch(/"event":"webhook.failing".*no answer within 5000 ms/)
  }, 15_000)
})

describe('unsubscribing', () => {
  test('DELETE of the channel id by another agent → 403 forbidden; by its subscriber → 204, and nothing more arrives', async () => {
    const sub = await hook('/pub/gone.ttl', '/gone')
    const id = String(sub.body.id)
    await expectRsError(await asDid(id, 'DELETE'), 403, 'forbidden')
    await expectRsError(await fetch(id, { method: 'DELETE' }), 401, 'unauthenticated')
    await put('/pub/gone.ttl', '<#a> <http://example.org/p> "1".')
    await eventually(() => receiver.at('/gone').length === 1, 'the delivery before unsubscribing')
    expect((await owner.fetch(id, { method: 'DELETE' })).status).toBe(204)
    await expectRsError(await owner.fetch(id, { method: 'DELETE' }), 404, 'not_found')
    await put('/pub/gone.ttl', '<#a> <http://example.org/p> "2".')
    await Bun.sleep(1000)
    expect(receiver.at('/gone').length).toBe(1)
  })
})

describe('who may listen', () => {
  test('the subscriber loses Read (ACL changed): no more deliveries, and the channel is ended', async () => {
    const acl = (readers: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${url('/profile/card#me')}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
${readers}`
    await put('/team/plan.ttl', '<#a> <http://example.org/p> "0".')
    await put('/team/.acl', acl(`<#dee> a acl:Authorization; acl:agent <${DID}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`))
    const service = url('/.notifications/WebhookChannel2023/')
    const res = await asDid(
      service,
      'POST',
      JSON.stringify({ '@context': [NOTIFICATION_CONTEXT], type: WEBHOOK, topic: url('/team/plan.ttl'), sendTo: `${receiver.base}/dee` }),
    )
    expect(res.status).toBe(200)
    const id = ((await res.json()) as { id: string }).id
    await put('/team/plan.ttl', '<#a> <http://example.org/p> "1".')
    await eventually(() => receiver.at('/dee').length === 1, 'the delivery while Dee may read')
    await put('/team/.acl', acl(''))
    await put('/team/plan.ttl', '<#a> <http://example.org/p> "2".')
    await put('/team/plan.ttl', '<#a> <http://example.org/p> "3".')
    await Bun.sleep(1000)
    expect(receiver.at('/dee').length).toBe(1)
    // ended: its id is no channel any more
    await expectRsError(await asDid(id, 'DELETE'), 404, 'not_found')
    expect(pod.stdout()).toMatch(/"event":"notify.channel_ended".*"reason":"access_lost"/)
  })

  test('subscribing without Read of the topic → 403 forbidden, nothing stored', async () => {
    const service = url('/.notifications/WebhookChannel2023/')
    const res = await asDid(
      service,
      'POST',
      JSON.stringify({ '@context': [NOTIFICATION_CONTEXT], type: WEBHOOK, topic: url('/team/plan.ttl'), sendTo: `${receiver.base}/nope` }),
    )
    await expectRsError(res, 403, 'forbidden')
  })
})

describe('restarts', () => {
  test('a subscription survives a restart of the pod', async () => {
    expect((await hook('/pub/kept.ttl', '/kept')).status).toBe(200)
    await pod.restart()
    owner.stop()
    owner = await signInOwnerApp(pod)
    await put('/pub/kept.ttl', '<#a> <http://example.org/p> "1".')
    await eventually(() => receiver.at('/kept').length === 1, 'the delivery after the restart')
    expect(receiver.at('/kept')[0]!.json.type).toBe('Create')
    expect((await verifyDelivery(receiver.at('/kept')[0]!)).verified).toBe(true)
  }, 30_000)
})
